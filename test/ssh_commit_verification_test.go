package test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// sshSigningKey makes an ed25519 key with ssh-keygen and returns its
// private key's path and its public key line.
func sshSigningKey(t *testing.T, name string) (string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// sshSignedGit runs git in dir as committer email, signing commits with
// the SSH key at key (git's gpg.format=ssh) when key is not empty.
func sshSignedGit(t *testing.T, dir, email, key string, args ...string) string {
	t.Helper()
	cfg := []string{"-c", "commit.gpgsign=false"}
	if key != "" {
		cfg = []string{"-c", "gpg.format=ssh", "-c", "user.signingkey=" + key, "-c", "commit.gpgsign=true"}
	}
	cmd := exec.Command("git", append(cfg, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL="+email, "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL="+email)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestSSHCommitVerification pushes commits signed by git with SSH keys
// (gpg.format=ssh) and reads their verification: one made with a key the
// committer registered is verified, naming the key's fingerprint, as
// Gitea's; one made with a key nobody registered, one whose committer
// address the signer does not own, and an unsigned one are not; deleting
// the key takes the verification back. On both backends.
func TestSSHCommitVerification(t *testing.T) {
	t.Parallel()
	backends(t, sshCommitVerification)
}

func sshCommitVerification(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "signed", AutoInit: true, Readme: "Default"})
	mine, minePub := sshSigningKey(t, "mine")
	stranger, _ := sshSigningKey(t, "stranger")
	key, resp, err := alice.CreatePublicKey(gitea.CreateKeyOption{Title: "laptop", Key: minePub})
	assertSDKStatus(t, resp, err, http.StatusCreated)

	work := httpGitClone(t, httpGitURL(srv, "alice", "signed", "alice", userPassword))
	commit := func(email, signingKey, msg string) string {
		sshSignedGit(t, work, email, signingKey, "commit", "-q", "--allow-empty", "-m", msg)
		return sshSignedGit(t, work, email, "", "rev-parse", "HEAD")
	}
	bySigner := commit("alice@example.com", mine, "signed with alice's key")
	byStranger := commit("alice@example.com", stranger, "signed with a key nobody registered")
	otherAddr := commit("alice@elsewhere.test", mine, "an address alice does not own")
	unsigned := commit("alice@example.com", "", "not signed")
	sshSignedGit(t, work, "alice@example.com", "", "push", "-q", "origin", "HEAD:main")

	for _, tc := range []struct {
		sha, reason string
		verified    bool
	}{
		{bySigner, "alice / " + key.Fingerprint, true},
		{byStranger, "gpg.error.no_gpg_keys_found", false},
		{otherAddr, "gpg.error.no_committer_account", false},
		{unsigned, "gpg.error.not_signed_commit", false},
	} {
		c, _, err := alice.GetSingleCommit("alice", "signed", tc.sha)
		is.NoErr(err)
		v := c.RepoCommit.Verification
		is.True(v != nil)
		is.Equal(v.Reason, tc.reason)
		is.Equal(v.Verified, tc.verified)
		if tc.sha != unsigned {
			is.True(strings.HasPrefix(v.Signature, "-----BEGIN SSH SIGNATURE-----"))
		}
	}

	resp, err = alice.DeletePublicKey(key.ID)
	assertSDKStatus(t, resp, err, http.StatusNoContent)
	c, _, err := alice.GetSingleCommit("alice", "signed", bySigner)
	is.NoErr(err)
	is.True(!c.RepoCommit.Verification.Verified)
	is.Equal(c.RepoCommit.Verification.Reason, "gpg.error.no_gpg_keys_found")
}
