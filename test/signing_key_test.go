package test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// gpgHome makes a GnuPG home that trusts key (an armoured public key).
func gpgHome(t *testing.T, key []byte) string {
	t.Helper()
	home, err := os.MkdirTemp("", "gnupg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = exec.Command("gpgconf", "--homedir", home, "--kill", "all").Run()
		_ = os.RemoveAll(home)
	})
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("gpg", "--batch", "--homedir", home, "--import")
	cmd.Stdin = strings.NewReader(string(key))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gpg --import: %v\n%s", err, out)
	}
	return home
}

// verifyCommit runs git verify-commit on rev of a bare repository with the
// keys of home; it returns git's report and whether the signature is good.
func verifyCommit(t *testing.T, dir, home, rev string) (string, bool) {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "verify-commit", "-v", rev)
	cmd.Env = append(os.Environ(), "GNUPGHOME="+home)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// TestSigningKeySignsDepotsOwnCommits serves the key and checks with git
// and gpg that the commits Depot writes — a repository's first commit, a
// contents API write, a merge and a squash — carry good signatures by it.
func TestSigningKeySignsDepotsOwnCommits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) {
		s.Signing = site.CommitSigning{Key: site.SigningDefault, Name: "Depot Signer", Email: "signer@depot.test"}
	}))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)

	r := srv.Do("GET", "/signing-key.gpg", nil)
	is.Equal(r.Status, http.StatusOK)
	key := r.Body
	is.True(strings.HasPrefix(string(key), "-----BEGIN PGP PUBLIC KEY BLOCK-----"))
	home := gpgHome(t, key)

	createRepo(t, alice, gitea.CreateRepoOption{Name: "app", AutoInit: true, Readme: "Default"})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
	// The repository twin answers the same key to whoever sees the repository.
	r = srv.Do("GET", "/repos/alice/app/signing-key.gpg", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(string(r.Body), string(key))
	is.Equal(srv.Do("GET", "/repos/alice/secret/signing-key.gpg", nil, basicAs("bob")...).Status, http.StatusNotFound)

	dir := repoDir(srv, "alice", "app")
	out, ok := verifyCommit(t, dir, home, "main")
	is.True(ok) // the first commit
	is.True(strings.Contains(out, `Good signature from "Depot Signer (Depot signing key) <signer@depot.test>"`))

	// A contents API write on a new branch, then a pull request merged two ways.
	// The API shows Depot's signatures as verified by the signing identity.
	depotVerified := func(v *gitea.PayloadCommitVerification) {
		t.Helper()
		is.True(v != nil && v.Verified)
		is.True(strings.HasPrefix(v.Reason, "Depot Signer / "))
		is.True(strings.Contains(v.Signature, "BEGIN PGP SIGNATURE"))
	}
	for _, b := range []string{"feature", "other"} {
		res, _, err := alice.CreateFile("alice", "app", b+".txt", gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{BranchName: "main", NewBranchName: b, Message: "add " + b},
			Content:     base64.StdEncoding.EncodeToString([]byte(b + "\n"))})
		is.NoErr(err)
		_, ok = verifyCommit(t, dir, home, b)
		is.True(ok) // the contents API commit
		depotVerified(res.Verification)
		branch, _, err := alice.GetRepoBranch("alice", "app", b)
		is.NoErr(err)
		depotVerified(branch.Commit.Verification)
	}
	// The signer (absent from the SDK's type) is the signing identity.
	var raw struct {
		Commit struct {
			Verification struct {
				Signer struct{ Name, Email, Username string }
			}
		}
	}
	r = srv.Do("GET", "/repos/alice/app/branches/feature", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	is.NoErr(json.Unmarshal(r.Body, &raw))
	is.Equal(raw.Commit.Verification.Signer, struct{ Name, Email, Username string }{"Depot Signer", "signer@depot.test", "Depot Signer"})
	for k, style := range []gitea.MergeStyle{gitea.MergeStyleMerge, gitea.MergeStyleSquash} {
		head := []string{"feature", "other"}[k]
		p, _, err := alice.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: head, Base: "main", Title: "Take " + head})
		is.NoErr(err)
		waitPullChecked(t, srv, alice, "alice", "app", p.Index)
		merged, _, err := alice.MergePullRequest("alice", "app", p.Index, gitea.MergePullRequestOption{Style: style})
		is.NoErr(err)
		is.True(merged)
		out, ok = verifyCommit(t, dir, home, "main")
		is.True(ok) // the merge or squash commit
		is.True(strings.Contains(out, "Good signature"))
		c, _, err := alice.GetSingleCommit("alice", "app", "main")
		is.NoErr(err)
		depotVerified(c.RepoCommit.Verification)
	}

	// A key of someone else does not verify them.
	other := filepath.Join(t.TempDir(), "empty")
	is.NoErr(os.MkdirAll(other, 0o700))
	_, ok = verifyCommit(t, dir, other, "main")
	is.True(!ok)
}

// TestSigningKeyOffSignsNothing: without [repository.signing], both routes
// answer an empty 404 and Depot's commits carry no signature.
func TestSigningKeyOffSignsNothing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "app", AutoInit: true, Readme: "Default"})

	for _, path := range []string{"/signing-key.gpg", "/repos/alice/app/signing-key.gpg"} {
		r := srv.Do("GET", path, nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(len(r.Body), 0)
	}
	raw := gitRun(t, repoDir(srv, "alice", "app"), "cat-file", "commit", "main")
	is.True(!strings.Contains(raw, "gpgsig"))
}
