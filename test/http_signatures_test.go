package test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/42wim/httpsig"
	"github.com/matryer/is"
	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// sshKeyFile is an SSH key pair written where the Gitea SDK reads it.
type sshKeyFile struct {
	path   string
	signer ssh.Signer
	pub    ssh.PublicKey
}

func newSSHKeyFile(t *testing.T, dir, name string) sshKeyFile {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return sshKeyFile{path: path, signer: signer, pub: signer.PublicKey()}
}

// certify writes path-cert.pub: a user certificate for principal signed by ca.
func (k sshKeyFile) certify(t *testing.T, ca ssh.Signer, principal string) {
	t.Helper()
	cert := &ssh.Certificate{Key: k.pub, CertType: ssh.UserCert, KeyId: principal, ValidPrincipals: []string{principal},
		ValidAfter: uint64(time.Now().Add(-time.Hour).Unix()), ValidBefore: uint64(time.Now().Add(time.Hour).Unix())}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.path+"-cert.pub", ssh.MarshalAuthorizedKey(cert), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newCASigner(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// signedGet signs GET path as the SDK does (request target, created,
// expires) with signer under keyID.
func signedGet(t *testing.T, url string, signer ssh.Signer, keyID string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := httpsig.NewSSHSigner(signer, httpsig.DigestSha512, []string{httpsig.RequestTarget, "(created)", "(expires)"}, httpsig.Signature, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SignRequest(keyID, req, nil); err != nil {
		t.Fatal(err)
	}
	return req
}

func statusOf(t *testing.T, req *http.Request) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestHTTPSignatureAuth signs API requests with SSH keys, as Gitea's SDK
// does: with a key the account registered (keyId its SHA256 fingerprint)
// GET /user answers that account; another key, an unknown fingerprint or a
// replayed signature is 401. With an SSH certificate, one of a trusted
// authority naming the account is accepted, an untrusted one is 401.
func TestHTTPSignatureAuth(t *testing.T) {
	t.Parallel()
	trustedCA, untrustedCA := newCASigner(t), newCASigner(t)
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.SSHTrustedUserCAKeys = []string{string(ssh.MarshalAuthorizedKey(trustedCA.PublicKey()))}
		}))...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		sub := t.TempDir()
		key := newSSHKeyFile(t, sub, "id_alice")
		_, _, err := alice.CreatePublicKey(gitea.CreateKeyOption{Title: "laptop", Key: string(ssh.MarshalAuthorizedKey(key.pub))})
		is.NoErr(err)
		fp := ssh.FingerprintSHA256(key.pub)

		// The SDK's own signing.
		c := srv.Client(gitea.UseSSHPubkey(fp, key.path, ""))
		me, _, err := c.GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "alice")

		// Replay: the same signed request twice. (Ed25519 signatures are
		// deterministic: the query keeps this one apart from the SDK's
		// request made in the same second.)
		req := signedGet(t, srv.API+"/user?replay=1", key.signer, fp)
		replay := req.Clone(req.Context())
		is.Equal(statusOf(t, req), http.StatusOK)
		is.Equal(statusOf(t, replay), http.StatusUnauthorized)

		// Another key under alice's fingerprint, and an unknown fingerprint.
		other := newSSHKeyFile(t, sub, "id_other")
		is.Equal(statusOf(t, signedGet(t, srv.API+"/user", other.signer, fp)), http.StatusUnauthorized)
		is.Equal(statusOf(t, signedGet(t, srv.API+"/user", other.signer, ssh.FingerprintSHA256(other.pub))), http.StatusUnauthorized)

		// Certificates: a trusted authority's for alice, an untrusted one's.
		certKey := newSSHKeyFile(t, sub, "id_cert")
		certKey.certify(t, trustedCA, "alice")
		me, _, err = srv.Client(gitea.UseSSHCert("alice", certKey.path, "")).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "alice")
		rogue := newSSHKeyFile(t, sub, "id_rogue")
		rogue.certify(t, untrustedCA, "alice")
		_, resp, err := srv.Client(gitea.UseSSHCert("alice", rogue.path, "")).GetMyUserInfo()
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
		// A trusted certificate naming nobody.
		stranger := newSSHKeyFile(t, sub, "id_stranger")
		stranger.certify(t, trustedCA, "nobody")
		_, resp, err = srv.Client(gitea.UseSSHCert("nobody", stranger.path, "")).GetMyUserInfo()
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
	})
}
