package httpkit_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/matryer/is"
)

// TestClientGone tells a request abandoned by its client from a real failure:
// only a cancelled request whose error is that cancellation counts.
func TestClientGone(t *testing.T) {
	live := httptest.NewRequest("GET", "/", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := live.WithContext(ctx)
	timedOut, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	<-timedOut.Done()
	expired := live.WithContext(timedOut)

	wrapped := fmt.Errorf("sqlstore: access token: %w", context.Canceled)
	for _, tc := range []struct {
		name string
		gone bool
		err  error
		want bool
	}{
		{"cancelled request, cancellation error", true, wrapped, true},
		{"cancelled request, other error", true, errors.New("disk full"), false},
		{"live request, cancellation error", false, wrapped, false},
		{"cancelled request, no error", true, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			r := live
			if tc.gone {
				r = gone
			}
			is.Equal(httpkit.ClientGone(r, tc.err), tc.want)
		})
	}
	t.Run("server deadline is not the client leaving", func(t *testing.T) {
		is := is.New(t)
		is.Equal(httpkit.ClientGone(expired, fmt.Errorf("claim: %w", context.DeadlineExceeded)), false)
	})
}
