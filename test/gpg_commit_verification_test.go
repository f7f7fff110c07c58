package test

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// gpgSignedCommit writes into the bare repository a commit on top of
// parent whose committer address is committerEmail, signed by signer, and
// returns its id. The signature covers the commit without its gpgsig
// header, as git signs it.
func gpgSignedCommit(t *testing.T, bare, parent, committerEmail, msg string, signer *openpgp.Entity) string {
	t.Helper()
	tree := strings.TrimSpace(commitsGitIn(t, bare, time.Now(), "rev-parse", parent+"^{tree}"))
	head := "tree " + tree + "\nparent " + parent + "\nauthor Alice <alice@example.com> 1709283600 +0000\n" +
		"committer Alice <" + committerEmail + "> 1709283600 +0000\n"
	body := "\n" + msg + "\n"
	sig := strings.TrimSpace(gpgSign(t, signer, head+body))
	raw := head + "gpgsig " + strings.ReplaceAll(sig, "\n", "\n ") + "\n" + body
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir = bare
	cmd.Stdin = strings.NewReader(raw)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestGPGKeysVerifyCommits covers the verification of signed commits
// against the committer's GPG keys, on both backends.
func TestGPGKeysVerifyCommits(t *testing.T) {
	t.Parallel()
	backends(t, testGPGKeysVerifyCommits)
}

func testGPGKeysVerifyCommits(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "signed", AutoInit: true, Readme: "Default"})
	bare := repoDir(srv, "alice", "signed")
	parent := strings.TrimSpace(commitsGitIn(t, bare, time.Now(), "rev-parse", "HEAD"))

	// One key names alice's address; another is proven by a signature
	// over the token and names none of hers; a third is nobody's.
	listed := gpgNew(t, 0, time.Time{}, "alice@example.com")
	proven := gpgNew(t, 0, time.Time{}, "alice@elsewhere.test")
	stranger := gpgNew(t, 0, time.Time{}, "alice@example.com")
	k1, resp, err := alice.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: gpgArmor(t, listed, false)})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	k2, resp, err := alice.CreateGPGKey(gitea.CreateGPGKeyOption{
		ArmoredKey: gpgArmor(t, proven, false), Signature: gpgSign(t, proven, gpgToken(t, alice)),
	})
	assertSDKStatus(t, resp, err, http.StatusCreated)

	byListed := gpgSignedCommit(t, bare, parent, "ALICE@example.com", "by the listed key", listed)
	byProven := gpgSignedCommit(t, bare, byListed, "alice@example.com", "by the proven key", proven)
	byStranger := gpgSignedCommit(t, bare, byProven, "alice@example.com", "by a key nobody registered", stranger)
	otherAddr := gpgSignedCommit(t, bare, byStranger, "alice@elsewhere.test", "an address alice does not own", proven)
	commitsGitIn(t, bare, time.Now(), "update-ref", "refs/heads/signed", otherAddr)

	for _, tc := range []struct {
		sha, reason string
		verified    bool
	}{
		{byListed, "alice / " + k1.KeyID, true},
		{byProven, "alice / " + k2.KeyID, true},
		{byStranger, "gpg.error.no_gpg_keys_found", false},
		{otherAddr, "gpg.error.no_committer_account", false},
	} {
		c, _, err := alice.GetSingleCommit("alice", "signed", tc.sha)
		is.NoErr(err)
		v := c.RepoCommit.Verification
		is.True(v != nil)
		is.Equal(v.Reason, tc.reason)
		is.Equal(v.Verified, tc.verified)
		is.True(strings.HasPrefix(v.Signature, "-----BEGIN PGP SIGNATURE-----"))
		is.True(strings.Contains(v.Payload, "committer Alice"))
		// The SDK has no signer; the raw answer names it as Gitea does.
		var raw struct {
			Commit struct {
				Verification struct {
					Signer *struct {
						Name, Email, Username string
					} `json:"signer"`
				} `json:"verification"`
			} `json:"commit"`
		}
		srv.Do("GET", "/repos/alice/signed/git/commits/"+tc.sha, nil, basicAs("alice")...).Decode(t, &raw)
		signer := raw.Commit.Verification.Signer
		if tc.verified {
			is.True(signer != nil)
			is.Equal(signer.Username, "alice")
			is.Equal(signer.Name, "alice")
			is.Equal(strings.ToLower(signer.Email), "alice@example.com")
		} else {
			is.True(signer == nil)
		}
	}

	// The listing says the same.
	list, _, err := alice.ListRepoCommits("alice", "signed", gitea.ListCommitOptions{SHA: "signed",
		ListOptions: gitea.ListOptions{PageSize: 4}, Verification: true})
	is.NoErr(err)
	is.Equal(len(list), 4)
	is.True(!list[0].RepoCommit.Verification.Verified)
	is.True(!list[1].RepoCommit.Verification.Verified)
	is.True(list[2].RepoCommit.Verification.Verified)
	is.True(list[3].RepoCommit.Verification.Verified)

	// An annotated tag answers, as Gitea's ToAnnotatedTag does, the
	// verification of the commit it names.
	commitsGitIn(t, bare, time.Now(), "tag", "-a", "-m", "listed", "v-listed", byListed)
	commitsGitIn(t, bare, time.Now(), "tag", "-a", "-m", "stranger", "v-stranger", byStranger)
	for _, tc := range []struct {
		tag, reason string
		verified    bool
	}{{"v-listed", "alice / " + k1.KeyID, true}, {"v-stranger", "gpg.error.no_gpg_keys_found", false}} {
		sha := strings.TrimSpace(commitsGitIn(t, bare, time.Now(), "rev-parse", "refs/tags/"+tc.tag))
		tag, _, err := alice.GetAnnotatedTag("alice", "signed", sha)
		is.NoErr(err)
		is.Equal(tag.Tag, tc.tag)
		is.True(tag.Verification != nil)
		is.Equal(tag.Verification.Verified, tc.verified)
		is.Equal(tag.Verification.Reason, tc.reason)
	}

	// Once the key is gone, its commits are no longer verified.
	resp, err = alice.DeleteGPGKey(k1.ID)
	assertSDKStatus(t, resp, err, http.StatusNoContent)
	c, _, err := alice.GetSingleCommit("alice", "signed", byListed)
	is.NoErr(err)
	is.Equal(c.RepoCommit.Verification.Reason, "gpg.error.no_gpg_keys_found")
	is.True(!c.RepoCommit.Verification.Verified)
}
