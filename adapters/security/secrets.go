package security

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/depothq/depot/ports"
)

var _ ports.SecretGenerator = (*RandomSecrets)(nil)

// passwordAlphabet leaves out characters that are easy to misread when a
// password is printed once and typed by hand: 0/O/o, 1/l/I.
const passwordAlphabet = "abcdefghijkmnpqrstuvwxyz" + "ABCDEFGHJKLMNPQRSTUVWXYZ" + "23456789"

// passwordLen gives about 116 bits of entropy over the 56-letter alphabet.
const passwordLen = 20

// RandomSecrets implements ports.SecretGenerator with crypto/rand.
type RandomSecrets struct{}

// NewRandomSecrets returns a RandomSecrets.
func NewRandomSecrets() *RandomSecrets { return &RandomSecrets{} }

// TokenSecret returns 20 random bytes as 40 lowercase hex characters, the
// shape of Gitea's access tokens.
func (RandomSecrets) TokenSecret() (string, error) { return randomHex(20) }

// Salt returns 16 random bytes as 32 lowercase hex characters.
func (RandomSecrets) Salt() (string, error) { return randomHex(16) }

// Password returns 20 characters drawn uniformly from an alphabet without
// look-alike characters.
func (RandomSecrets) Password() (string, error) {
	// Rejection sampling keeps the draw uniform: bytes at or above the
	// largest multiple of the alphabet size are thrown away.
	const n = len(passwordAlphabet)
	const limit = 256 - 256%n
	out := make([]byte, 0, passwordLen)
	buf := make([]byte, passwordLen*2)
	for len(out) < passwordLen {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("security: reading random bytes: %w", err)
		}
		for _, b := range buf {
			if int(b) < limit {
				out = append(out, passwordAlphabet[int(b)%n])
				if len(out) == passwordLen {
					break
				}
			}
		}
	}
	return string(out), nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("security: reading random bytes: %w", err)
	}
	return hex.EncodeToString(b), nil
}
