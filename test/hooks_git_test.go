package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// hooksGitEnabled is the site setting that turns the Git hook routes on.
func hooksGitEnabled() testserver.Option {
	return testserver.WithSettings(func(s *site.Settings) { s.EnableGitHooks = true })
}

// hooksAllowGitHook lets name edit Git hooks (admin edit allow_git_hook).
func hooksAllowGitHook(t *testing.T, srv *testserver.Server, name string) {
	t.Helper()
	yes := true
	if _, err := srv.AdminClient().AdminEditUser(name, gitea.EditUserOption{LoginName: name, AllowGitHook: &yes}); err != nil {
		t.Fatalf("allow %s to edit Git hooks: %v", name, err)
	}
}

const hooksGitDenied = "must be allowed to edit Git hooks"

func TestHooksGitHooksAccess(t *testing.T) {
	t.Parallel()
	srv, alice := hooksSetup(t, hooksGitEnabled())
	for _, name := range []string{"bob", "carol"} {
		newAccount(t, srv, name, gitea.VisibleTypePublic)
	}
	for name, mode := range map[string]gitea.AccessMode{"bob": gitea.AccessModeAdmin, "carol": gitea.AccessModeWrite} {
		if _, err := alice.AddCollaborator("alice", "code", name, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatal(err)
		}
	}
	list := "/repos/alice/code/hooks/git"
	one := list + "/pre-receive"
	script := map[string]string{"content": "#!/bin/sh\nexit 0\n"}

	t.Run("Anonymous", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", list, nil), http.StatusUnauthorized, "token is required")
	})
	t.Run("OwnerNotAllowed", func(t *testing.T) {
		// Owning the repository is not enough: running code on the server is.
		assertAPIError(t, srv.Do("GET", list, nil, basicAs("alice")...), http.StatusForbidden, hooksGitDenied)
		assertAPIError(t, srv.Do("PATCH", one, script, basicAs("alice")...), http.StatusForbidden, hooksGitDenied)
		assertAPIError(t, srv.Do("DELETE", one, nil, basicAs("alice")...), http.StatusForbidden, hooksGitDenied)
	})
	hooksAllowGitHook(t, srv, "bob")
	hooksAllowGitHook(t, srv, "carol")
	t.Run("WriterAllowedButNoRepoAdmin", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", list, nil, basicAs("carol")...), http.StatusForbidden,
			"user should be an owner or a collaborator with admin write of a repository")
	})
	t.Run("RepoAdminAllowed", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("GET", list, nil, basicAs("bob")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", one, nil, basicAs("bob")...).Status, http.StatusOK)
	})
	t.Run("SiteAdmin", func(t *testing.T) {
		is := is.New(t)
		hooks, _, err := srv.AdminClient().ListRepoGitHooks("alice", "code", gitea.ListRepoGitHooksOptions{})
		is.NoErr(err)
		is.Equal(len(hooks), 3)
	})
	t.Run("PrivateRepositoryHidden", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret/hooks/git", nil, basicAs("bob")...), http.StatusNotFound, "")
	})
	t.Run("UnknownHookAndBadBody", func(t *testing.T) {
		is := is.New(t)
		for _, m := range []string{"GET", "PATCH", "DELETE"} {
			is.Equal(srv.Do(m, list+"/post-update", script, adminHeader(srv)...).Status, http.StatusNotFound)
		}
		is.Equal(srv.Do("PATCH", one, "{", adminHeader(srv)...).Status, http.StatusBadRequest)
		assertInvalid(t, srv.Do("PATCH", one, map[string]any{"content": 5}, adminHeader(srv)...), "Content")
	})
}

func TestHooksGitHooksDisabled(t *testing.T) {
	t.Parallel()
	srv, _ := hooksSetup(t) // Git hooks are off unless the site turns them on
	hooksAllowGitHook(t, srv, "alice")
	for _, who := range [][]string{adminHeader(srv), basicAs("alice")} {
		assertAPIError(t, srv.Do("GET", "/repos/alice/code/hooks/git", nil, who...), http.StatusForbidden, hooksGitDenied)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/code/hooks/git/update", map[string]string{"content": "x"}, who...),
			http.StatusForbidden, hooksGitDenied)
	}
}

// hooksGitPush pushes branch from work to alice/code and returns git's output.
func hooksGitPush(t *testing.T, srv *testserver.Server, work, branch string, wantOK bool) string {
	t.Helper()
	url := httpGitURL(srv, "alice", "code", "alice", userPassword)
	if wantOK {
		return httpGitOK(t, work, "push", url, branch)
	}
	return httpGitFails(t, work, "push", url, branch)
}

func TestHooksGitHooksRunOnPush(t *testing.T) {
	t.Parallel()
	srv, _ := hooksSetup(t, hooksGitEnabled())
	hooksAllowGitHook(t, srv, "alice")
	alice := srv.Client(gitea.SetBasicAuth("alice", userPassword))
	is := is.New(t)

	// Every hook is listed, none active yet.
	hooks, _, err := alice.ListRepoGitHooks("alice", "code", gitea.ListRepoGitHooksOptions{})
	is.NoErr(err)
	is.Equal(len(hooks), 3)
	for i, name := range []string{"pre-receive", "update", "post-receive"} {
		is.Equal(hooks[i].Name, name)
		is.True(!hooks[i].IsActive)
		is.Equal(hooks[i].Content, "")
	}

	pre := "#!/bin/sh\r\nwhile read old new ref; do\r\n" +
		"  echo \"custom pre-receive: $ref\"\r\n" +
		"  if [ \"$ref\" = refs/heads/blocked ]; then echo \"custom hook refuses $ref\" >&2; exit 1; fi\r\n" +
		"done\r\n"
	update := "#!/bin/sh\necho \"custom update: $1\"\n"
	post := "#!/bin/sh\ncat >/dev/null\necho \"custom post-receive for repo $DEPOT_REPO_ID secret=[$DEPOT_HOOK_SECRET]\"\n"
	for name, content := range map[string]string{"pre-receive": pre, "update": update, "post-receive": post} {
		r := srv.Do("PATCH", "/repos/alice/code/hooks/git/"+name, map[string]string{"content": content}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var h gitea.GitHook
		r.Decode(t, &h)
		is.Equal(h.Name, name)
		is.True(h.IsActive)
		is.Equal(h.Content, strings.ReplaceAll(content, "\r\n", "\n")) // stored with Unix line endings
	}
	got, _, err := alice.GetRepoGitHook("alice", "code", "update")
	is.NoErr(err)
	is.Equal(*got, gitea.GitHook{Name: "update", IsActive: true, Content: update})

	// A push runs Depot's hooks, then the repository's own.
	work := httpGitClone(t, httpGitURL(srv, "alice", "code", "alice", userPassword))
	head := httpGitCommit(t, work, "a.txt", "a\n", "second")
	out := hooksGitPush(t, srv, work, "main", true)
	is.True(strings.Contains(out, "remote: custom pre-receive: refs/heads/main"))
	is.True(strings.Contains(out, "remote: custom update: refs/heads/main"))
	is.True(strings.Contains(out, "remote: custom post-receive for repo "))
	is.True(strings.Contains(out, "secret=[]")) // Depot's callback secret is not handed on
	is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), head)
	// Depot's post-receive still recorded the push.
	branch, _, err := alice.GetRepoBranch("alice", "code", "main")
	is.NoErr(err)
	is.Equal(branch.Commit.ID, head)

	// A custom pre-receive refusal refuses the push.
	httpGitOK(t, work, "checkout", "-q", "-b", "blocked")
	httpGitCommit(t, work, "b.txt", "b\n", "third")
	out = hooksGitPush(t, srv, work, "blocked", false)
	is.True(strings.Contains(out, "custom hook refuses refs/heads/blocked"))
	is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/blocked"), "")

	// Deleting the scripts (and a blank edit) leaves pushes to Depot alone.
	resp, err := alice.DeleteRepoGitHook("alice", "code", "pre-receive")
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	resp, err = alice.DeleteRepoGitHook("alice", "code", "pre-receive") // already gone: fine
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	r := srv.Do("PATCH", "/repos/alice/code/hooks/git/update", map[string]string{"content": " \n"}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	var blank gitea.GitHook
	r.Decode(t, &blank)
	is.Equal(blank, gitea.GitHook{Name: "update"})
	got, _, err = alice.GetRepoGitHook("alice", "code", "pre-receive")
	is.NoErr(err)
	is.True(!got.IsActive)
	out = hooksGitPush(t, srv, work, "blocked", true)
	is.True(!strings.Contains(out, "custom pre-receive"))
	is.True(!strings.Contains(out, "custom update"))
	is.True(strings.Contains(out, "custom post-receive")) // still set
	is.True(httpGitRef(t, srv, "alice", "code", "refs/heads/blocked") != "")
}
