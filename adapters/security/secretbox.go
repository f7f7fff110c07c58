package security

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/depothq/depot/ports"
)

var _ ports.SecretBox = (*SecretBox)(nil)

// siteKeyLen is an AES-256 key.
const siteKeyLen = 32

// sealedPrefix versions the sealed format, so that a later key rotation or
// algorithm can tell old values apart.
const sealedPrefix = "v1:"

// SecretBox implements ports.SecretBox with AES-256-GCM under the site key;
// the label is the additional authenticated data.
type SecretBox struct {
	aead cipher.AEAD
}

// NewSecretBox builds a box over a key.
func NewSecretBox(key []byte) (*SecretBox, error) {
	if len(key) != siteKeyLen {
		return nil, fmt.Errorf("security: the site key must be %d bytes, not %d", siteKeyLen, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &SecretBox{aead: aead}, nil
}

// OpenSiteKey reads the site key from path, generating it first when there
// is none. Several processes sharing a data directory may start at once:
// the key is written to a temporary file and linked into place, which fails
// when another process got there first, so all of them end up with the one
// key that was linked.
func OpenSiteKey(path string) ([]byte, error) {
	if key, err := readSiteKey(path); err == nil || !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, siteKeyLen)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("security: reading random bytes: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".site-key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
	if err := errors.Join(werr, tmp.Sync(), tmp.Close()); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	return readSiteKey(path)
}

func readSiteKey(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != siteKeyLen {
		return nil, fmt.Errorf("security: %s does not hold a %d-byte base64 key", path, siteKeyLen)
	}
	return key, nil
}

// Seal encrypts plain under a fresh random nonce and returns
// "v1:" + base64(nonce || ciphertext).
func (b *SecretBox) Seal(plain []byte, label string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plain)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("security: reading random bytes: %w", err)
	}
	out := b.aead.Seal(nonce, nonce, plain, []byte(label))
	return sealedPrefix + base64.StdEncoding.EncodeToString(out), nil
}

// errSealed says nothing about why opening failed: the reasons (a wrong
// label, a changed key, tampering) look alike to an attacker and to GCM.
var errSealed = errors.New("security: the sealed value cannot be opened")

// Open decrypts a value Seal made under the same key and label.
func (b *SecretBox) Open(sealed, label string) ([]byte, error) {
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return nil, errSealed
	}
	data, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(data) < b.aead.NonceSize()+b.aead.Overhead() {
		return nil, errSealed
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, data[:n], data[n:], []byte(label))
	if err != nil {
		return nil, errSealed
	}
	return plain, nil
}
