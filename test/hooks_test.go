package test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// hooksURL is the delivery URL the tests' hooks point at; nothing is sent
// to it by these tests (hooks are created inactive or for other events).
const hooksURL = "https://hooks.example.com/in"

// hooksCreateOpt is a valid create body of the given type.
func hooksCreateOpt(typ gitea.HookType) gitea.CreateHookOption {
	return gitea.CreateHookOption{Type: typ, Config: map[string]string{"url": hooksURL, "content_type": "json"}}
}

// hooksDecode decodes a Hook answer with the SDK's type.
func hooksDecode(t *testing.T, r testserver.Response, status int) *gitea.Hook {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d (body %s)", r.Status, status, r.Body)
	}
	var h gitea.Hook
	r.Decode(t, &h)
	return &h
}

// hooksSetup starts a server with alice (owner of the public repository
// code, and of the private repository secret).
func hooksSetup(t *testing.T, opts ...testserver.Option) (*testserver.Server, *gitea.Client) {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
	return srv, alice
}

func TestHooksRepoLifecycle(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice := hooksSetup(t, opts...)
		before := time.Now().Add(-time.Minute)

		// Create: a Gitea client's "gitea" type, the defaults of core 4.4.
		opt := hooksCreateOpt(gitea.HookTypeGitea)
		opt.Config["secret"] = "s3cret"
		h, resp, err := alice.CreateRepoHook("alice", "code", opt)
		is := is.New(t)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.True(h.ID > 0)
		is.Equal(h.Type, "gitea")                  // answered as the client named it
		is.Equal(h.Events, []string{"push"})       // default events
		is.True(!h.Active)                         // inactive unless asked
		is.Equal(h.Config["url"], hooksURL)        // config is shown …
		is.Equal(h.Config["content_type"], "json") // …
		is.Equal(h.Config["http_method"], "POST")  // …
		is.Equal(h.Config["secret"], "")           // … but never the secret
		is.Equal(h.BranchFilter, "")
		is.True(h.Created.After(before) && h.Updated.Equal(h.Created))

		// The spec's name of the native kind answers as given.
		svc := srv.Do("POST", "/repos/alice/code/hooks", map[string]any{
			"type": "service", "config": map[string]string{"url": hooksURL, "content_type": "form"},
			"events": []string{"issues", "create"}, "active": true, "branch_filter": "release/*",
			"authorization_header": "Bearer abc",
		}, basicAs("alice")...)
		h2 := hooksDecode(t, svc, http.StatusCreated)
		is.Equal(h2.Type, "service")
		is.True(h2.Active)
		is.Equal(h2.Events, []string{"create", "issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"})
		is.Equal(h2.BranchFilter, "release/*")
		is.Equal(h2.AuthorizationHeader, "Bearer abc")
		is.Equal(h2.Config["content_type"], "form")
		for _, typ := range []gitea.HookType{gitea.HookTypeSlack, gitea.HookTypeDiscord, gitea.HookTypeDingtalk} {
			o := hooksCreateOpt(typ)
			o.Config["channel"] = "#ops"
			c, _, err := alice.CreateRepoHook("alice", "code", o)
			is.NoErr(err)
			is.Equal(c.Type, string(typ))
			is.Equal(c.Config["channel"] != "", typ == gitea.HookTypeSlack) // only Slack keeps a channel
			_, err = alice.DeleteRepoHook("alice", "code", c.ID)
			is.NoErr(err)
		}

		// List (with paging headers) and get.
		list, resp, err := alice.ListRepoHooks("alice", "code", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "2")
		is.Equal(len(list), 2)
		is.Equal(list[0].ID, h.ID)
		is.Equal(list[1].ID, h2.ID)
		page, resp, err := alice.ListRepoHooks("alice", "code", gitea.ListHooksOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
		is.NoErr(err)
		is.Equal(len(page), 1)
		is.Equal(page[0].ID, h2.ID)
		is.Equal(resp.Header.Get("X-Total-Count"), "2")
		got, _, err := alice.GetRepoHook("alice", "code", h.ID)
		is.NoErr(err)
		is.Equal(*got, *h)

		// Edit with the SDK, which sends every field.
		yes := true
		_, err = alice.EditRepoHook("alice", "code", h.ID, gitea.EditHookOption{
			Config:       map[string]string{"content_type": "form", "url": "http://hooks.example.com/other"},
			Events:       []string{"create", "delete"},
			BranchFilter: "{main,dev}", Active: &yes, AuthorizationHeader: "token t",
		})
		is.NoErr(err)
		got, _, err = alice.GetRepoHook("alice", "code", h.ID)
		is.NoErr(err)
		is.True(got.Active)
		is.Equal(got.Events, []string{"create", "delete"})
		is.Equal(got.BranchFilter, "{main,dev}")
		is.Equal(got.AuthorizationHeader, "token t")
		is.Equal(got.Config["url"], "http://hooks.example.com/other")
		is.Equal(got.Config["content_type"], "form")
		is.True(!got.Updated.Before(got.Created))

		// A raw edit that names only active leaves the rest alone and answers the hook.
		r := srv.Do("PATCH", "/repos/alice/code/hooks/"+strconv.FormatInt(h.ID, 10), map[string]any{"active": false}, basicAs("alice")...)
		edited := hooksDecode(t, r, http.StatusOK)
		is.True(!edited.Active)
		is.Equal(edited.BranchFilter, "{main,dev}")
		is.Equal(edited.Events, []string{"create", "delete"})

		// Delete.
		resp, err = alice.DeleteRepoHook("alice", "code", h.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, resp, err = alice.GetRepoHook("alice", "code", h.ID)
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, _ = alice.DeleteRepoHook("alice", "code", h.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
	})
}

func TestHooksRepoValidation(t *testing.T) {
	t.Parallel()
	srv, alice := hooksSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
	h, _, err := alice.CreateRepoHook("alice", "code", hooksCreateOpt(gitea.HookTypeGitea))
	if err != nil {
		t.Fatal(err)
	}
	path := "/repos/alice/code/hooks"
	hookPath := path + "/" + strconv.FormatInt(h.ID, 10)
	cfg := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	okConfig := cfg("url", hooksURL, "content_type", "json")

	cases := []struct {
		name, method, path string
		body               any
		field              string
	}{
		{"TypeMissing", "POST", path, map[string]any{"config": okConfig}, "Type"},
		{"TypeUnknown", "POST", path, map[string]any{"type": "msteams", "config": okConfig}, "Type"},
		{"ConfigMissing", "POST", path, map[string]any{"type": "gitea"}, "Config"},
		{"URLMissing", "POST", path, map[string]any{"type": "gitea", "config": cfg("content_type", "json")}, "Config"},
		{"URLNotHTTP", "POST", path, map[string]any{"type": "gitea", "config": cfg("url", "file:///etc/passwd", "content_type", "json")}, "Config"},
		{"ContentTypeMissing", "POST", path, map[string]any{"type": "gitea", "config": cfg("url", hooksURL)}, "Config"},
		{"ContentTypeBad", "POST", path, map[string]any{"type": "gitea", "config": cfg("url", hooksURL, "content_type", "xml")}, "Config"},
		{"EventUnknown", "POST", path, map[string]any{"type": "gitea", "config": okConfig, "events": []string{"pushy"}}, "Events"},
		{"BranchFilterBad", "POST", path, map[string]any{"type": "gitea", "config": okConfig, "branch_filter": "{main"}, "BranchFilter"},
		{"ConfigNotStrings", "POST", path, map[string]any{"type": "gitea", "config": map[string]any{"url": 5}}, "Config"},
		{"EditContentTypeBad", "PATCH", hookPath, map[string]any{"config": cfg("content_type", "yaml")}, "Config"},
		{"EditURLEmpty", "PATCH", hookPath, map[string]any{"config": cfg("url", "")}, "Config"},
		{"EditEventUnknown", "PATCH", hookPath, map[string]any{"events": []string{"nope"}}, "Events"},
		{"EditActiveNotBool", "PATCH", hookPath, map[string]any{"active": "yes"}, "Active"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertInvalid(t, srv.Do(c.method, c.path, c.body, basicAs("alice")...), c.field)
		})
	}
	t.Run("MalformedJSON", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("POST", path, "{", basicAs("alice")...).Status, http.StatusBadRequest)
		is.Equal(srv.Do("PATCH", hookPath, "[1,", basicAs("alice")...).Status, http.StatusBadRequest)
	})
	t.Run("NotFound", func(t *testing.T) {
		is := is.New(t)
		for _, p := range []string{path + "/999999", path + "/abc", "/repos/alice/other/hooks/" + strconv.FormatInt(h.ID, 10)} {
			is.Equal(srv.Do("GET", p, nil, basicAs("alice")...).Status, http.StatusNotFound)
			is.Equal(srv.Do("PATCH", p, map[string]any{"active": true}, basicAs("alice")...).Status, http.StatusNotFound)
			is.Equal(srv.Do("DELETE", p, nil, basicAs("alice")...).Status, http.StatusNotFound)
		}
		is.Equal(srv.Do("GET", "/repos/alice/nothing/hooks", nil, basicAs("alice")...).Status, http.StatusNotFound)
	})
	t.Run("NothingChangedByRefusals", func(t *testing.T) {
		is := is.New(t)
		got, _, err := alice.GetRepoHook("alice", "code", h.ID)
		is.NoErr(err)
		is.Equal(*got, *h)
	})
}

func TestHooksRepoAccess(t *testing.T) {
	t.Parallel()
	srv, alice := hooksSetup(t)
	for _, name := range []string{"bob", "carol", "dave", "eve"} {
		newAccount(t, srv, name, gitea.VisibleTypePublic)
	}
	for name, mode := range map[string]gitea.AccessMode{"bob": gitea.AccessModeAdmin, "carol": gitea.AccessModeWrite, "dave": gitea.AccessModeRead} {
		if _, err := alice.AddCollaborator("alice", "code", name, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatal(err)
		}
	}
	const raMsg = "user should be an owner or a collaborator with admin write of a repository"
	body := map[string]any{"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json"}}
	cases := []struct {
		who    string
		header []string
		status int
		msg    string
	}{
		{"Anonymous", nil, http.StatusUnauthorized, "token is required"},
		{"Outsider", basicAs("eve"), http.StatusForbidden, raMsg},
		{"Reader", basicAs("dave"), http.StatusForbidden, raMsg},
		{"Writer", basicAs("carol"), http.StatusForbidden, raMsg},
		{"RepoAdmin", basicAs("bob"), http.StatusOK, ""},
		{"Owner", basicAs("alice"), http.StatusOK, ""},
		{"SiteAdmin", adminHeader(srv), http.StatusOK, ""},
	}
	for _, c := range cases {
		t.Run(c.who, func(t *testing.T) {
			is := is.New(t)
			list := srv.Do("GET", "/repos/alice/code/hooks", nil, c.header...)
			created := srv.Do("POST", "/repos/alice/code/hooks", body, c.header...)
			if c.status != http.StatusOK {
				assertAPIError(t, list, c.status, c.msg)
				assertAPIError(t, created, c.status, c.msg)
				return
			}
			is.Equal(list.Status, http.StatusOK)
			h := hooksDecode(t, created, http.StatusCreated)
			p := "/repos/alice/code/hooks/" + strconv.FormatInt(h.ID, 10)
			is.Equal(srv.Do("GET", p, nil, c.header...).Status, http.StatusOK)
			is.Equal(srv.Do("PATCH", p, map[string]any{"active": true}, c.header...).Status, http.StatusOK)
			is.Equal(srv.Do("DELETE", p, nil, c.header...).Status, http.StatusNoContent)
		})
	}
	t.Run("PrivateRepositoryHidden", func(t *testing.T) {
		r := srv.Do("GET", "/repos/alice/secret/hooks", nil, basicAs("eve")...)
		assertAPIError(t, r, http.StatusNotFound, "")
		r = srv.Do("GET", "/repos/alice/secret/hooks", nil)
		assertAPIError(t, r, http.StatusNotFound, "")
	})
}

func TestHooksWebhooksDisabled(t *testing.T) {
	t.Parallel()
	srv, _ := hooksSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.EnableWebhooks = false
		s.EnableGitHooks = true
	}))
	const off = "webhooks disabled by administrator"
	body := map[string]any{"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json"}}
	for _, who := range [][]string{basicAs("alice"), adminHeader(srv)} {
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/hooks", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("POST", "/repos/alice/code/hooks", body, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/hooks/1", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/code/hooks/1", body, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/code/hooks/1", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("GET", "/user/hooks", nil, who...), http.StatusForbidden, off)
		assertAPIError(t, srv.Do("POST", "/user/hooks", body, who...), http.StatusForbidden, off)
	}
	// The access codes come in the catalogue's order: T and RA first.
	assertAPIError(t, srv.Do("GET", "/repos/alice/code/hooks", nil), http.StatusUnauthorized, "token is required")
	is := is.New(t)
	// The admin routes and the Git hook routes carry no WH.
	_, resp, err := srv.AdminClient().ListAdminHooks(gitea.ListAdminHooksOptions{})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	hooks, _, err := srv.AdminClient().ListRepoGitHooks("alice", "code", gitea.ListRepoGitHooksOptions{})
	is.NoErr(err)
	is.Equal(len(hooks), 3)
}

func TestHooksUserHooks(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice := hooksSetup(t, opts...)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		is := is.New(t)

		a, resp, err := alice.CreateMyHook(hooksCreateOpt(gitea.HookTypeGitea))
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(a.Events, []string{"push"})
		b, _, err := bob.CreateMyHook(hooksCreateOpt(gitea.HookTypeDiscord))
		is.NoErr(err)

		mine, resp, err := alice.ListMyHooks(gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(mine), 1)
		is.Equal(mine[0].ID, a.ID)
		got, _, err := alice.GetMyHook(a.ID)
		is.NoErr(err)
		is.Equal(*got, *a)

		// Another account's hook is not there for the caller: 404, untouched.
		_, resp, _ = alice.GetMyHook(b.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, _ = alice.EditMyHook(b.ID, gitea.EditHookOption{Events: []string{"create"}})
		is.Equal(resp.StatusCode, http.StatusNotFound)
		resp, _ = alice.DeleteMyHook(b.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		got, _, err = bob.GetMyHook(b.ID)
		is.NoErr(err)
		is.Equal(*got, *b)
		// Nor is a repository hook of the caller's.
		rh, _, err := alice.CreateRepoHook("alice", "code", hooksCreateOpt(gitea.HookTypeGitea))
		is.NoErr(err)
		_, resp, _ = alice.GetMyHook(rh.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)

		yes := true
		resp, err = alice.EditMyHook(a.ID, gitea.EditHookOption{Events: []string{"repository"}, Active: &yes})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		got, _, err = alice.GetMyHook(a.ID)
		is.NoErr(err)
		is.Equal(got.Events, []string{"repository"})
		is.True(got.Active)

		assertInvalid(t, srv.Do("POST", "/user/hooks", map[string]any{"type": "gitea"}, basicAs("alice")...), "Config")
		assertAPIError(t, srv.Do("GET", "/user/hooks", nil), http.StatusUnauthorized, "token is required")

		resp, err = alice.DeleteMyHook(a.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		mine, _, err = alice.ListMyHooks(gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(len(mine), 0)
	})
}

func TestHooksAdminHooks(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice := hooksSetup(t, opts...)
		admin := srv.AdminClient()
		is := is.New(t)

		// Only site admins.
		body := map[string]any{"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json"}}
		assertAPIError(t, srv.Do("GET", "/admin/hooks", nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("GET", "/admin/hooks", nil, basicAs("alice")...), http.StatusForbidden, "user should be the site admin")
		assertAPIError(t, srv.Do("POST", "/admin/hooks", body, basicAs("alice")...), http.StatusForbidden, "user should be the site admin")

		// Without is_system_webhook a default hook: copied into new repositories.
		defOpt := hooksCreateOpt(gitea.HookTypeGitea)
		defOpt.Events = []string{"push", "create"}
		defOpt.Active = true
		defOpt.BranchFilter = "main"
		def, resp, err := admin.CreateAdminHook(defOpt)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		// is_system_webhook true makes a system hook, in the body or (newer Gitea) in config.
		sys := hooksDecode(t, srv.Do("POST", "/admin/hooks", map[string]any{
			"type": "slack", "is_system_webhook": true,
			"config": map[string]string{"url": hooksURL, "content_type": "json", "channel": "#all"},
		}, adminHeader(srv)...), http.StatusCreated)
		sys2 := hooksDecode(t, srv.Do("POST", "/admin/hooks", map[string]any{
			"type": "gitea", "config": map[string]string{"url": hooksURL, "content_type": "json", "is_system_webhook": "true"},
		}, adminHeader(srv)...), http.StatusCreated)
		assertInvalid(t, srv.Do("POST", "/admin/hooks", map[string]any{"type": "nope", "config": map[string]string{}}, adminHeader(srv)...), "Type")

		ids := func(list []*gitea.Hook) []int64 {
			out := []int64{}
			for _, h := range list {
				out = append(out, h.ID)
			}
			return out
		}
		list, _, err := admin.ListAdminHooks(gitea.ListAdminHooksOptions{})
		is.NoErr(err)
		is.Equal(ids(list), []int64{sys.ID, sys2.ID}) // system hooks by default
		list, _, err = admin.ListAdminHooks(gitea.ListAdminHooksOptions{Type: "default"})
		is.NoErr(err)
		is.Equal(ids(list), []int64{def.ID})
		list, _, err = admin.ListAdminHooks(gitea.ListAdminHooksOptions{Type: "all"})
		is.NoErr(err)
		is.Equal(ids(list), []int64{def.ID, sys.ID, sys2.ID})

		got, _, err := admin.GetAdminHook(def.ID)
		is.NoErr(err)
		is.Equal(*got, *def)
		no := false
		edited, _, err := admin.EditAdminHook(sys.ID, gitea.EditHookOption{Active: &no, Events: []string{"release"}})
		is.NoErr(err)
		is.Equal(edited.Events, []string{"release"})
		is.Equal(edited.Config["channel"], "#all")
		_, resp, _ = admin.GetAdminHook(999999)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		// A repository hook is no admin hook.
		rh, _, err := alice.CreateRepoHook("alice", "code", hooksCreateOpt(gitea.HookTypeGitea))
		is.NoErr(err)
		_, resp, _ = admin.GetAdminHook(rh.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)

		// A new repository gets a copy of each default hook; existing ones do not.
		createRepo(t, alice, gitea.CreateRepoOption{Name: "fresh"})
		copies, _, err := alice.ListRepoHooks("alice", "fresh", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(len(copies), 1)
		c := copies[0]
		is.True(c.ID != def.ID)
		is.Equal(c.Type, def.Type)
		is.Equal(c.Config, def.Config)
		is.Equal(c.Events, []string{"create", "push"})
		is.Equal(c.BranchFilter, "main")
		is.True(c.Active)
		others, _, err := alice.ListRepoHooks("alice", "code", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(ids(others), []int64{rh.ID})

		// is_system_webhook on an edit moves a hook between the kinds.
		r := srv.Do("PATCH", "/admin/hooks/"+strconv.FormatInt(def.ID, 10), map[string]any{"is_system_webhook": true}, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusOK)
		list, _, err = admin.ListAdminHooks(gitea.ListAdminHooksOptions{Type: "default"})
		is.NoErr(err)
		is.Equal(len(list), 0)

		resp, err = admin.DeleteAdminHook(def.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, resp, _ = admin.GetAdminHook(def.ID)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		// Deleting the default does not touch its copies.
		copies, _, err = alice.ListRepoHooks("alice", "fresh", gitea.ListHooksOptions{})
		is.NoErr(err)
		is.Equal(len(copies), 1)
	})
}
