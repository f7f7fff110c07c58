package ports_test

import (
	"math"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestListOptionsBounds checks that pages and limits far out of range give
// offsets that neither overflow nor go negative.
func TestListOptionsBounds(t *testing.T) {
	for _, c := range []struct {
		in      ports.ListOptions
		clamped ports.ListOptions
		offset  int
	}{
		{ports.ListOptions{Page: 1, Limit: 30}, ports.ListOptions{Page: 1, Limit: 30}, 0},
		{ports.ListOptions{Page: 3, Limit: 30}, ports.ListOptions{Page: 3, Limit: 30}, 60},
		{ports.ListOptions{Page: 0, Limit: 30}, ports.ListOptions{Page: 1, Limit: 30}, 0},
		{ports.ListOptions{Page: math.MinInt, Limit: 30}, ports.ListOptions{Page: 1, Limit: 30}, 0},
		{ports.ListOptions{Page: math.MaxInt, Limit: 30}, ports.ListOptions{Page: ports.MaxPage, Limit: 30}, (ports.MaxPage - 1) * 30},
		{ports.ListOptions{Page: math.MaxInt, Limit: math.MaxInt}, ports.ListOptions{Page: ports.MaxPage, Limit: ports.MaxLimit},
			(ports.MaxPage - 1) * ports.MaxLimit},
		{ports.ListOptions{Page: 5, Limit: 0}, ports.ListOptions{Page: 5, Limit: 0}, 0},
		{ports.ListOptions{Page: 5, Limit: -3}, ports.ListOptions{Page: 5, Limit: -3}, 0},
	} {
		is := is.New(t)
		is.Equal(c.in.Clamped(), c.clamped)
		is.Equal(c.in.Offset(), c.offset)
		is.True(c.in.Offset() >= 0)
		is.True(c.in.Offset()+max(c.clamped.Limit, 0) >= c.in.Offset()) // room for the page's end
	}
}
