// Package webhook sends webhook deliveries over HTTP through the outbound
// guard (ports.HookSender); what to send, and what an answer means, is the
// application's.
package webhook

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.HookSender = (*Sender)(nil)

// drainLimit is how much of an answer past the stored part is read, so that
// the connection can be reused; a longer answer closes it.
const drainLimit = 64 << 10

// idleConnsPerHost is how many idle connections to one receiver are kept
// for reuse: as many as deliveries may run at once, so that a backlog to
// one receiver (many hooks, one address) reuses its connections instead
// of dialling (and leaving in TIME_WAIT) one per delivery.
const idleConnsPerHost = 64

// Sender implements ports.HookSender with the guard's HTTP client.
type Sender struct {
	client *http.Client
}

// NewSender builds the sender over the outbound guard's client, made to
// answer redirects rather than follow them whatever the guard's setting:
// following one would carry the payload and its signature somewhere
// nobody configured. Its transport is a clone of the guard's (the same
// dial-time check) keeping more idle connections per host.
func NewSender(out ports.Outbound) *Sender {
	c := *out.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if t, ok := c.Transport.(*http.Transport); ok {
		t = t.Clone()
		t.MaxIdleConnsPerHost = idleConnsPerHost
		t.MaxIdleConns = max(t.MaxIdleConns, idleConnsPerHost)
		c.Transport = t
	}
	return &Sender{client: &c}
}

// CloseIdleConnections closes the connections kept for reuse; call it once
// the deliveries have stopped (server shutdown), so that the process does
// not leave receivers holding connections to it. A delivery sent after it
// dials anew.
func (s *Sender) CloseIdleConnections() { s.client.CloseIdleConnections() }

// Send makes one attempt.
func (s *Sender) Send(ctx context.Context, r ports.HookRequest, maxBody int64) (ports.HookResponse, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		// NewRequest's message quotes the URL, which may hold credentials.
		return ports.HookResponse{}, errs.BadRequest("the hook's URL or method is not valid")
	}
	for name, value := range r.Headers {
		req.Header[name] = []string{value}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return ports.HookResponse{}, err
	}
	defer resp.Body.Close()
	out := ports.HookResponse{Status: resp.StatusCode, Headers: make(map[string]string, len(resp.Header))}
	for name, values := range resp.Header {
		out.Headers[name] = strings.Join(values, ",")
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	out.Body = string(b)
	if err == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	}
	return out, err
}
