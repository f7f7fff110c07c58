package security

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/matryer/is"
)

func TestSigningKeyIsMadeOnceAndKept(t *testing.T) {
	is := is.New(t)
	dir := filepath.Join(t.TempDir(), "signing")
	first, err := LoadOrCreateSigningKey(dir, "Depot", "noreply@example.com")
	is.NoErr(err)
	info, err := os.Stat(filepath.Join(dir, signingKeyFile))
	is.NoErr(err)
	is.Equal(info.Mode().Perm(), os.FileMode(0o600))

	again, err := LoadOrCreateSigningKey(dir, "Other", "other@example.com")
	is.NoErr(err)
	is.Equal(again.KeyID(), first.KeyID())
	is.Equal(string(again.PublicKey()), string(first.PublicKey()))
	is.True(strings.HasPrefix(string(first.PublicKey()), "-----BEGIN PGP PUBLIC KEY BLOCK-----"))
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".signing-key-*"))
	is.Equal(len(leftovers), 0)
}

func TestSigningKeySignaturesVerify(t *testing.T) {
	is := is.New(t)
	s, err := LoadOrCreateSigningKey(t.TempDir(), "Depot", "noreply@example.com")
	is.NoErr(err)
	ring, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(s.PublicKey()))
	is.NoErr(err)
	is.Equal(len(ring), 1)
	is.True(ring[0].PrivateKey == nil) // the public key carries no secret

	content := []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nmsg\n")
	sig, err := s.SignCommit(content)
	is.NoErr(err)
	signer, err := openpgp.CheckArmoredDetachedSignature(ring, bytes.NewReader(content), strings.NewReader(sig), nil)
	is.NoErr(err)
	is.Equal(signer.PrimaryKey.KeyIdString(), s.KeyID())
	_, err = openpgp.CheckArmoredDetachedSignature(ring, bytes.NewReader(append(content, 'x')), strings.NewReader(sig), nil)
	is.True(err != nil) // a changed commit no longer verifies
}

func TestSigningKeyRefusesAFileWithoutAKey(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	is.NoErr(os.WriteFile(filepath.Join(dir, signingKeyFile), []byte("not a key"), 0o600))
	_, err := LoadOrCreateSigningKey(dir, "Depot", "noreply@example.com")
	is.True(err != nil)
}
