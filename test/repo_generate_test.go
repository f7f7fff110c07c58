package test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/test/testserver"
)

// generatedLabels lists a repository's labels by name (archived ones too).
func generatedLabels(t *testing.T, c *gitea.Client, owner, repo string) []*gitea.Label {
	t.Helper()
	list, _, err := c.ListRepoLabels(owner, repo, gitea.ListLabelsOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 50}})
	if err != nil {
		t.Fatalf("list labels of %s/%s: %v", owner, repo, err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// generatedHooks lists a repository's hooks by id.
func generatedHooks(t *testing.T, c *gitea.Client, owner, repo string) []*gitea.Hook {
	t.Helper()
	list, _, err := c.ListRepoHooks(owner, repo, gitea.ListHooksOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 50}})
	if err != nil {
		t.Fatalf("list hooks of %s/%s: %v", owner, repo, err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list
}

// generatedRepoID is owner/repo's id.
func generatedRepoID(t *testing.T, c *gitea.Client, owner, repo string) int64 {
	t.Helper()
	r, _, err := c.GetRepo(owner, repo)
	if err != nil {
		t.Fatalf("get %s/%s: %v", owner, repo, err)
	}
	return r.ID
}

// TestRepoGenerateLabelsAndHooks covers POST R/generate with labels and
// webhooks: the template's labels and hooks are copied into the new
// repository (the hooks' secrets sealed for the copies, which deliver and
// sign as the template's do), nothing is copied unless asked, and only a
// caller who may administer the template gets its hooks.
func TestRepoGenerateLabelsAndHooks(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		rec := deliveryNewReceiver(t, nil)

		createRepo(t, alice, gitea.CreateRepoOption{Name: "tpl", Template: true, AutoInit: true, Readme: "Default"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "hidden-tpl", Template: true, AutoInit: true, Private: true})
		for _, o := range []gitea.CreateLabelOption{
			{Name: "bug", Color: "#ee0701", Description: "Something is not working"},
			{Name: "kind/feature", Color: "#84b6eb", Description: "New functionality", Exclusive: true},
			{Name: "legacy", Color: "#cccccc", Description: "Kept for history", IsArchived: true},
		} {
			if _, _, err := alice.CreateLabel("alice", "tpl", o); err != nil {
				t.Fatalf("create label %s: %v", o.Name, err)
			}
		}
		const secret, auth = "repod-tpl-secret", "Bearer repod-tpl-token"
		signed, _, err := alice.CreateRepoHook("alice", "tpl", gitea.CreateHookOption{
			Type: gitea.HookTypeGitea, Active: true, Events: []string{"repository", "push"}, BranchFilter: "main",
			AuthorizationHeader: auth,
			Config:              map[string]string{"url": rec.URL + "/signed", "content_type": "json", "secret": secret}})
		if err != nil {
			t.Fatalf("create hook: %v", err)
		}
		_, _, err = alice.CreateRepoHook("alice", "tpl", gitea.CreateHookOption{
			Type: gitea.HookTypeGitea, Active: false, Events: []string{"create"},
			Config: map[string]string{"url": rec.URL + "/plain", "content_type": "form", "http_method": "put"}})
		if err != nil {
			t.Fatalf("create hook: %v", err)
		}
		tplLabels := generatedLabels(t, alice, "alice", "tpl")
		tplHooks := generatedHooks(t, alice, "alice", "tpl")

		t.Run("labels and webhooks copied", func(t *testing.T) {
			is := is.New(t)
			r, resp, err := alice.CreateRepoFromTemplate("alice", "tpl", gitea.CreateRepoFromTemplateOption{
				Owner: "alice", Name: "gen", GitContent: true, Labels: true, Webhooks: true})
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusCreated)
			is.Equal(r.FullName, "alice/gen")

			labels := generatedLabels(t, alice, "alice", "gen")
			is.Equal(len(labels), 3)
			for i, l := range labels {
				want := tplLabels[i]
				is.True(l.ID != want.ID) // a copy, not the template's
				is.Equal(l.Name, want.Name)
				is.Equal(l.Color, want.Color)
				is.Equal(l.Description, want.Description)
				is.Equal(l.Exclusive, want.Exclusive)
				is.Equal(l.IsArchived, want.IsArchived)
				is.True(strings.Contains(l.URL, "/repos/alice/gen/labels/"))
			}
			is.Equal(labels[1].Name, "kind/feature")
			is.True(labels[1].Exclusive)
			is.True(labels[2].IsArchived)

			hooks := generatedHooks(t, alice, "alice", "gen")
			is.Equal(len(hooks), 2)
			for i, h := range hooks {
				want := tplHooks[i]
				is.True(h.ID != want.ID)
				is.Equal(h.Type, want.Type)
				is.Equal(h.Config, want.Config)
				is.Equal(h.Events, want.Events)
				is.Equal(h.BranchFilter, want.BranchFilter)
				is.Equal(h.Active, want.Active)
				is.Equal(h.AuthorizationHeader, want.AuthorizationHeader)
			}
			is.Equal(hooks[0].Config["url"], rec.URL+"/signed")
			is.Equal(hooks[0].AuthorizationHeader, auth)
			is.Equal(hooks[1].Config["http_method"], "PUT")
			is.Equal(hooks[1].Config["content_type"], "form")
			is.True(!hooks[1].Active)

			// The copy's secret is sealed for its own row, not the
			// template hook's sealed value reused.
			genID, tplID := generatedRepoID(t, alice, "alice", "gen"), generatedRepoID(t, alice, "alice", "tpl")
			stored := hookevStored(t, srv, hook.RepoScope(genID), hooks[0].ID)
			orig := hookevStored(t, srv, hook.RepoScope(tplID), signed.ID)
			is.True(strings.HasPrefix(stored.Secret, "v1:"))
			is.True(!strings.Contains(stored.Secret, secret))
			is.True(stored.Secret != orig.Secret)
			is.True(stored.AuthorizationHeader != orig.AuthorizationHeader)

			// The copy hears of the repository's creation, as in Gitea, and
			// signs with the template's secret.
			got := rec.wait(t, "/signed", 1)[0]
			hookevHeaders(t, got, "repository", secret)
			is.Equal(got.Header.Get("Authorization"), auth)
			p := deliveryDecode[hookevRepository](t, got.Body)
			is.Equal(p.Action, "created")
			is.Equal(p.Repository.FullName, "alice/gen")

			// A push to the new repository reaches the copy.
			work := httpGitClone(t, httpGitURL(srv, "alice", "gen", "alice", userPassword))
			httpGitCommit(t, work, "a.txt", "a\n", "one")
			httpGitOK(t, work, "push", "-q", "origin", "HEAD:main")
			got = rec.wait(t, "/signed", 2)[1]
			hookevHeaders(t, got, "push", secret)
			is.Equal(got.Header.Get("Authorization"), auth)
			push := deliveryDecode[deliveryPush](t, got.Body)
			is.Equal(push.Ref, "refs/heads/main")
			is.Equal(push.Repo.FullName, "alice/gen")
			is.Equal(len(rec.requests("/plain")), 0) // inactive, as its template

			// The template keeps its own labels and hooks.
			is.Equal(len(generatedLabels(t, alice, "alice", "tpl")), 3)
			is.Equal(len(generatedHooks(t, alice, "alice", "tpl")), 2)
		})

		t.Run("nothing copied unless asked", func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "alice", "name": "bare",
				"git_content": true, "labels": false, "webhooks": false}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusCreated)
			is.Equal(len(generatedLabels(t, alice, "alice", "bare")), 0)
			is.Equal(len(generatedHooks(t, alice, "alice", "bare")), 0)

			// Labels alone.
			r = srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "alice", "name": "labels-only",
				"labels": true}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusCreated)
			is.Equal(len(generatedLabels(t, alice, "alice", "labels-only")), 3)
			is.Equal(len(generatedHooks(t, alice, "alice", "labels-only")), 0)

			// Webhooks alone.
			r = srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "alice", "name": "hooks-only",
				"webhooks": true}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusCreated)
			is.Equal(len(generatedLabels(t, alice, "alice", "hooks-only")), 0)
			is.Equal(len(generatedHooks(t, alice, "alice", "hooks-only")), 2)
		})

		t.Run("a reader of the template gets its labels, not its hooks", func(t *testing.T) {
			is := is.New(t)
			r, resp, err := bob.CreateRepoFromTemplate("alice", "tpl", gitea.CreateRepoFromTemplateOption{
				Owner: "bob", Name: "mine", GitContent: true, Labels: true, Webhooks: true})
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusCreated)
			is.Equal(r.FullName, "bob/mine")
			is.Equal(len(generatedLabels(t, bob, "bob", "mine")), 3)
			is.Equal(len(generatedHooks(t, bob, "bob", "mine")), 0)
			// A site admin may administer any template: its hooks come along.
			_, resp, err = srv.AdminClient().CreateRepoFromTemplate("alice", "tpl", gitea.CreateRepoFromTemplateOption{
				Owner: "carol", Name: "forcarol", Labels: true, Webhooks: true})
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusCreated)
			is.Equal(len(generatedHooks(t, srv.AdminClient(), "carol", "forcarol")), 2)
			is.Equal(len(generatedLabels(t, srv.AdminClient(), "carol", "forcarol")), 3)
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			body := map[string]any{"owner": "bob", "name": "nope", "labels": true, "webhooks": true}
			// Anonymous callers are refused; a template bob cannot see is absent.
			r := srv.Do("POST", "/repos/alice/tpl/generate", body)
			is.Equal(r.Status, http.StatusUnauthorized)
			r = srv.Do("POST", "/repos/alice/hidden-tpl/generate", body, basicAs("bob")...)
			is.Equal(r.Status, http.StatusNotFound)
			// Into another user's account: 403, and nothing is left behind.
			assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate",
				map[string]any{"owner": "carol", "name": "nope", "labels": true, "webhooks": true}, basicAs("bob")...),
				http.StatusForbidden, "Only admin can generate repository for other user.")
			for _, owner := range []string{"bob", "carol"} {
				_, resp, err := srv.AdminClient().GetRepo(owner, "nope")
				assertSDKStatus(t, resp, err, http.StatusNotFound)
			}
		})

		t.Run("a taken name copies nothing", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, bob, gitea.CreateRepoOption{Name: "taken"})
			before := generatedRepoID(t, bob, "bob", "taken")
			r := srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "bob", "name": "taken",
				"labels": true}, basicAs("bob")...)
			is.Equal(r.Status, http.StatusConflict)
			is.Equal(generatedRepoID(t, bob, "bob", "taken"), before)
			is.Equal(len(generatedLabels(t, bob, "bob", "taken")), 0)
		})
	})
}
