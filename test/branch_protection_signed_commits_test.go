package test

import (
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// TestBranchProtectionSignedCommits sets "require signed commits" on main
// with the SDK and pushes with the git CLI: an unsigned commit is refused
// with Gitea's message and main is left as it was; a commit signed with an
// SSH key the committer registered is accepted; a new protected branch
// bringing an unsigned commit is refused too. On both backends.
func TestBranchProtectionSignedCommits(t *testing.T) {
	t.Parallel()
	backends(t, branchProtectionSignedCommits)
}

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

// TestBranchProtectionSignedCommitsAPIWrites writes a file through the API
// into a branch requiring signed commits: without Depot's signing key the
// write is refused (403, Gitea's "user cannot commit") and main is left
// as it was; with the key the commit is signed and taken, and a commit
// Depot signed on another branch counts as verified when pushed to main
// with git. On both backends.
func TestBranchProtectionSignedCommitsAPIWrites(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		for _, signing := range []bool{false, true} {
			o := opts
			if signing {
				o = append(append([]testserver.Option{}, opts...), testserver.WithSettings(func(s *site.Settings) {
					s.Signing = site.CommitSigning{Key: site.SigningDefault, Name: "Depot Signer", Email: "signer@depot.test"}
				}))
			}
			signedCommitsAPIWrite(t, signing, o...)
		}
	})
}

func signedCommitsAPIWrite(t *testing.T, signing bool, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "signed", AutoInit: true, Readme: "Default"})
	_, resp, err := alice.CreateBranchProtection("alice", "signed", gitea.CreateBranchProtectionOption{
		RuleName: "main", EnablePush: true, RequireSignedCommits: true})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	b, _, err := alice.GetRepoBranch("alice", "signed", "main")
	is.NoErr(err)
	before := b.Commit.ID

	_, resp, err = alice.CreateFile("alice", "signed", "a.txt", gitea.CreateFileOptions{
		FileOptions: gitea.FileOptions{BranchName: "main", Message: "add a"}, Content: "YQ=="})
	if !signing {
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		b, _, err = alice.GetRepoBranch("alice", "signed", "main")
		is.NoErr(err)
		is.Equal(b.Commit.ID, before)

		// A merge Depot would not sign is refused too (405, Gitea's
		// message), and main stays where it was.
		_, resp, err = alice.CreateFile("alice", "signed", "c.txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{BranchName: "main", NewBranchName: "topic", Message: "add c"}, Content: "Yw=="})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		p, _, err := alice.CreatePullRequest("alice", "signed", gitea.CreatePullRequestOption{Head: "topic", Base: "main", Title: "c"})
		is.NoErr(err)
		waitPullChecked(t, srv, alice, "alice", "signed", p.Index)
		r := srv.Do("POST", "/repos/alice/signed/pulls/"+strconv.FormatInt(p.Index, 10)+"/merge",
			[]byte(`{"Do":"merge"}`), basicAs("alice")...)
		is.Equal(r.Status, http.StatusMethodNotAllowed)
		is.True(strings.Contains(string(r.Body), "Protected branch main requires signed commits but this merge would not be signed"))
		b, _, err = alice.GetRepoBranch("alice", "signed", "main")
		is.NoErr(err)
		is.Equal(b.Commit.ID, before)
		return
	}
	assertSDKStatus(t, resp, err, http.StatusCreated)
	b, _, err = alice.GetRepoBranch("alice", "signed", "main")
	is.NoErr(err)
	is.True(b.Commit.ID != before)

	_, resp, err = alice.CreateFile("alice", "signed", "b.txt", gitea.CreateFileOptions{
		FileOptions: gitea.FileOptions{BranchName: "main", NewBranchName: "feature", Message: "add b"}, Content: "Yg=="})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	f, _, err := alice.GetRepoBranch("alice", "signed", "feature")
	is.NoErr(err)
	work := httpGitClone(t, httpGitURL(srv, "alice", "signed", "alice", userPassword))
	sshSignedGit(t, work, "alice@example.com", "", "push", "-q", "origin", "origin/feature:main")
	b, _, err = alice.GetRepoBranch("alice", "signed", "main")
	is.NoErr(err)
	is.Equal(b.Commit.ID, f.Commit.ID)
}
