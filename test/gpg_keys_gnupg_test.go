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

// gnupg runs gpg in its own home directory, without a passphrase.
type gnupg struct {
	t    *testing.T
	home string
}

// newGnuPG makes a GnuPG home (under /tmp: the agent's socket path must be
// short) and stops its agent at the end; the test is skipped without gpg.
func newGnuPG(t *testing.T) *gnupg {
	t.Helper()
	if _, err := exec.LookPath("gpg"); err != nil {
		t.Skip("gpg is not installed")
	}
	home, err := os.MkdirTemp("", "gpg")
	if err != nil {
		t.Fatal(err)
	}
	g := &gnupg{t: t, home: home}
	t.Cleanup(func() {
		cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
		cmd.Env = append(os.Environ(), "GNUPGHOME="+home)
		_ = cmd.Run()
		_ = os.RemoveAll(home)
	})
	return g
}

func (g *gnupg) env() []string { return append(os.Environ(), "GNUPGHOME="+g.home) }

// run runs gpg with stdin and returns its standard output.
func (g *gnupg) run(stdin string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("gpg", append([]string{"--batch", "--pinentry-mode", "loopback", "--passphrase", ""}, args...)...)
	cmd.Env = g.env()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		g.t.Fatalf("gpg %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// fingerprint is the fingerprint of the first key of the keyring.
func (g *gnupg) fingerprint() string {
	g.t.Helper()
	for _, line := range strings.Split(g.run("", "--list-keys", "--with-colons"), "\n") {
		if f := strings.Split(line, ":"); f[0] == "fpr" {
			return f[9]
		}
	}
	g.t.Fatal("gpg made no key")
	return ""
}

// TestGPGKeysFromGnuPG adds a key GnuPG made (a certifying primary key
// with a signing subkey, as many people keep them), verifies it with a
// signature gpg made over the token, and checks that a commit git signed
// with it through gpg is verified, on both backends.
func TestGPGKeysFromGnuPG(t *testing.T) {
	t.Parallel()
	backends(t, testGPGKeysFromGnuPG)
}

func testGPGKeysFromGnuPG(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	g := newGnuPG(t)
	g.run("", "--quick-gen-key", "Alice <alice@example.com>", "ed25519", "cert", "never")
	fpr := g.fingerprint()
	g.run("", "--quick-add-key", fpr, "ed25519", "sign", "never")
	g.run("", "--quick-add-key", fpr, "cv25519", "encr", "never")
	armored := g.run("", "--armor", "--export", fpr)

	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	k, resp, err := alice.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: armored})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	is.Equal(k.KeyID, fpr[len(fpr)-16:])
	is.True(k.CanCertify) // can_sign says what the algorithm can do, as in Gitea
	is.Equal(len(k.SubsKey), 2)
	is.True(k.SubsKey[0].CanSign || k.SubsKey[1].CanSign)
	is.Equal(len(k.Emails), 1)
	is.True(k.Emails[0].Verified)

	// gpg signs the token with the signing subkey; its line end is fine.
	token := gpgToken(t, alice)
	sig := g.run(token+"\n", "--armor", "--detach-sign", "--local-user", fpr)
	got, resp, err := alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: k.KeyID, Signature: sig})
	assertSDKStatus(t, resp, err, http.StatusOK)
	is.True(got.Verified)

	// git signs a commit through gpg; the server verifies it.
	createRepo(t, alice, gitea.CreateRepoOption{Name: "signed", AutoInit: true, Readme: "Default"})
	dir := cloneRepo(t, srv, "alice", "signed")
	if err := os.WriteFile(filepath.Join(dir, "signed.txt"), []byte("signed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		return gitRunWith(t, dir, append([]string{"GNUPGHOME=" + g.home}, aliceGitEnv...), args...)
	}
	git("add", "signed.txt")
	git("-c", "gpg.program=gpg", "-c", "user.signingkey="+fpr, "commit", "-q", "-S", "-m", "signed by gpg")
	git("push", "-q", "origin", "HEAD")
	sha := strings.TrimSpace(git("rev-parse", "HEAD"))

	c, _, err := alice.GetSingleCommit("alice", "signed", sha)
	is.NoErr(err)
	v := c.RepoCommit.Verification
	is.True(v.Verified)
	is.Equal(v.Reason, "alice / "+k.KeyID)

	// The branch's head commit says the same, alone and in the list.
	b, _, err := alice.GetRepoBranch("alice", "signed", "main")
	is.NoErr(err)
	is.Equal(b.Commit.ID, sha)
	is.True(b.Commit.Verification.Verified)
	is.Equal(b.Commit.Verification.Reason, "alice / "+k.KeyID)
	branches, _, err := alice.ListRepoBranches("alice", "signed", gitea.ListRepoBranchesOptions{})
	is.NoErr(err)
	is.Equal(len(branches), 1)
	is.True(branches[0].Commit.Verification.Verified)

	// An unsigned head is shown as such.
	git("commit", "-q", "--allow-empty", "-m", "unsigned")
	git("push", "-q", "origin", "HEAD")
	b, _, err = alice.GetRepoBranch("alice", "signed", "main")
	is.NoErr(err)
	is.True(!b.Commit.Verification.Verified)
	is.Equal(b.Commit.Verification.Reason, "gpg.error.not_signed_commit")
}
