package security

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/depothq/depot/ports"
)

var _ ports.OAuth2Signer = (*OAuth2Signer)(nil)

// oauth2KeyBits is the size of the RSA key that signs the provider's tokens.
const oauth2KeyBits = 2048

// OAuth2Signer implements ports.OAuth2Signer with RS256 (Gitea's default
// algorithm) over golang-jwt, with a key kept in the data directory. The key
// is read or generated on first use, so a server that never acts as a
// provider spends no time making an RSA key.
type OAuth2Signer struct {
	path string
	once sync.Once
	err  error
	key  *rsa.PrivateKey
	kid  string
	// verified keeps the claims of tokens whose signature was checked
	// (verifiedTokens), so a client that sends its token again costs a hash,
	// not an RSA verification.
	verified verifiedTokens
}

// maxVerifiedTokens bounds the verified-token memo; past it, it starts over.
const maxVerifiedTokens = 10000

// verifiedTokens maps the SHA-256 of a token's whole text to the claims its
// verification gave. The signing key never changes while the process runs,
// so verifying the same text again would give the same claims: only the
// expiry depends on the time, and it is checked on every use. A token is
// kept only after its signature, algorithm and expiry passed.
type verifiedTokens struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]ports.OAuth2TokenClaims
}

func (v *verifiedTokens) get(sum [sha256.Size]byte, now time.Time) (ports.OAuth2TokenClaims, bool) {
	v.mu.Lock()
	c, ok := v.entries[sum]
	v.mu.Unlock()
	if !ok || !now.Before(c.ExpiresAt) {
		return ports.OAuth2TokenClaims{}, false
	}
	return c, true
}

func (v *verifiedTokens) put(sum [sha256.Size]byte, c ports.OAuth2TokenClaims) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.entries == nil || len(v.entries) >= maxVerifiedTokens {
		v.entries = make(map[[sha256.Size]byte]ports.OAuth2TokenClaims)
	}
	v.entries[sum] = c
}

// OpenOAuth2Signer returns a signer whose key lives at path, read (or
// generated) when first needed.
func OpenOAuth2Signer(path string) *OAuth2Signer { return &OAuth2Signer{path: path} }

// ready loads the key once.
func (s *OAuth2Signer) ready() error {
	s.once.Do(func() {
		if s.key != nil {
			return
		}
		loaded, err := LoadOrCreateOAuth2Signer(s.path)
		if err != nil {
			s.err = err
			return
		}
		s.key, s.kid = loaded.key, loaded.kid
	})
	return s.err
}

// oauth2Claims are Gitea's token claims: the grant, the token kind (0 access,
// 1 refresh) and, for refresh tokens, the grant's counter.
type oauth2Claims struct {
	GrantID int64 `json:"gnt"`
	Kind    int   `json:"tt"`
	Counter int64 `json:"cnt,omitempty"`
	jwt.RegisteredClaims
}

// LoadOrCreateOAuth2Signer reads the PEM private key at path, generating it on
// first start. Like the site key it is linked into place, so processes
// starting together end up with one key.
func LoadOrCreateOAuth2Signer(path string) (*OAuth2Signer, error) {
	key, err := readOAuth2Key(path)
	if errors.Is(err, os.ErrNotExist) {
		key, err = createOAuth2Key(path)
	}
	if err != nil {
		return nil, err
	}
	return NewOAuth2Signer(key)
}

// NewOAuth2Signer builds a signer over key; its key id is a hash of the
// public key, so JWKS consumers see a new id when the key changes.
func NewOAuth2Signer(key *rsa.PrivateKey) (*OAuth2Signer, error) {
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(der)
	return &OAuth2Signer{key: key, kid: base64.RawURLEncoding.EncodeToString(sum[:])}, nil
}

func readOAuth2Key(path string) (*rsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("security: %s holds no PEM block", path)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("security: reading %s: %w", path, err)
	}
	key, ok := parsed.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("security: %s is not an RSA key", path)
	}
	return key, nil
}

func createOAuth2Key(path string) (*rsa.PrivateKey, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key, err := rsa.GenerateKey(rand.Reader, oauth2KeyBits)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".oauth2-key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	werr := pem.Encode(tmp, &pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	return readOAuth2Key(path)
}

// Algorithm names the signing algorithm.
func (s *OAuth2Signer) Algorithm() string { return jwt.SigningMethodRS256.Alg() }

func (s *OAuth2Signer) sign(claims jwt.Claims) (string, error) {
	if err := s.ready(); err != nil {
		return "", err
	}
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	t.Header["kid"] = s.kid
	return t.SignedString(s.key)
}

// SignToken makes an access or refresh token.
func (s *OAuth2Signer) SignToken(c ports.OAuth2TokenClaims) (string, error) {
	kind := 0
	if c.Refresh {
		kind = 1
	}
	return s.sign(oauth2Claims{GrantID: c.GrantID, Kind: kind, Counter: c.Counter,
		RegisteredClaims: jwt.RegisteredClaims{
			ExpiresAt: jwt.NewNumericDate(c.ExpiresAt), IssuedAt: jwt.NewNumericDate(c.IssuedAt),
		}})
}

// ParseToken checks the signature with this key only and RS256 only (so
// "alg: none" and HMAC with the public key are refused), and the expiry.
func (s *OAuth2Signer) ParseToken(raw string, now time.Time) (ports.OAuth2TokenClaims, error) {
	if err := s.ready(); err != nil {
		return ports.OAuth2TokenClaims{}, err
	}
	sum := sha256.Sum256([]byte(raw))
	if c, ok := s.verified.get(sum, now); ok {
		return c, nil
	}
	var c oauth2Claims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return &s.key.PublicKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg()}),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return now }))
	if err != nil {
		return ports.OAuth2TokenClaims{}, err
	}
	if c.Kind != 0 && c.Kind != 1 {
		return ports.OAuth2TokenClaims{}, errors.New("security: unknown token kind")
	}
	out := ports.OAuth2TokenClaims{GrantID: c.GrantID, Refresh: c.Kind == 1, Counter: c.Counter}
	if c.ExpiresAt != nil {
		out.ExpiresAt = c.ExpiresAt.Time
	}
	if c.IssuedAt != nil {
		out.IssuedAt = c.IssuedAt.Time
	}
	if !out.ExpiresAt.IsZero() {
		s.verified.put(sum, out)
	}
	return out, nil
}

// SignIDToken signs an OpenID Connect ID token.
func (s *OAuth2Signer) SignIDToken(claims map[string]any) (string, error) {
	return s.sign(jwt.MapClaims(claims))
}

// JWKS returns the public key as a JSON Web Key Set.
func (s *OAuth2Signer) JWKS() map[string]any {
	if err := s.ready(); err != nil {
		return map[string]any{"keys": []any{}}
	}
	pub := s.key.PublicKey
	return map[string]any{"keys": []map[string]any{{
		"kty": "RSA", "alg": s.Algorithm(), "use": "sig", "kid": s.kid,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}}
}
