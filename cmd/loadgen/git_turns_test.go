package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestRotated(t *testing.T) {
	is := is.New(t)
	var order []string
	op := func(name string, d time.Duration) func() (time.Duration, error) {
		return func() (time.Duration, error) { order = append(order, name); return d, nil }
	}
	for i := range 3 {
		d, err := rotated(i, op("a", 1), op("b", 2), op("c", 3))
		is.NoErr(err)
		is.Equal(d, []time.Duration{1, 2, 3}) // in the order given, whatever the order run
	}
	is.Equal(strings.Join(order, ""), "abcbcacab")
}
