package webhook_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/webhook"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
)

// plainOutbound is an outbound door without a guard, for a loopback receiver.
type plainOutbound struct{}

func (plainOutbound) CheckURL(context.Context, string, string, ...string) error { return nil }
func (plainOutbound) Client() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

func TestSenderClosesItsIdleConnections(t *testing.T) {
	is := is.New(t)
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	srv.Config.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch st {
		case http.StateNew:
			open[c] = true
		case http.StateClosed, http.StateHijacked:
			delete(open, c)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	openConns := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(open)
	}

	s := webhook.NewSender(plainOutbound{})
	for range 3 { // one connection, kept and reused
		resp, err := s.Send(t.Context(), ports.HookRequest{Method: http.MethodPost, URL: srv.URL, Body: []byte("{}")}, 1024)
		is.NoErr(err)
		is.Equal(resp.Status, http.StatusNoContent)
	}
	is.Equal(openConns(), 1)

	s.CloseIdleConnections()
	testkit.Eventually(t, "the receiver to see the connection closed", func() bool { return openConns() == 0 })
}
