package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestRepoGenerateGitHooks covers git_hooks on POST R/generate: the
// template's Git hook scripts are copied only for a caller who may edit Git
// hooks (site setting, then admin or allow_git_hook) and administers the
// template; anyone else gets the repository without them, as webhooks.
func TestRepoGenerateGitHooks(t *testing.T) {
	t.Parallel()
	srv, alice := hooksSetup(t, hooksGitEnabled())
	admin := srv.AdminClient()
	createRepo(t, alice, gitea.CreateRepoOption{Name: "tpl", Template: true, AutoInit: true})
	const script = "#!/bin/sh\necho from the template\n"
	if _, err := admin.EditRepoGitHook("alice", "tpl", "pre-receive", gitea.EditGitHookOption{Content: script}); err != nil {
		t.Fatal(err)
	}
	generate := func(name string, gitHooks bool) {
		t.Helper()
		r := srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{
			"owner": "alice", "name": name, "git_content": true, "git_hooks": gitHooks}, basicAs("alice")...)
		if r.Status != http.StatusCreated {
			t.Fatalf("generate %s: %d %s", name, r.Status, r.Body)
		}
	}
	hookOf := func(repo, name string) *gitea.GitHook {
		t.Helper()
		h, _, err := admin.GetRepoGitHook("alice", repo, name)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}

	t.Run("NotAllowedToEditGitHooks", func(t *testing.T) {
		is := is.New(t)
		generate("plain", true)
		is.True(!hookOf("plain", "pre-receive").IsActive) // alice may not edit Git hooks: none copied
	})
	hooksAllowGitHook(t, srv, "alice")
	t.Run("Copied", func(t *testing.T) {
		is := is.New(t)
		generate("with-hooks", true)
		h := hookOf("with-hooks", "pre-receive")
		is.True(h.IsActive)
		is.Equal(h.Content, script)
		is.True(!hookOf("with-hooks", "post-receive").IsActive) // the template has none
	})
	t.Run("NotAsked", func(t *testing.T) {
		is := is.New(t)
		generate("without-hooks", false)
		is.True(!hookOf("without-hooks", "pre-receive").IsActive)
	})
	t.Run("TemplateStillHasIts", func(t *testing.T) {
		is.New(t).Equal(hookOf("tpl", "pre-receive").Content, script)
	})
}
