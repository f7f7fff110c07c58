package security

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// sshCertificateHeader carries the SSH certificate a request was signed
// with (base64 of its wire form), as Gitea's SDK sends it.
const sshCertificateHeader = "X-Ssh-Certificate"

// SSHRequestSigners authenticates API requests signed (HTTP signatures)
// with an SSH key, as Gitea's httpsign method does: either a public key an
// account registered, named by its SHA256 fingerprint in keyId, or a user
// certificate sent in X-Ssh-Certificate, signed by a certificate authority
// the administrator trusts, whose principal is the account's name.
type SSHRequestSigners struct {
	keys    ports.PublicKeyStore
	users   ports.UserStore
	cas     []ssh.PublicKey
	checker *SignatureChecker
	clock   ports.Clock
}

// NewSSHRequestSigners builds the method over the stores; trustedCAs are
// the trusted certificate authorities' public keys in authorized_keys form.
func NewSSHRequestSigners(stores ports.Stores, trustedCAs []string, checker *SignatureChecker, clock ports.Clock) (*SSHRequestSigners, error) {
	s := &SSHRequestSigners{keys: stores.PublicKeys, users: stores.Users, checker: checker, clock: clock}
	for _, line := range trustedCAs {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("security: trusted SSH user CA key %q: %w", line, err)
		}
		s.cas = append(s.cas, k)
	}
	return s, nil
}

// Applies reports whether r carries a signature meant for this method: one
// whose keyId is an SSH fingerprint, or one with a certificate. Other
// signatures (an ActivityPub actor's, keyed by URL) are left to the routes
// that check them.
func (s *SSHRequestSigners) Applies(r *http.Request) bool {
	sig, ok, err := SignatureOf(r.Header)
	if !ok {
		return false
	}
	if err != nil {
		// Malformed: ours to refuse unless it plainly names a URL.
		return !strings.Contains(r.Header.Get("Signature"), "://")
	}
	return strings.HasPrefix(sig.KeyID, "SHA256:") || r.Header.Get(sshCertificateHeader) != ""
}

// SignerID checks r's signature and returns the id of the account that
// made it. A refusal is errs.ErrUnauthenticated.
func (s *SSHRequestSigners) SignerID(ctx context.Context, r *http.Request) (int64, error) {
	sig, ok, err := SignatureOf(r.Header)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errNoSignature
	}
	if h := r.Header.Get(sshCertificateHeader); h != "" {
		return s.byCertificate(ctx, r, sig, h)
	}
	k, err := s.keys.GetByFingerprint(ctx, sig.KeyID)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return 0, errs.Unauthenticated("request signature verification failed")
		}
		return 0, err
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(k.Content))
	if err != nil {
		return 0, errs.Unauthenticated("request signature verification failed")
	}
	if err := s.verify(r, sig, pub); err != nil {
		return 0, err
	}
	return k.OwnerID, nil
}

// byCertificate checks the certificate (a user certificate of a trusted
// authority, valid now, for a principal naming an account) and the
// signature made with its key.
func (s *SSHRequestSigners) byCertificate(ctx context.Context, r *http.Request, sig Signature, header string) (int64, error) {
	refused := errs.Unauthenticated("request signature verification failed")
	if !sig.Signs(strings.ToLower(sshCertificateHeader)) {
		return 0, errs.Unauthenticated("request signature must cover the X-Ssh-Certificate header")
	}
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(header, "="))
	if err != nil {
		return 0, refused
	}
	pub, err := ssh.ParsePublicKey(raw)
	if err != nil {
		return 0, refused
	}
	cert, ok := pub.(*ssh.Certificate)
	if !ok || cert.CertType != ssh.UserCert || !s.trusted(cert.SignatureKey) {
		return 0, refused
	}
	checker := ssh.CertChecker{Clock: s.clock.Now}
	for _, principal := range cert.ValidPrincipals {
		if checker.CheckCert(principal, cert) != nil {
			continue
		}
		u, err := s.users.GetByName(ctx, principal)
		if err != nil {
			if errors.Is(err, errs.ErrNotFound) {
				continue
			}
			return 0, err
		}
		if u.Kind != user.KindIndividual {
			continue
		}
		if err := s.verify(r, sig, cert.Key); err != nil {
			return 0, err
		}
		return u.ID, nil
	}
	return 0, refused
}

func (s *SSHRequestSigners) trusted(k ssh.PublicKey) bool {
	for _, ca := range s.cas {
		if bytes.Equal(ca.Marshal(), k.Marshal()) {
			return true
		}
	}
	return false
}

func (s *SSHRequestSigners) verify(r *http.Request, sig Signature, pub ssh.PublicKey) error {
	cpk, ok := pub.(ssh.CryptoPublicKey)
	if !ok {
		return errs.Unauthenticated("request signature verification failed")
	}
	return s.checker.Verify(r, sig, nil, cpk.CryptoPublicKey())
}
