package security

import (
	"crypto/rand"
	"crypto/rsa"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/depothq/depot/ports"
)

func TestOAuth2SignerRoundTripAndRefusals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "oauth2", "jwt.pem")
	s, err := LoadOrCreateOAuth2Signer(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := LoadOrCreateOAuth2Signer(path)
	if err != nil || again.kid != s.kid {
		t.Fatalf("second load: %v, kid %s vs %s", err, again.kid, s.kid)
	}
	now := time.Now()
	raw, err := s.SignToken(ports.OAuth2TokenClaims{GrantID: 7, Refresh: true, Counter: 3, IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.ParseToken(raw, now)
	if err != nil || c.GrantID != 7 || !c.Refresh || c.Counter != 3 {
		t.Fatalf("parse: %+v %v", c, err)
	}
	// Parsed again, the token is answered from the memo of verified
	// tokens, with the same claims; a copy with its signature changed is
	// not, and is refused.
	if again, err := s.ParseToken(raw, now.Add(time.Minute)); err != nil || again != c {
		t.Fatalf("parse again: %+v %v", again, err)
	}
	// A character well inside the signature (the last one may carry only
	// padding bits, which decode the same).
	at := len(raw) - 10
	swap := byte('A')
	if raw[at] == 'A' {
		swap = 'B'
	}
	if _, err := s.ParseToken(raw[:at]+string(swap)+raw[at+1:], now); err == nil {
		t.Error("token with another signature accepted")
	}
	if _, err := s.ParseToken(raw, now.Add(2*time.Hour)); err == nil {
		t.Error("expired token accepted")
	}
	// alg none
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"gnt": 7, "tt": 0, "exp": now.Add(time.Hour).Unix()}).
		SignedString(jwt.UnsafeAllowNoneSignatureType)
	if _, err := s.ParseToken(none, now); err == nil {
		t.Error("alg none accepted")
	}
	// another key
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	os, _ := NewOAuth2Signer(other)
	forged, _ := os.SignToken(ports.OAuth2TokenClaims{GrantID: 7, IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if _, err := s.ParseToken(forged, now); err == nil {
		t.Error("token of another key accepted")
	}
	if _, ok := s.JWKS()["keys"]; !ok {
		t.Error("no keys in JWKS")
	}
}
