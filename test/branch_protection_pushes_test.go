package test

import (
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// protectBranch creates a rule on owner/name as owner and fails on error.
func protectBranch(t *testing.T, srv *testserver.Server, owner, name string, opt gitea.CreateBranchProtectionOption) {
	t.Helper()
	if _, _, err := userClient(srv, owner).CreateBranchProtection(owner, name, opt); err != nil {
		t.Fatalf("protect %s on %s/%s: %v", opt.RuleName, owner, name, err)
	}
}

// assertRemoteRefusal checks that git's output carries msg on a remote: line.
func assertRemoteRefusal(t *testing.T, out, msg string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "remote:") && strings.Contains(line, msg) {
			return
		}
	}
	t.Fatalf("no remote: line says %q in\n%s", msg, out)
}

// TestBranchProtectionPushesOverHTTP pushes with the real git CLI against
// protected branches: a plain push, a force push, a deletion and a
// protected file are refused with the rule's reason and leave the ref
// where it was; the push allowlist lets its users and teams through.
func TestBranchProtectionPushesOverHTTP(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "pprowner", "pprwriter", "pprlisted")
	createRepo(t, userClient(srv, "pprowner"), gitea.CreateRepoOption{Name: "code", AutoInit: true})
	socialCollab(t, srv, "pprowner", "code", "pprwriter", gitea.AccessModeWrite)
	socialCollab(t, srv, "pprowner", "code", "pprlisted", gitea.AccessModeWrite)
	as := func(user string) string {
		return httpGitClone(t, httpGitURL(srv, "pprowner", "code", user, userPassword))
	}
	ref := func(branch string) string { return httpGitRef(t, srv, "pprowner", "code", "refs/heads/"+branch) }

	protectBranch(t, srv, "pprowner", "code", gitea.CreateBranchProtectionOption{RuleName: "main"})
	protectBranch(t, srv, "pprowner", "code", gitea.CreateBranchProtectionOption{RuleName: "release/*", EnablePush: true,
		ProtectedFilePatterns: "*.lock"})
	protectBranch(t, srv, "pprowner", "code", gitea.CreateBranchProtectionOption{RuleName: "listed", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistUsernames: []string{"pprlisted"}})

	t.Run("plain push refused", func(t *testing.T) {
		is := is.New(t)
		work := as("pprwriter")
		before := ref("main")
		httpGitCommit(t, work, "a.txt", "a\n", "a")
		out := httpGitFails(t, work, "push", "origin", "main")
		assertRemoteRefusal(t, out, "Not allowed to push to protected branch main")
		is.Equal(ref("main"), before) // nothing written
	})

	t.Run("new protected branch, force push and deletion", func(t *testing.T) {
		is := is.New(t)
		work := as("pprwriter")
		httpGitOK(t, work, "checkout", "-q", "-b", "release/1")
		first := httpGitCommit(t, work, "r.txt", "1\n", "r1")
		httpGitOK(t, work, "push", "-q", "origin", "release/1") // push is enabled on release/*
		is.Equal(ref("release/1"), first)
		second := httpGitCommit(t, work, "r.txt", "2\n", "r2")
		httpGitOK(t, work, "push", "-q", "origin", "release/1") // a fast-forward
		is.Equal(ref("release/1"), second)

		httpGitOK(t, work, "reset", "-q", "--hard", "HEAD~1")
		httpGitCommit(t, work, "r.txt", "rewritten\n", "rewrite")
		out := httpGitFails(t, work, "push", "--force", "origin", "release/1")
		assertRemoteRefusal(t, out, "branch release/1 is protected from force push")
		is.Equal(ref("release/1"), second)

		out = httpGitFails(t, work, "push", "origin", "--delete", "release/1")
		assertRemoteRefusal(t, out, "branch release/1 is protected from deletion")
		is.Equal(ref("release/1"), second)
	})

	t.Run("protected file refused", func(t *testing.T) {
		is := is.New(t)
		work := as("pprwriter")
		httpGitOK(t, work, "checkout", "-q", "release/1")
		before := ref("release/1")
		httpGitCommit(t, work, "deps.lock", "x\n", "lock")
		out := httpGitFails(t, work, "push", "origin", "release/1")
		assertRemoteRefusal(t, out, "branch release/1 is protected from changing file deps.lock")
		is.Equal(ref("release/1"), before)
	})

	t.Run("allowlist", func(t *testing.T) {
		is := is.New(t)
		owner := as("pprowner")
		httpGitOK(t, owner, "checkout", "-q", "-b", "listed")
		httpGitCommit(t, owner, "l.txt", "l\n", "l")
		out := httpGitFails(t, owner, "push", "origin", "listed") // creating it is a push too
		assertRemoteRefusal(t, out, "Not allowed to push to protected branch listed")

		listed := as("pprlisted")
		httpGitOK(t, listed, "checkout", "-q", "-b", "listed")
		id := httpGitCommit(t, listed, "l.txt", "l\n", "l")
		httpGitOK(t, listed, "push", "-q", "origin", "listed")
		is.Equal(ref("listed"), id)
	})

	t.Run("unprotected branch untouched", func(t *testing.T) {
		is := is.New(t)
		work := as("pprwriter")
		httpGitOK(t, work, "checkout", "-q", "-b", "topic")
		id := httpGitCommit(t, work, "t.txt", "t\n", "t")
		httpGitOK(t, work, "push", "-q", "origin", "topic")
		is.Equal(ref("topic"), id)
	})
}

// TestBranchProtectionPushesOverSSH judges a deploy key by the rule's deploy
// key switch, over the built-in SSH server.
func TestBranchProtectionPushesOverSSH(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSSH())
	socialAccounts(t, srv, "psshowner")
	owner := userClient(srv, "psshowner")
	createRepo(t, owner, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	key, _ := sshGitDeployKey(t, owner, "psshowner", "code", "ci", false)
	protectBranch(t, srv, "psshowner", "code", gitea.CreateBranchProtectionOption{RuleName: "main", EnablePush: true,
		EnablePushWhitelist: true})
	protectBranch(t, srv, "psshowner", "code", gitea.CreateBranchProtectionOption{RuleName: "deploy", EnablePush: true,
		EnablePushWhitelist: true, PushWhitelistDeployKeys: true})

	is := is.New(t)
	work := sshGitClone(t, srv, key, "psshowner", "code")
	before := httpGitRef(t, srv, "psshowner", "code", "refs/heads/main")
	httpGitCommit(t, work, "k.txt", "k\n", "k")
	out := sshGitFails(t, srv, key, work, "push", "origin", "main")
	assertRemoteRefusal(t, out, "Not allowed to push to protected branch main")
	is.Equal(httpGitRef(t, srv, "psshowner", "code", "refs/heads/main"), before)

	id := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	sshGitOK(t, srv, key, work, "push", "-q", "origin", "HEAD:refs/heads/deploy")
	is.Equal(httpGitRef(t, srv, "psshowner", "code", "refs/heads/deploy"), id)
}
