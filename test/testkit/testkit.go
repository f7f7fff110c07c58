// Package testkit holds the few helpers that tests in several packages
// share (the unit tests of app/jobs and the end-to-end tests in test/):
// waiting for a condition without sleeping blindly, and running a
// background loop for as long as a test needs it.
package testkit

import (
	"context"
	"testing"
	"time"
)

// Deadline is how long Eventually and Go's stop wait before failing a
// test: long enough for a loaded CI machine, short enough to fail.
const Deadline = 30 * time.Second

// Eventually polls cond until it holds, failing the test naming what when
// it still does not after Deadline.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Go runs run in a goroutine until stop is called or the test ends. stop
// cancels run's context and returns once run has returned, so a test can
// check what run left behind; it may be called more than once.
func Go(t testing.TB, run func(context.Context)) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx)
	}()
	stop = func() {
		cancel()
		select {
		case <-done:
		case <-time.After(Deadline):
			t.Errorf("the background loop did not return %v after its context ended", Deadline)
		}
	}
	t.Cleanup(stop)
	return stop
}
