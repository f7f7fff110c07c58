package test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
)

// deliveryRequest is one request a receiver got.
type deliveryRequest struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// deliveryReceiver is a webhook receiver on loopback that records every
// request and answers with answer (200 when nil).
type deliveryReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []deliveryRequest
	answer func(n int, w http.ResponseWriter, r *http.Request)
}

// deliveryNewReceiver starts a receiver; answer gets the 1-based count of
// requests to the same path so far.
func deliveryNewReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *deliveryReceiver {
	t.Helper()
	rec := &deliveryReceiver{answer: answer}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.got = append(rec.got, deliveryRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(),
			Header: r.Header.Clone(), Body: body})
		n := 0
		for _, g := range rec.got {
			if g.Path == r.URL.Path {
				n++
			}
		}
		rec.mu.Unlock()
		if rec.answer != nil {
			rec.answer(n, w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(rec.Close)
	return rec
}

// requests returns what path received so far.
func (rec *deliveryReceiver) requests(path string) []deliveryRequest {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []deliveryRequest
	for _, g := range rec.got {
		if g.Path == path {
			out = append(out, g)
		}
	}
	return out
}

// wait polls until path has received n requests and returns them; it fails
// the test after a deadline.
func (rec *deliveryReceiver) wait(t *testing.T, path string, n int) []deliveryRequest {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := rec.requests(path)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s received %d requests, want %d", path, len(got), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// deliveryPush is Gitea's PushPayload (the SDK has no type for it), made
// of the SDK's types.
type deliveryPush struct {
	Ref          string                 `json:"ref"`
	Before       string                 `json:"before"`
	After        string                 `json:"after"`
	CompareURL   string                 `json:"compare_url"`
	Commits      []*gitea.PayloadCommit `json:"commits"`
	TotalCommits int                    `json:"total_commits"`
	HeadCommit   *gitea.PayloadCommit   `json:"head_commit"`
	Repo         *gitea.Repository      `json:"repository"`
	Pusher       *gitea.User            `json:"pusher"`
	Sender       *gitea.User            `json:"sender"`
}

// deliveryRef is Gitea's CreatePayload and DeletePayload.
type deliveryRef struct {
	Sha        string            `json:"sha"`
	Ref        string            `json:"ref"`
	RefType    string            `json:"ref_type"`
	PusherType string            `json:"pusher_type"`
	Repo       *gitea.Repository `json:"repository"`
	Sender     *gitea.User       `json:"sender"`
}

func deliveryDecode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode payload: %v\n%s", err, body)
	}
	return v
}

// deliveryServer starts a server that may deliver to loopback, retrying
// quickly.
func deliveryServer(t *testing.T, opts ...testserver.Option) *testserver.Server {
	t.Helper()
	return testserver.Start(t, append([]testserver.Option{testserver.WithSettings(func(s *site.Settings) {
		s.AllowedHosts = "loopback"
		s.WebhookMaxAttempts = 3
		s.WebhookRetryDelay = 50 * time.Millisecond
	})}, opts...)...)
}

// deliverySetup starts a server with alice's public repository "repo"
// (one commit on main) and returns alice's client and a clone to push from.
func deliverySetup(t *testing.T, opts ...testserver.Option) (*testserver.Server, *gitea.Client, string) {
	t.Helper()
	srv := deliveryServer(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	return srv, alice, httpGitClone(t, httpGitURL(srv, "alice", "repo", "alice", userPassword))
}

// deliveryHook creates an active native JSON hook of alice/repo for events
// at url, through the API.
func deliveryHook(t *testing.T, c *gitea.Client, url string, events []string, edit ...func(o *gitea.CreateHookOption)) *gitea.Hook {
	t.Helper()
	opt := gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true, Events: events,
		Config: map[string]string{"url": url, "content_type": "json"}}
	for _, e := range edit {
		e(&opt)
	}
	h, _, err := c.CreateRepoHook("alice", "repo", opt)
	if err != nil {
		t.Fatalf("create hook: %v", err)
	}
	return h
}

// deliveryRecords reads a hook's delivery records from the server's store.
func deliveryRecords(t *testing.T, srv *testserver.Server, hookID int64) []*hook.Delivery {
	t.Helper()
	list, _, err := srv.App.DB.Stores().HookDeliveries.ListByHook(t.Context(), hookID, ports.ListOptions{Page: 1, Limit: 50})
	if err != nil {
		t.Fatalf("list deliveries: %v", err)
	}
	return list
}

// deliveryRecorded polls until the hook's newest delivery has been tried.
func deliveryRecorded(t *testing.T, srv *testserver.Server, hookID int64, attempts int) *hook.Delivery {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if list := deliveryRecords(t, srv, hookID); len(list) > 0 && list[0].Attempts >= attempts {
			return list[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("hook %d: no delivery tried %d times", hookID, attempts)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func deliveryHMAC(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

var deliveryUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestHookDeliveryPush(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv, alice, work := deliverySetup(t, opts...)
		rec := deliveryNewReceiver(t, nil)
		h := deliveryHook(t, alice, rec.URL+"/push", []string{"push"}, func(o *gitea.CreateHookOption) {
			o.Config["secret"] = "s3cret"
			o.AuthorizationHeader = "Bearer hook-token"
		})
		before := httpGitRef(t, srv, "alice", "repo", "refs/heads/main")
		httpGitOK(t, work, "checkout", "-q", "main")
		is.NoErr(os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
		httpGitOK(t, work, "add", "b.txt")
		httpGitOK(t, work, "commit", "-q", "--author", "Alice <alice@example.com>", "-m", "add b\n\nbody")
		after := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
		httpGitOK(t, work, "push", "-q", "origin", "main")

		got := rec.wait(t, "/push", 1)[0]
		is.Equal(got.Method, "POST")
		hd := got.Header
		is.Equal(hd.Get("Content-Type"), "application/json")
		id := hd.Get("X-Service-Delivery")
		is.True(deliveryUUID.MatchString(id)) // a version 4 UUID
		is.Equal(hd.Get("X-Gitea-Delivery"), id)
		is.Equal(hd.Get("X-GitHub-Delivery"), id)
		for _, name := range []string{"X-Service-Event", "X-Service-Event-Type", "X-Gitea-Event", "X-Gitea-Event-Type", "X-GitHub-Event"} {
			is.Equal(hd.Get(name), "push") // event headers
		}
		sig := deliveryHMAC("s3cret", got.Body)
		is.Equal(hd.Get("X-Service-Signature"), sig)
		is.Equal(hd.Get("X-Gitea-Signature"), sig)
		is.Equal(hd.Get("X-Hub-Signature-256"), "sha256="+sig)
		ok, err := gitea.VerifyWebhookSignature("s3cret", hd.Get("X-Gitea-Signature"), got.Body)
		is.NoErr(err)
		is.True(ok) // the SDK's own check passes
		is.Equal(hd.Get("Authorization"), "Bearer hook-token")
		is.True(strings.HasPrefix(hd.Get("User-Agent"), "Depot"))

		p := deliveryDecode[deliveryPush](t, got.Body)
		is.Equal(p.Ref, "refs/heads/main")
		is.Equal(p.Before, before)
		is.Equal(p.After, after)
		is.Equal(p.TotalCommits, 1)
		is.Equal(len(p.Commits), 1)
		c := p.Commits[0]
		is.Equal(c.ID, after)
		is.Equal(c.Message, "add b\n\nbody\n")
		is.Equal(c.URL, srv.URL+"/alice/repo/commit/"+after)
		is.Equal(c.Author.Name, "Alice")
		is.Equal(c.Author.Email, "alice@example.com")
		is.Equal(c.Author.UserName, "alice") // the address is alice's
		is.Equal(c.Committer.UserName, "")   // test@example.com is nobody's
		is.Equal(c.Added, []string{"b.txt"})
		is.Equal(len(c.Modified), 0)
		is.Equal(p.HeadCommit.ID, after)
		is.Equal(p.CompareURL, srv.URL+"/alice/repo/compare/"+before+"..."+after)
		is.Equal(p.Repo.FullName, "alice/repo")
		is.Equal(p.Repo.Owner.UserName, "alice")
		is.True(p.Repo.Permissions != nil && p.Repo.Permissions.Admin) // rendered as the owner sees it
		is.Equal(p.Pusher.UserName, "alice")
		is.Equal(p.Sender.UserName, "alice")

		// The record of the delivery.
		d := deliveryRecorded(t, srv, h.ID, 1)
		is.Equal(d.UUID, id)
		is.Equal(d.Event, "push")
		is.True(d.Last.Success)
		is.Equal(d.Last.ResponseStatus, http.StatusOK)
		is.Equal(d.Last.RequestHeaders["Authorization"], "******") // never stored
		is.Equal(string(d.Payload), string(got.Body))
	})
}

func TestHookDeliveryCreateDelete(t *testing.T) {
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	deliveryHook(t, alice, rec.URL+"/all", []string{"push", "create", "delete"})

	// A new branch: create, then push with the commits before its head.
	httpGitOK(t, work, "checkout", "-q", "-b", "feature")
	head := httpGitCommit(t, work, "f.txt", "f\n", "feature work")
	httpGitOK(t, work, "push", "-q", "origin", "feature")
	got := rec.wait(t, "/all", 2)
	is.Equal(got[0].Header.Get("X-Service-Event"), "create")
	cp := deliveryDecode[deliveryRef](t, got[0].Body)
	is.Equal(cp.Ref, "feature")
	is.Equal(cp.RefType, "branch")
	is.Equal(cp.Sha, head)
	is.Equal(cp.Repo.FullName, "alice/repo")
	is.Equal(cp.Sender.UserName, "alice")
	is.Equal(got[1].Header.Get("X-Service-Event"), "push")
	pp := deliveryDecode[deliveryPush](t, got[1].Body)
	is.Equal(pp.Ref, "refs/heads/feature")
	is.Equal(pp.Before, strings.Repeat("0", 40))
	is.Equal(pp.After, head)
	is.Equal(pp.TotalCommits, 2) // the ten commits before the head, at most
	is.Equal(pp.Commits[0].ID, head)

	// An annotated tag: push (no commits, the tagged commit as head), then create.
	httpGitOK(t, work, "tag", "-a", "v1", "-m", "release 1")
	tagObj := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "v1"))
	httpGitOK(t, work, "push", "-q", "origin", "v1")
	got = rec.wait(t, "/all", 4)
	is.Equal(got[2].Header.Get("X-Service-Event"), "push")
	pp = deliveryDecode[deliveryPush](t, got[2].Body)
	is.Equal(pp.Ref, "refs/tags/v1")
	is.Equal(pp.Before, strings.Repeat("0", 40))
	is.Equal(pp.After, tagObj)
	is.Equal(len(pp.Commits), 0)
	is.Equal(pp.TotalCommits, 0)
	is.Equal(pp.HeadCommit.ID, head) // the tag peeled
	is.Equal(got[3].Header.Get("X-Service-Event"), "create")
	cp = deliveryDecode[deliveryRef](t, got[3].Body)
	is.Equal(cp.Ref, "v1")
	is.Equal(cp.RefType, "tag")
	is.Equal(cp.Sha, tagObj)

	// Deleting the branch: delete only.
	httpGitOK(t, work, "push", "-q", "origin", "--delete", "feature")
	got = rec.wait(t, "/all", 5)
	is.Equal(got[4].Header.Get("X-Service-Event"), "delete")
	dp := deliveryDecode[deliveryRef](t, got[4].Body)
	is.Equal(dp.Ref, "feature")
	is.Equal(dp.RefType, "branch")
	is.Equal(dp.PusherType, "user")
	is.Equal(dp.Sender.UserName, "alice")

	// Deleting the tag: push to nothing, then delete.
	httpGitOK(t, work, "push", "-q", "origin", "--delete", "v1")
	got = rec.wait(t, "/all", 7)
	is.Equal(got[5].Header.Get("X-Service-Event"), "push")
	pp = deliveryDecode[deliveryPush](t, got[5].Body)
	is.Equal(pp.Before, tagObj)
	is.Equal(pp.After, strings.Repeat("0", 40))
	is.True(pp.HeadCommit == nil)
	is.Equal(got[6].Header.Get("X-Service-Event"), "delete")
	dp = deliveryDecode[deliveryRef](t, got[6].Body)
	is.Equal(dp.Ref, "v1")
	is.Equal(dp.RefType, "tag")

	// Every delivery had its own id.
	seen := map[string]bool{}
	for _, g := range got {
		seen[g.Header.Get("X-Service-Delivery")] = true
	}
	is.Equal(len(seen), 7)
	_ = srv
}

func TestHookDeliveryFilters(t *testing.T) {
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	all := deliveryHook(t, alice, rec.URL+"/all", []string{"push"})
	release := deliveryHook(t, alice, rec.URL+"/release", []string{"push", "create"}, func(o *gitea.CreateHookOption) {
		o.BranchFilter = "release/*"
	})
	createOnly := deliveryHook(t, alice, rec.URL+"/create", []string{"create"})
	inactive := deliveryHook(t, alice, rec.URL+"/inactive", []string{"push", "create"}, func(o *gitea.CreateHookOption) {
		o.Active = false
	})

	// main: only the unfiltered push hook hears it.
	httpGitOK(t, work, "checkout", "-q", "main")
	httpGitCommit(t, work, "a.txt", "a\n", "on main")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	// release/1: the filtered hook hears create and push, the create hook
	// the creation, the push hook the push.
	httpGitOK(t, work, "checkout", "-q", "-b", "release/1")
	httpGitCommit(t, work, "r.txt", "r\n", "on release")
	httpGitOK(t, work, "push", "-q", "origin", "release/1")

	got := rec.wait(t, "/all", 2)
	is.Equal(deliveryDecode[deliveryPush](t, got[0].Body).Ref, "refs/heads/main")
	is.Equal(deliveryDecode[deliveryPush](t, got[1].Body).Ref, "refs/heads/release/1")
	got = rec.wait(t, "/release", 2)
	is.Equal(got[0].Header.Get("X-Service-Event"), "create")
	is.Equal(got[1].Header.Get("X-Service-Event"), "push")
	is.Equal(deliveryDecode[deliveryPush](t, got[1].Body).Ref, "refs/heads/release/1")
	got = rec.wait(t, "/create", 1)
	is.Equal(got[0].Header.Get("X-Service-Event"), "create")

	// The pushes have returned, so every delivery they queued exists: the
	// filtered-out and inactive hooks have none, nor did they get requests.
	is.Equal(len(deliveryRecords(t, srv, all.ID)), 2)
	is.Equal(len(deliveryRecords(t, srv, release.ID)), 2)
	is.Equal(len(deliveryRecords(t, srv, createOnly.ID)), 1)
	is.Equal(len(deliveryRecords(t, srv, inactive.ID)), 0)
	is.Equal(len(rec.requests("/inactive")), 0)
	is.Equal(len(rec.requests("/create")), 1)
}

func TestHookDeliveryRetries(t *testing.T) {
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/flaky" && n == 1:
			w.WriteHeader(http.StatusInternalServerError)
		case r.URL.Path == "/bad" && n == 1:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, "no thanks")
		case r.URL.Path == "/moved" && n == 1:
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		default:
			w.WriteHeader(http.StatusOK)
		}
	})
	flaky := deliveryHook(t, alice, rec.URL+"/flaky", []string{"push"})
	bad := deliveryHook(t, alice, rec.URL+"/bad", []string{"push"})
	moved := deliveryHook(t, alice, rec.URL+"/moved", []string{"push"})

	httpGitOK(t, work, "checkout", "-q", "main")
	httpGitCommit(t, work, "a.txt", "a\n", "first push")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	// 500, then 200: the same delivery again, with the same id.
	got := rec.wait(t, "/flaky", 2)
	is.Equal(got[0].Header.Get("X-Service-Delivery"), got[1].Header.Get("X-Service-Delivery"))
	is.Equal(string(got[0].Body), string(got[1].Body))
	d := deliveryRecorded(t, srv, flaky.ID, 2)
	is.True(d.Last.Success)
	is.Equal(d.Attempts, 2)

	// 400 and a redirect are not retried: a hook's deliveries go out in
	// order, so the second push's delivery coming next shows the first
	// was given up at once. The redirect was not followed.
	httpGitCommit(t, work, "b.txt", "b\n", "second push")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	for _, path := range []string{"/bad", "/moved"} {
		got := rec.wait(t, path, 2)
		is.True(got[0].Header.Get("X-Service-Delivery") != got[1].Header.Get("X-Service-Delivery")) // the next delivery
		is.Equal(deliveryDecode[deliveryPush](t, got[1].Body).HeadCommit.Message, "second push\n")
	}
	is.Equal(len(rec.requests("/elsewhere")), 0) // never followed
	for _, c := range []struct {
		id     int64
		status int
		body   string
	}{{bad.ID, http.StatusBadRequest, "no thanks"}, {moved.ID, http.StatusFound, ""}} {
		list := deliveryRecords(t, srv, c.id)
		is.Equal(len(list), 2)
		first := list[1]
		is.Equal(first.Attempts, 1)
		is.True(!first.Last.Success)
		is.Equal(first.Last.ResponseStatus, c.status)
		if c.body != "" {
			is.Equal(first.Last.ResponseBody, c.body)
		}
	}
}

func TestHookDeliveryRefusedByAllowList(t *testing.T) {
	is := is.New(t)
	// The default allow list (external hosts only) refuses loopback, even
	// for a hook stored with a loopback URL.
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.WebhookRetryDelay = 50 * time.Millisecond }))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	r := createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	rec := deliveryNewReceiver(t, nil)
	h := &hook.Hook{Scope: hook.RepoScope(r.ID), Kind: hook.KindService, URL: rec.URL + "/x", HTTPMethod: "POST",
		ContentType: hook.ContentJSON, Events: []string{"push"}, Active: true, Created: time.Now(), Updated: time.Now()}
	is.NoErr(srv.App.DB.Stores().Hooks.Create(t.Context(), h))
	work := httpGitClone(t, httpGitURL(srv, "alice", "repo", "alice", userPassword))
	httpGitCommit(t, work, "a.txt", "a\n", "push")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	d := deliveryRecorded(t, srv, h.ID, 1)
	is.True(!d.Last.Success)
	is.Equal(d.Last.ResponseStatus, 0)
	is.True(strings.Contains(d.Last.ResponseBody, "allowed_hosts")) // says why
	is.Equal(len(rec.requests("/x")), 0)
}

func TestHookDeliveryForm(t *testing.T) {
	is := is.New(t)
	_, alice, work := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	deliveryHook(t, alice, rec.URL+"/form", []string{"push"}, func(o *gitea.CreateHookOption) {
		o.Config["content_type"] = "form"
		o.Config["secret"] = "s3cret"
	})
	httpGitOK(t, work, "checkout", "-q", "main")
	head := httpGitCommit(t, work, "a.txt", "a\n", "form push")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	got := rec.wait(t, "/form", 1)[0]
	is.Equal(got.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
	form, err := url.ParseQuery(string(got.Body))
	is.NoErr(err)
	payload := form.Get("payload")
	is.Equal(deliveryDecode[deliveryPush](t, []byte(payload)).After, head)
	// As Gitea does, the signature is of the payload, not of the form.
	is.Equal(got.Header.Get("X-Service-Signature"), deliveryHMAC("s3cret", []byte(payload)))
}
