package test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestHookDeliveryAfterKillIsResentAtOnce kills the server (SIGKILL) while
// a webhook delivery is in flight and starts it again on the same data
// directory and database: the restarted server sends that delivery again
// at once, with the same X-Service-Delivery id for the receiver to
// de-duplicate on, instead of after the dead process's lease (70 s with
// the default webhook timeout) has run out.
func TestHookDeliveryAfterKillIsResentAtOnce(t *testing.T) {
	bin := cliBuildDepot(t)
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			dir := t.TempDir()
			args := []string{"serve", "--data-dir", dir, "--allowed-hosts", "loopback"}
			if backend == "postgres" {
				args = append(args, "--db", testserver.CreatePostgresDB(t))
			}

			// The receiver never answers the first send of a delivery: the
			// server is killed while waiting for it.
			var mu sync.Mutex
			var ids []string
			stop := make(chan struct{})
			rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				ids = append(ids, r.Header.Get("X-Service-Delivery"))
				first := len(ids) == 1
				mu.Unlock()
				if first {
					select {
					case <-stop:
					case <-r.Context().Done():
					}
					return
				}
				w.WriteHeader(http.StatusOK)
			}))
			t.Cleanup(rec.Close)
			t.Cleanup(func() { close(stop) })
			received := func() []string {
				mu.Lock()
				defer mu.Unlock()
				return append([]string(nil), ids...)
			}

			first := cliStart(t, bin, nil, append(args, "--listen", cliFreeAddr(t))...)
			first.waitReady(t)
			m := regexp.MustCompile(`administrator account created: username admin, password (\S+)`).FindStringSubmatch(first.stderrText(t))
			if m == nil {
				t.Fatalf("no administrator password in the log:\n%s", first.stderrText(t))
			}
			admin, err := gitea.NewClient(first.url, gitea.SetBasicAuth("admin", m[1]))
			is.NoErr(err)
			_, _, err = admin.CreateRepo(gitea.CreateRepoOption{Name: "repo"})
			is.NoErr(err)
			_, _, err = admin.CreateRepoHook("admin", "repo", gitea.CreateHookOption{Type: gitea.HookTypeGitea,
				Active: true, Events: []string{"issues"}, Config: map[string]string{"url": rec.URL, "content_type": "json"}})
			is.NoErr(err)
			_, _, err = admin.CreateIssue("admin", "repo", gitea.CreateIssueOption{Title: "in flight"})
			is.NoErr(err)
			deadline := time.Now().Add(30 * time.Second)
			for len(received()) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the delivery never reached the receiver; server log:\n%s", first.stderrText(t))
				}
				time.Sleep(10 * time.Millisecond)
			}
			is.NoErr(first.cmd.Process.Kill()) // no shutdown: the delivery's lease stays taken
			<-first.done

			second := cliStart(t, bin, nil, append(args, "--listen", cliFreeAddr(t))...)
			second.waitReady(t)
			restarted := time.Now()
			deadline = restarted.Add(30 * time.Second) // well inside the 70 s lease
			for len(received()) < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("the delivery was not sent again within 30 s of the restart; server log:\n%s",
						second.stderrText(t))
				}
				time.Sleep(10 * time.Millisecond)
			}
			got := received()
			is.True(got[0] != "")
			is.Equal(got[1], got[0]) // the same delivery id: the receiver can tell it is a repeat
		})
	}
}
