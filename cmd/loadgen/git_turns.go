package main

import "time"

// inTurn runs the HTTP and the file:// operation of sample i, HTTP first in
// even samples and second in odd ones, so that neither always runs in the
// wake of the other (the server's background work after a push, say).
func inTurn(i int, overHTTP, file func() (time.Duration, error)) (h, f time.Duration, err error) {
	if i%2 == 1 {
		if f, err = file(); err != nil {
			return 0, 0, err
		}
	}
	if h, err = overHTTP(); err != nil {
		return 0, 0, err
	}
	if i%2 == 0 {
		f, err = file()
	}
	return h, f, err
}

// rotated runs the operations of sample i one after another, starting with
// the (i mod n)th, so that each runs first, second and so on equally often,
// and returns their times in the order given.
func rotated(i int, ops ...func() (time.Duration, error)) ([]time.Duration, error) {
	d := make([]time.Duration, len(ops))
	for k := range ops {
		j := (i + k) % len(ops)
		t, err := ops[j]()
		if err != nil {
			return nil, err
		}
		d[j] = t
	}
	return d, nil
}
