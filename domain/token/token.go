// Package token holds personal access tokens: their record, how a presented
// secret is matched against the stored hash, and the scopes that limit them.
package token

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"regexp"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// SecretLength is the length of a token secret: 40 lowercase hex characters.
const SecretLength = 40

// AccessToken is a personal access token. The secret itself is never stored:
// only a salted hash and its last eight characters, which narrow the lookup.
type AccessToken struct {
	ID        int64
	UserID    int64
	Name      string
	Hash      string // hex SHA-256 of salt || secret
	Salt      string
	LastEight string
	Scopes    Scopes
	Created   time.Time
	// LastUsed is when the token last authenticated a request; zero when never.
	LastUsed time.Time
}

var secretPattern = regexp.MustCompile(`^[0-9a-f]{40}$`)

// LooksLikeSecret reports whether s has the shape of a token secret, so that a
// password is never mistaken for one (and never hashed as one).
func LooksLikeSecret(s string) bool { return secretPattern.MatchString(s) }

// LastEightOf returns the lookup key of a secret.
func LastEightOf(secret string) string {
	if len(secret) < 8 {
		return secret
	}
	return secret[len(secret)-8:]
}

// HashSecret hashes a secret with its salt. Secrets carry 160 random bits, so a
// fast hash cannot be brute-forced; a slow KDF would only cost every request.
func HashSecret(salt, secret string) string {
	sum := sha256.Sum256([]byte(salt + secret))
	return hex.EncodeToString(sum[:])
}

// Matches reports, in constant time, whether secret is this token's secret.
func (t *AccessToken) Matches(secret string) bool {
	want := HashSecret(t.Salt, secret)
	return subtle.ConstantTimeCompare([]byte(want), []byte(t.Hash)) == 1
}

// ValidateName checks a token's name.
func ValidateName(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errs.Invalid("Required", "Name")
	}
	if len(name) > 255 {
		return errs.Invalid("MaxSize", "Name")
	}
	return nil
}
