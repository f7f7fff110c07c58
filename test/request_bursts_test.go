package test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// burstSize is how many token-authenticated requests a burst sends at once,
// as the load runs that found requests waiting forever did.
const burstSize = 32

// burstDeadline is how long one request of a burst may take: far more than
// any of them needs on a loaded machine, far less than a wait that never ends.
const burstDeadline = 20 * time.Second

// burstRequest is one of the requests a burst mixes: reads that resolve the
// token, and writes that take the database's writer and enqueue webhook
// deliveries, which the job runner claims meanwhile.
func burstRequest(srv *testserver.Server, i int) (method, url string, body []byte, want int) {
	switch i % 4 {
	case 0:
		return http.MethodPost, srv.API + "/repos/alice/repo/issues",
			fmt.Appendf(nil, `{"title":"burst issue %d"}`, i), http.StatusCreated
	case 1:
		return http.MethodGet, srv.API + "/user", nil, http.StatusOK
	case 2:
		return http.MethodGet, srv.API + "/repos/alice/repo", nil, http.StatusOK
	default:
		return http.MethodGet, srv.API + "/repos/alice/repo/issues?limit=5", nil, http.StatusOK
	}
}

// burstSend sends request i of a burst with token under ctx and returns its
// status, or the error that stopped it.
func burstSend(ctx context.Context, client *http.Client, srv *testserver.Server, token string, i int) (int, error) {
	method, url, body, _ := burstRequest(srv, i)
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "token "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// TestRequestBurstsBackToBackAllComplete sends bursts of concurrent
// token-authenticated reads and writes one right after another, with a
// burst of clients that give up mid-request between them: every request of
// every burst must be answered, none may wait on a connection, a lock or a
// transaction that an earlier burst left behind.
func TestRequestBurstsBackToBackAllComplete(t *testing.T) {
	for _, backend := range []struct {
		name string
		opts []testserver.Option
	}{{"sqlite", nil}, {"postgres", []testserver.Option{testserver.OnPostgres()}}} {
		t.Run(backend.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := deliveryServer(t, backend.opts...)
			_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
			var delivered atomic.Int32
			rec := deliveryNewReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
				delivered.Add(1)
				w.WriteHeader(http.StatusOK)
			})
			deliveryHook(t, alice, rec.URL+"/hook", []string{"issues"})
			// Each burst comes with a token the server has not seen, so that
			// all its requests miss the token cache at once and look it up.
			newToken := func() string {
				return srv.CreateToken("alice", userPassword, "write:repository", "read:user", "write:issue")
			}
			// Keep-alive connections shared by the whole test, as a load tool's.
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: burstSize}}
			t.Cleanup(client.CloseIdleConnections)

			burst := func(round int) {
				t.Helper()
				token := newToken()
				var wg sync.WaitGroup
				errs := make([]error, burstSize)
				for i := range burstSize {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), burstDeadline)
						defer cancel()
						status, err := burstSend(ctx, client, srv, token, i)
						_, _, _, want := burstRequest(srv, i)
						switch {
						case err != nil:
							errs[i] = err
						case status != want:
							errs[i] = fmt.Errorf("status %d, want %d", status, want)
						}
					})
				}
				wg.Wait()
				for i, err := range errs {
					if err != nil {
						t.Errorf("burst %d, request %d: %v", round, i, err)
					}
				}
			}
			// abandon sends a burst whose clients give up after a few
			// milliseconds, mostly while the server is still working on them.
			abandon := func() {
				token := newToken()
				var wg sync.WaitGroup
				for i := range burstSize {
					wg.Go(func() {
						ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i%8)*time.Millisecond)
						defer cancel()
						_, err := burstSend(ctx, client, srv, token, i)
						if err != nil && !errors.Is(err, context.DeadlineExceeded) {
							t.Logf("abandoned request %d: %v", i, err)
						}
					})
				}
				wg.Wait()
			}
			for round := range 3 {
				burst(round)
				abandon()
			}
			burst(3)
			if t.Failed() {
				return
			}
			// The bursts' issues were delivered too: the job runner's claims
			// did not starve behind the requests.
			want := int32(4 * burstSize / 4)
			deadline := time.Now().Add(burstDeadline)
			for delivered.Load() < want && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			is.True(delivered.Load() >= want)
		})
	}
}
