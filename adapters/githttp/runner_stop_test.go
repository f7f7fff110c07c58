package githttp

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestRunnerWaitDetached(t *testing.T) {
	is := is.New(t)
	r := newTestRunner(t)
	is.NoErr(r.WaitDetached(context.Background())) // none running

	first, second := r.Detached(), r.Detached()
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	is.Equal(r.WaitDetached(short), context.DeadlineExceeded)

	waited := make(chan error, 1)
	go func() { waited <- r.WaitDetached(context.Background()) }()
	first()
	first() // a second call changes nothing
	select {
	case <-waited:
		t.Fatal("returned with a run left")
	case <-time.After(20 * time.Millisecond):
	}
	second()
	is.NoErr(<-waited)

	// Counting starts again from none.
	third := r.Detached()
	is.Equal(r.WaitDetached(short), context.DeadlineExceeded)
	third()
	is.NoErr(r.WaitDetached(context.Background()))
}
