package httpkit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// readAllHandler answers how many body bytes it read, or the read error,
// after pausing for pause once the first bytes came (a handler busy with
// what it read).
func readAllHandler(pause time.Duration, seen chan<- error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := make([]byte, 10)
		n, err := io.ReadFull(r.Body, first)
		if err == nil {
			time.Sleep(pause)
			var rest []byte
			rest, err = io.ReadAll(r.Body)
			n += len(rest)
		}
		seen <- err
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, n)
	})
}

// TestBodyDeadlinesCountOnlyWaiting: a handler that is slow to consume
// (longer than every bound) does not count against a client that sent its
// body at once.
func TestBodyDeadlinesCountOnlyWaiting(t *testing.T) {
	is := is.New(t)
	seen := make(chan error, 1)
	limits := BodyLimits{Idle: 200 * time.Millisecond, MinRate: 100 << 10, Window: 200 * time.Millisecond}
	srv := httptest.NewServer(BodyDeadlines(readAllHandler(time.Second, seen), limits))
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/octet-stream", strings.NewReader(strings.Repeat("x", 1<<20)))
	is.NoErr(err)
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	is.NoErr(<-seen)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(string(body), fmt.Sprint(1<<20)) // read whole
}

// TestBodyDeadlinesCutOffStall: a body that stops arriving fails the
// handler's read with ErrBodyTooSlow, and the connection is closed after
// the answer rather than read on as a next request.
func TestBodyDeadlinesCutOffStall(t *testing.T) {
	is := is.New(t)
	seen := make(chan error, 1)
	srv := httptest.NewServer(BodyDeadlines(readAllHandler(0, seen), BodyLimits{Idle: 200 * time.Millisecond}))
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	is.NoErr(err)
	defer c.Close()
	_, err = fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n%s", strings.Repeat("x", 20))
	is.NoErr(err)
	select {
	case err := <-seen:
		is.True(errors.Is(err, ErrBodyTooSlow))
	case <-time.After(20 * time.Second):
		t.Fatal("the stalled body was not cut off")
	}
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusBadRequest)
	_, _ = io.Copy(io.Discard, resp.Body)
	// What the client sends next is the rest of its body, never a request.
	_, _ = fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	_, err = r.ReadByte()
	var ne net.Error
	is.True(err != nil && !(errors.As(err, &ne) && ne.Timeout())) // closed
}
