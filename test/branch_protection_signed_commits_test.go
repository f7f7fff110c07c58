package test

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestBranchProtectionSignedCommits sets "require signed commits" on main
// with the SDK and pushes with the git CLI: an unsigned commit is refused
// with Gitea's message and main is left as it was; a commit signed with an
// SSH key the committer registered is accepted; a new protected branch
// bringing an unsigned commit is refused too. On both backends.
func TestBranchProtectionSignedCommits(t *testing.T) { backends(t, branchProtectionSignedCommits) }

func branchProtectionSignedCommits(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "signed", AutoInit: true, Readme: "Default"})
	mine, minePub := sshSigningKey(t, "mine")
	_, resp, err := alice.CreatePublicKey(gitea.CreateKeyOption{Title: "laptop", Key: minePub})
	assertSDKStatus(t, resp, err, http.StatusCreated)

	bp, resp, err := alice.CreateBranchProtection("alice", "signed", gitea.CreateBranchProtectionOption{
		RuleName: "main", EnablePush: true})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	is.True(!bp.RequireSignedCommits)
	yes := true
	bp, resp, err = alice.EditBranchProtection("alice", "signed", "main", gitea.EditBranchProtectionOption{
		RequireSignedCommits: &yes})
	assertSDKStatus(t, resp, err, http.StatusOK)
	is.True(bp.RequireSignedCommits)
	_, resp, err = alice.CreateBranchProtection("alice", "signed", gitea.CreateBranchProtectionOption{
		RuleName: "release/*", EnablePush: true, RequireSignedCommits: true})
	assertSDKStatus(t, resp, err, http.StatusCreated)

	head := func(branch string) string {
		b, _, err := alice.GetRepoBranch("alice", "signed", branch)
		is.NoErr(err)
		return b.Commit.ID
	}
	before := head("main")
	work := httpGitClone(t, httpGitURL(srv, "alice", "signed", "alice", userPassword))

	unsigned := func() string {
		sshSignedGit(t, work, "alice@example.com", "", "commit", "-q", "--allow-empty", "-m", "not signed")
		return sshSignedGit(t, work, "alice@example.com", "", "rev-parse", "HEAD")
	}()
	out := refusedGitPush(t, work, "HEAD:main")
	is.True(strings.Contains(out, "branch main is protected from unverified commit "+unsigned))
	is.Equal(head("main"), before)

	out = refusedGitPush(t, work, "HEAD:release/1")
	is.True(strings.Contains(out, "branch release/1 is protected from unverified commit "+unsigned))
	_, resp, _ = alice.GetRepoBranch("alice", "signed", "release/1")
	is.Equal(resp.StatusCode, http.StatusNotFound)

	sshSignedGit(t, work, "alice@example.com", "", "reset", "-q", "--hard", before)
	sshSignedGit(t, work, "alice@example.com", mine, "commit", "-q", "--allow-empty", "-m", "signed")
	signed := sshSignedGit(t, work, "alice@example.com", "", "rev-parse", "HEAD")
	sshSignedGit(t, work, "alice@example.com", "", "push", "-q", "origin", "HEAD:main")
	is.Equal(head("main"), signed)
	// A new protected branch at an already pushed commit brings nothing new.
	sshSignedGit(t, work, "alice@example.com", "", "push", "-q", "origin", "HEAD:release/2")
	is.Equal(head("release/2"), signed)
}

// refusedGitPush pushes refspec from dir to origin, expects git to fail,
// and returns what it printed.
func refusedGitPush(t *testing.T, dir, refspec string) string {
	t.Helper()
	cmd := exec.Command("git", "push", "origin", refspec)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("git push %s succeeded: %s", refspec, out)
	}
	return string(out)
}
