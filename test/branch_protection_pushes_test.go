package test

import (
	"net/http"
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

// TestBranchProtectionAPIWrites covers the API's own write paths on a
// protected branch: the branch as GET R/branches shows it, the contents
// API, branch creation and deletion, and PUT R/branches/{branch}.
func TestBranchProtectionAPIWrites(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "apiowner", "apiwriter")
	owner := userClient(srv, "apiowner")
	createRepo(t, owner, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	socialCollab(t, srv, "apiowner", "code", "apiwriter", gitea.AccessModeWrite)
	writer := userClient(srv, "apiwriter")
	ref := func(branch string) string { return httpGitRef(t, srv, "apiowner", "code", "refs/heads/"+branch) }
	put := func(who, branch string, body any) (int, string) {
		r := srv.Do("PUT", "/repos/apiowner/code/branches/"+branch, body, tokenHeader(srv, who, "write:repository")...)
		return r.Status, r.Message()
	}

	// Two commits on topic to move branches between.
	work := httpGitClone(t, httpGitURL(srv, "apiowner", "code", "apiowner", userPassword))
	base := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	httpGitOK(t, work, "checkout", "-q", "-b", "topic")
	next := httpGitCommit(t, work, "n.txt", "n\n", "next")
	httpGitOK(t, work, "push", "-q", "origin", "topic")

	protectBranch(t, srv, "apiowner", "code", gitea.CreateBranchProtectionOption{RuleName: "main",
		EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*"}, RequiredApprovals: 1})
	protectBranch(t, srv, "apiowner", "code", gitea.CreateBranchProtectionOption{RuleName: "rel*", EnablePush: true,
		UnprotectedFilePatterns: "docs/**", ProtectedFilePatterns: "*.lock"})

	t.Run("branch shows its protection", func(t *testing.T) {
		is := is.New(t)
		b, _, err := owner.GetRepoBranch("apiowner", "code", "main")
		is.NoErr(err)
		is.True(b.Protected)
		is.Equal(b.RequiredApprovals, int64(1))
		is.True(b.EnableStatusCheck)
		is.Equal(b.StatusCheckContexts, []string{"ci/*"})
		is.True(!b.UserCanPush) // push is off, even for the owner
		is.True(b.UserCanMerge)
		is.Equal(b.EffectiveBranchProtectionName, "main")
		b, _, err = writer.GetRepoBranch("apiowner", "code", "main")
		is.NoErr(err)
		is.Equal(b.EffectiveBranchProtectionName, "") // only administrators learn the rule's name
		list, _, err := writer.ListRepoBranches("apiowner", "code", gitea.ListRepoBranchesOptions{})
		is.NoErr(err)
		for _, br := range list {
			is.Equal(br.Protected, br.Name == "main")
			if br.Name == "topic" {
				is.True(br.UserCanPush && br.UserCanMerge)
			}
		}
	})

	t.Run("contents API", func(t *testing.T) {
		is := is.New(t)
		_, resp, _ := writer.CreateFile("apiowner", "code", "x.txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{BranchName: "main"}, Content: "eA=="})
		is.Equal(resp.StatusCode, http.StatusForbidden)
		is.Equal(ref("main"), base)
		r := srv.Do("POST", "/repos/apiowner/code/contents/y.txt", map[string]any{"branch": "main", "content": "eQ=="},
			tokenHeader(srv, "apiwriter", "write:repository")...)
		is.Equal(r.Message(), "user cannot commit to repo [user: apiwriter]")

		_, _, err := owner.CreateBranch("apiowner", "code", gitea.CreateBranchOption{BranchName: "release", OldBranchName: "main"})
		is.NoErr(err) // push is on for rel*
		r = srv.Do("POST", "/repos/apiowner/code/contents/deps.lock", map[string]any{"branch": "release", "content": "eQ=="},
			tokenHeader(srv, "apiwriter", "write:repository")...)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.Message(), "path is protected and can not be changed [path: deps.lock]")
		_, resp, err = writer.CreateFile("apiowner", "code", "docs/a.md", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{BranchName: "release"}, Content: "eQ=="})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
	})

	t.Run("create and delete a protected branch", func(t *testing.T) {
		is := is.New(t)
		_, resp, _ := writer.CreateBranch("apiowner", "code", gitea.CreateBranchOption{BranchName: "MAIN", OldBranchName: "topic"})
		is.Equal(resp.StatusCode, http.StatusForbidden) // exact rule names match regardless of case
		r := srv.Do("DELETE", "/repos/apiowner/code/branches/release", nil, tokenHeader(srv, "apiowner", "write:repository")...)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.Message(), "branch protected")
		is.True(ref("release") != "")
		r = srv.Do("DELETE", "/repos/apiowner/code/branches/topic2", nil, tokenHeader(srv, "apiowner", "write:repository")...)
		is.Equal(r.Status, http.StatusNotFound)
	})

	t.Run("PUT branches", func(t *testing.T) {
		is := is.New(t)
		status, msg := put("apiowner", "main", map[string]any{"new_commit_id": next})
		is.Equal(status, http.StatusForbidden)
		is.Equal(msg, "Not allowed to push to protected branch main")
		is.Equal(ref("main"), base)

		_, _, err := owner.CreateBranch("apiowner", "code", gitea.CreateBranchOption{BranchName: "free", OldBranchName: "main"})
		is.NoErr(err)
		status, _ = put("apiwriter", "free", map[string]any{"new_commit_id": next, "old_commit_id": base})
		is.Equal(status, http.StatusNoContent)
		is.Equal(ref("free"), next)
		status, _ = put("apiwriter", "free", map[string]any{"new_commit_id": base})
		is.Equal(status, http.StatusConflict) // not a fast-forward
		status, _ = put("apiwriter", "free", map[string]any{"new_commit_id": base, "old_commit_id": base, "force": true})
		is.Equal(status, http.StatusConflict) // old_commit_id does not match
		status, _ = put("apiwriter", "free", map[string]any{"new_commit_id": base, "force": true})
		is.Equal(status, http.StatusNoContent)
		is.Equal(ref("free"), base)
		status, _ = put("apiwriter", "free", map[string]any{"new_commit_id": strings.Repeat("1", 40)})
		is.Equal(status, http.StatusNotFound)
		status, _ = put("apiwriter", "absent", map[string]any{"new_commit_id": next})
		is.Equal(status, http.StatusNotFound)
		status, _ = put("apiwriter", "free", map[string]any{})
		is.Equal(status, http.StatusUnprocessableEntity)
		ok, resp, err := writer.UpdateRepoBranchRef("apiowner", "code", "free", gitea.UpdateRepoBranchRefOption{NewCommitID: next})
		is.NoErr(err)
		is.True(ok)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		status, _ = put("apiowner", "release", map[string]any{"new_commit_id": base, "force": true})
		is.Equal(status, http.StatusForbidden) // force push is off on rel*
	})
	t.Run("rename a protected branch", func(t *testing.T) {
		is := is.New(t)
		rename := func(who, from, to string) (int, string) {
			r := srv.Do("PATCH", "/repos/apiowner/code/branches/"+from, map[string]any{"name": to},
				tokenHeader(srv, who, "write:repository")...)
			return r.Status, r.Message()
		}
		_, _, err := owner.CreateBranch("apiowner", "code", gitea.CreateBranchOption{BranchName: "stable", OldBranchName: "main"})
		is.NoErr(err)
		protectBranch(t, srv, "apiowner", "code", gitea.CreateBranchProtectionOption{RuleName: "stable"})
		status, msg := rename("apiwriter", "stable", "steady")
		is.Equal(status, http.StatusForbidden)
		is.Equal(msg, "User must be a repo or site admin to rename default or protected branches.")
		status, msg = rename("apiowner", "release", "renamed")
		is.Equal(status, http.StatusForbidden) // rel* is a glob: it cannot follow
		is.Equal(msg, "Branch is protected by glob-based protection rules.")
		is.True(ref("release") != "")

		// An exact rule follows its branch to the new name.
		status, _ = rename("apiowner", "stable", "steady")
		is.Equal(status, http.StatusNoContent)
		b, _, err := owner.GetRepoBranch("apiowner", "code", "steady")
		is.NoErr(err)
		is.True(b.Protected)
		is.Equal(b.EffectiveBranchProtectionName, "steady")
		_, resp, _ := owner.GetBranchProtection("apiowner", "code", "stable")
		is.Equal(resp.StatusCode, http.StatusNotFound)
		got, _, err := owner.GetBranchProtection("apiowner", "code", "steady")
		is.NoErr(err)
		is.Equal(got.RuleName, "steady")
	})
}

// TestBranchProtectionTeamAllowlist lets a team on the push allowlist push
// to an organisation's protected branch, and refuses another writer team.
func TestBranchProtectionTeamAllowlist(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	socialAccounts(t, srv, "tmowner", "tmdev", "tmother")
	owner := userClient(srv, "tmowner")
	_, _, err := owner.CreateOrg(gitea.CreateOrgOption{Name: "tmorg", Visibility: gitea.VisibleTypePublic})
	is.NoErr(err)
	_, _, err = owner.CreateOrgRepo("tmorg", gitea.CreateRepoOption{Name: "code", AutoInit: true})
	is.NoErr(err)
	for team, member := range map[string]string{"devs": "tmdev", "others": "tmother"} {
		tm, _, err := owner.CreateTeam("tmorg", gitea.CreateTeamOption{Name: team, Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitPulls}})
		is.NoErr(err)
		_, err = owner.AddTeamMember(tm.ID, member)
		is.NoErr(err)
		_, err = owner.AddTeamRepository(tm.ID, "tmorg", "code")
		is.NoErr(err)
	}
	bp, _, err := owner.CreateBranchProtection("tmorg", "code", gitea.CreateBranchProtectionOption{RuleName: "main",
		EnablePush: true, EnablePushWhitelist: true, PushWhitelistTeams: []string{"devs"}})
	is.NoErr(err)
	is.Equal(bp.PushWhitelistTeams, []string{"devs"})
	_, resp, _ := owner.CreateBranchProtection("tmorg", "code", gitea.CreateBranchProtectionOption{RuleName: "x",
		PushWhitelistTeams: []string{"ghosts"}})
	is.Equal(resp.StatusCode, http.StatusUnprocessableEntity)

	other := httpGitClone(t, httpGitURL(srv, "tmorg", "code", "tmother", userPassword))
	before := httpGitRef(t, srv, "tmorg", "code", "refs/heads/main")
	httpGitCommit(t, other, "o.txt", "o\n", "o")
	out := httpGitFails(t, other, "push", "origin", "main")
	assertRemoteRefusal(t, out, "Not allowed to push to protected branch main")
	is.Equal(httpGitRef(t, srv, "tmorg", "code", "refs/heads/main"), before)

	dev := httpGitClone(t, httpGitURL(srv, "tmorg", "code", "tmdev", userPassword))
	id := httpGitCommit(t, dev, "d.txt", "d\n", "d")
	httpGitOK(t, dev, "push", "-q", "origin", "main")
	is.Equal(httpGitRef(t, srv, "tmorg", "code", "refs/heads/main"), id)
}
