package httpkit

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// BodyLimits say how slowly a request body may arrive.
type BodyLimits struct {
	// Idle is the longest wait for the next byte of a body, the first one
	// included; 0 turns every bound off.
	Idle time.Duration
	// MinRate is the slowest average rate, in bytes per second, over each
	// Window of waiting; 0 turns it off.
	MinRate int64
	// Window is the stretch of waiting over which MinRate is measured.
	Window time.Duration
}

// ErrBodyTooSlow is what reading a request body returns once its client has
// been cut off for sending it too slowly.
var ErrBodyTooSlow = errors.New("the request body arrived too slowly")

// BodyDeadlines bounds how slowly the request bodies next reads may arrive.
// net/http's server only bounds the headers (ReadHeaderTimeout); its
// ReadTimeout would bound the whole body, which a large push on a slow link
// needs longer than any fixed figure. So each read of the body moves the
// connection's read deadline instead: the next byte must come within Idle,
// and each Window spent waiting for the body must bring MinRate×Window
// bytes. Only the time spent waiting in a read counts, so a handler that is
// slow to consume (git writing a pack to disk) does not count against its
// client. A client cut off gets ErrBodyTooSlow in the handler and its
// connection closed after the answer.
func BodyDeadlines(next http.Handler, l BodyLimits) http.Handler {
	if l.Idle <= 0 {
		return next
	}
	if l.Window <= 0 {
		l.MinRate = 0
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		b := &deadlineBody{body: r.Body, rc: http.NewResponseController(w), limits: l}
		// A handler that never reads the body leaves it to net/http, which
		// reads what is left to keep the connection: that wait is bounded too.
		_ = b.rc.SetReadDeadline(time.Now().Add(l.Idle))
		// The handler gets a copy: net/http goes on seeing its own body,
		// whose state tells it whether the connection can serve another
		// request.
		r = r.WithContext(r.Context())
		r.Body = b
		next.ServeHTTP(w, r)
		if b.cut || b.isAbandoned() {
			closeAfterReply(w)
		}
	})
}

// closeAfterReply makes net/http close the connection after this answer.
// What is left of a body that was cut off is still on the wire, and must
// never be read as the next request (behind a proxy that would let one
// client's bytes pass for another request). net/http sees to that itself
// unless the handler runs full duplex (Git's); MaxBytesReader going past
// its limit is the documented way to ask for it, at any point of the answer.
func closeAfterReply(w http.ResponseWriter) {
	_, _ = http.MaxBytesReader(w, io.NopCloser(strings.NewReader("x")), 0).Read(make([]byte, 1))
}

// AbandonBody stops every further read of r's body at once, also one that is
// waiting in another goroutine: for a handler that has its answer before the
// body ends (git exited without reading it all).
func AbandonBody(r *http.Request, rc *http.ResponseController) {
	if b, ok := r.Body.(*deadlineBody); ok {
		b.abandon()
		return
	}
	_ = rc.SetReadDeadline(time.Now())
}

// deadlineBody moves the connection's read deadline as its body is read.
// Reads come from one goroutine at a time; abandon may come from another.
type deadlineBody struct {
	body   io.ReadCloser
	rc     *http.ResponseController
	limits BodyLimits

	// mu orders a read's setting of the deadline against abandon.
	mu        sync.Mutex
	abandoned bool
	// ended is set at the end of the body: the deadline is cleared then, or
	// net/http's watch for a vanished client would trip over it.
	ended bool
	// cut is set once the client has been cut off.
	cut bool
	// windowWaited and windowBytes are the waiting time and bytes of the
	// window being measured.
	windowWaited time.Duration
	windowBytes  int64
}

// Read reads the body, cutting the client off when it is too slow.
func (b *deadlineBody) Read(p []byte) (int, error) {
	if b.cut {
		return 0, ErrBodyTooSlow
	}
	if b.ended {
		return b.body.Read(p)
	}
	need := b.limits.MinRate * int64(b.limits.Window/time.Millisecond) / 1000
	start := time.Now()
	wait := b.limits.Idle
	if need > 0 && b.windowBytes < need {
		// The window ends before the idle bound: by then it must be full.
		wait = min(wait, b.limits.Window-b.windowWaited)
	}
	b.mu.Lock()
	if b.abandoned {
		b.mu.Unlock()
		return 0, ErrBodyTooSlow
	}
	_ = b.rc.SetReadDeadline(start.Add(wait))
	b.mu.Unlock()

	n, err := b.body.Read(p)
	b.windowWaited += time.Since(start)
	b.windowBytes += int64(n)
	switch {
	case err == io.EOF:
		b.mu.Lock()
		b.ended = true
		if !b.abandoned {
			_ = b.rc.SetReadDeadline(time.Time{})
		}
		b.mu.Unlock()
		return n, err
	case isTimeout(err):
		return n, b.cutOff()
	case err != nil:
		return n, err
	}
	if need > 0 && b.windowWaited >= b.limits.Window {
		if b.windowBytes < need {
			return n, b.cutOff()
		}
		b.windowWaited, b.windowBytes = 0, 0
	}
	return n, nil
}

// cutOff ends the body for good: the deadline in the past also stops
// net/http from reading what is left, so the connection closes after the
// answer.
func (b *deadlineBody) cutOff() error {
	b.cut = true
	_ = b.rc.SetReadDeadline(time.Now())
	return ErrBodyTooSlow
}

func (b *deadlineBody) isAbandoned() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.abandoned
}

func (b *deadlineBody) abandon() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		// Read to its end: there is nothing to unblock, and a deadline now
		// would cut net/http's watch of the connection, which takes it for
		// a client gone.
		return
	}
	b.abandoned = true
	_ = b.rc.SetReadDeadline(time.Now())
}

// Close closes the body.
func (b *deadlineBody) Close() error { return b.body.Close() }

// isTimeout reports whether err is a read deadline passing.
func isTimeout(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
