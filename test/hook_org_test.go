package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// hookOrgSetup starts a server with alice owning the public organisation
// acme, bob a member of its team "devs" (no owner), and carol outside it.
func hookOrgSetup(t *testing.T, opts ...testserver.Option) (*testserver.Server, *gitea.Client, *gitea.Client) {
	t.Helper()
	srv := deliveryServer(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
	orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitIssues}}, "bob")
	return srv, alice, bob
}

func TestHookOrgRoutes(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice, bob := hookOrgSetup(t, opts...)
		is := is.New(t)

		opt := hooksCreateOpt(gitea.HookTypeGitea)
		opt.Events = []string{"push", "issues"}
		opt.Config["secret"] = "org-secret"
		h, resp, err := alice.CreateOrgHook("acme", opt)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.True(h.ID > 0)
		is.Equal(h.Type, "gitea")
		is.Equal(h.Events, []string{"push", "issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"})
		is.Equal(h.Config["url"], hooksURL)

		list, resp, err := alice.ListOrgHooks("acme", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(list), 1)
		is.Equal(list[0].ID, h.ID)
		got, _, err := alice.GetOrgHook("acme", h.ID)
		is.NoErr(err)
		is.Equal(*got, *h)

		no := false
		resp, err = alice.EditOrgHook("acme", h.ID, gitea.EditHookOption{Events: []string{"create"}, Active: &no})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		got, _, err = alice.GetOrgHook("acme", h.ID)
		is.NoErr(err)
		is.Equal(got.Events, []string{"create"})
		is.True(!got.Active)

		// A site admin is an owner of every organisation.
		r := srv.Do("GET", "/orgs/acme/hooks/"+strconv.FormatInt(h.ID, 10), nil, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusOK)

		// The organisation's hooks are neither alice's own nor a
		// repository's, and theirs are not the organisation's.
		_, resp, _ = alice.GetMyHook(h.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		mine, _, err := alice.CreateMyHook(hooksCreateOpt(gitea.HookTypeGitea))
		is.NoErr(err)
		_, resp, _ = alice.GetOrgHook("acme", mine.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, _ = alice.EditOrgHook("acme", mine.ID, gitea.EditHookOption{Events: []string{"create"}})
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, _ = alice.DeleteOrgHook("acme", mine.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		_, resp, _ = alice.GetOrgHook("acme", 999999)
		is.Equal(resp.StatusCode, http.StatusNotFound)

		// 422 with the failing field; 400 for a malformed body; an id that
		// is no number names no hook (404), as on the other hook routes.
		assertInvalid(t, srv.Do("POST", "/orgs/acme/hooks", map[string]any{"type": "gitea"}, basicAs("alice")...), "Config")
		assertInvalid(t, srv.Do("POST", "/orgs/acme/hooks", map[string]any{"type": "gitea", "events": []string{"nope"},
			"config": map[string]string{"url": hooksURL, "content_type": "json"}}, basicAs("alice")...), "Events")
		is.Equal(srv.Do("GET", "/orgs/acme/hooks/x", nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("POST", "/orgs/acme/hooks", "{", basicAs("alice")...).Status, http.StatusBadRequest)

		// Access: T, then OO (a member who is no owner, an outsider: 403),
		// and a missing organisation is 404.
		path := "/orgs/acme/hooks/" + strconv.FormatInt(h.ID, 10)
		body := map[string]any{"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json"}}
		for _, who := range [][]string{basicAs("bob"), basicAs("carol")} {
			assertAPIError(t, srv.Do("GET", "/orgs/acme/hooks", nil, who...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("POST", "/orgs/acme/hooks", body, who...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("GET", path, nil, who...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("PATCH", path, body, who...), http.StatusForbidden, orgMsgOwner)
			assertAPIError(t, srv.Do("DELETE", path, nil, who...), http.StatusForbidden, orgMsgOwner)
		}
		_, resp, _ = bob.ListOrgHooks("acme", gitea.ListHooksOptions{})
		is.Equal(resp.StatusCode, http.StatusForbidden)
		assertAPIError(t, srv.Do("GET", "/orgs/acme/hooks", nil), http.StatusUnauthorized, orgMsgNoToken)
		assertAPIError(t, srv.Do("GET", "/orgs/nope/hooks", nil, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)
		is.Equal(srv.Do("PUT", "/orgs/acme/hooks", nil, basicAs("alice")...).Status, http.StatusMethodNotAllowed)

		resp, err = alice.DeleteOrgHook("acme", h.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, resp, _ = alice.GetOrgHook("acme", h.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		list, _, err = alice.ListOrgHooks("acme", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})
}

func TestHookOrgWebhooksDisabled(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.EnableWebhooks = false }))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
	const off = "webhooks disabled by administrator"
	body := map[string]any{"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json"}}
	for _, who := range [][]string{basicAs("alice"), adminHeader(srv)} {
		assertAPIError(t, srv.Do("GET", "/orgs/acme/hooks", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("POST", "/orgs/acme/hooks", body, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("GET", "/orgs/acme/hooks/1", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("PATCH", "/orgs/acme/hooks/1", body, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("DELETE", "/orgs/acme/hooks/1", nil, who...), http.StatusForbidden, off)
	}
}

// TestHookOrgDeliveries: an organisation's hook hears about every
// repository the organisation owns: its creation and pushes to it.
func TestHookOrgDeliveries(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice, bob := hookOrgSetup(t, opts...)
		is := is.New(t)
		rec := deliveryNewReceiver(t, nil)
		opt := hookevOpt(rec.URL+"/org", "push", "repository", "fork", "issues_only")
		opt.Config["secret"] = "org-secret"
		h, _, err := alice.CreateOrgHook("acme", opt)
		is.NoErr(err)
		// alice's own repositories are not the organisation's.
		createRepo(t, alice, gitea.CreateRepoOption{Name: "mine"})

		repo, _, err := alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "tools", AutoInit: true, Readme: "Default"})
		is.NoErr(err)
		got := rec.wait(t, "/org", 1)[0]
		hookevHeaders(t, got, "repository", "org-secret")
		p := deliveryDecode[hookevRepository](t, got.Body)
		is.Equal(p.Action, "created")
		is.Equal(p.Repository.ID, repo.ID)
		is.Equal(p.Organization.UserName, "acme")
		is.Equal(p.Sender.UserName, "alice")

		work := httpGitClone(t, httpGitURL(srv, "acme", "tools", "alice", userPassword))
		httpGitOK(t, work, "checkout", "-q", "main")
		is.NoErr(os.WriteFile(filepath.Join(work, "b.txt"), []byte("b\n"), 0o644))
		httpGitOK(t, work, "add", "b.txt")
		httpGitOK(t, work, "commit", "-q", "-m", "add b")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		got = rec.wait(t, "/org", 2)[1]
		hookevHeaders(t, got, "push", "org-secret")
		push := deliveryDecode[deliveryPush](t, got.Body)
		is.Equal(push.Ref, "refs/heads/main")
		is.Equal(push.Repo.FullName, "acme/tools")
		is.Equal(push.TotalCommits, 1)
		is.Equal(push.Pusher.UserName, "alice")
		d := deliveryRecorded(t, srv, h.ID, 1)
		is.Equal(d.RepoID, repo.ID)
		is.True(d.Last.Success)

		// bob forks it: the organisation hears of the fork, whose record
		// shows its parent; so do payloads about the fork itself.
		bobHook := hookevOpt(rec.URL+"/bob", "push")
		hookevMyHook(t, bob, bobHook)
		fork, _, err := bob.CreateFork("acme", "tools", gitea.CreateForkOption{})
		is.NoErr(err)
		got = rec.wait(t, "/org", 3)[2]
		hookevHeaders(t, got, "fork", "org-secret")
		fp := deliveryDecode[hookevFork](t, got.Body)
		is.Equal(fp.Forkee.FullName, "acme/tools")
		is.Equal(fp.Repo.ID, fork.ID)
		is.True(fp.Repo.Parent != nil)
		is.Equal(fp.Repo.Parent.FullName, "acme/tools")

		work = httpGitClone(t, httpGitURL(srv, "bob", "tools", "bob", userPassword))
		httpGitOK(t, work, "checkout", "-q", "main")
		is.NoErr(os.WriteFile(filepath.Join(work, "c.txt"), []byte("c\n"), 0o644))
		httpGitOK(t, work, "add", "c.txt")
		httpGitOK(t, work, "commit", "-q", "-m", "add c")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		push = deliveryDecode[deliveryPush](t, rec.wait(t, "/bob", 1)[0].Body)
		is.Equal(push.Repo.FullName, "bob/tools")
		is.True(push.Repo.Fork)
		is.True(push.Repo.Parent != nil)
		is.Equal(push.Repo.Parent.FullName, "acme/tools")
		is.Equal(len(rec.requests("/org")), 3) // the fork's push is not the organisation's

		// An issue of the organisation's repository.
		_, _, err = alice.CreateIssue("acme", "tools", gitea.CreateIssueOption{Title: "org issue"})
		is.NoErr(err)
		got = rec.wait(t, "/org", 4)[3]
		hookevHeaders(t, got, "issues", "org-secret")
		ip := deliveryDecode[hookIssuePayload](t, got.Body)
		is.Equal(ip.Action, "opened")
		is.Equal(ip.Issue.Title, "org issue")
		is.Equal(ip.Repository.FullName, "acme/tools")
		is.Equal(ip.Sender.UserName, "alice")
		// bob's fork's issues are not the organisation's.
		_, _, err = bob.CreateIssue("bob", "tools", gitea.CreateIssueOption{Title: "fork issue"})
		is.NoErr(err)
		// Deliveries are queued in the change's transaction: none was.
		is.Equal(len(deliveryRecords(t, srv, h.ID)), 4)
	})
}
