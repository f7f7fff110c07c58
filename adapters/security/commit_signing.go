package security

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/depothq/depot/ports"
)

// OpenPGPSigner signs commits with Depot's own OpenPGP key (ports.CommitSigner),
// using ProtonMail's maintained OpenPGP library rather than hand-made crypto.
type OpenPGPSigner struct {
	entity *openpgp.Entity
	public []byte
}

var _ ports.CommitSigner = (*OpenPGPSigner)(nil)

// signingKeyFile is the armoured private key under the data directory.
const signingKeyFile = "signing-key.asc"

// LoadOrCreateSigningKey reads the signing key kept in dir, or makes one
// (ed25519, for name <email>) and keeps it there first: written to a
// temporary file, synced and renamed, so a crash leaves the old state or
// the whole key, never a part.
func LoadOrCreateSigningKey(dir, name, email string) (*OpenPGPSigner, error) {
	path := filepath.Join(dir, signingKeyFile)
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		return signerFromArmor(raw)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("signing key: %w", err)
	}
	entity, err := openpgp.NewEntity(name, "Depot signing key", email, &packet.Config{
		Algorithm: packet.PubKeyAlgoEdDSA, Curve: packet.Curve25519, DefaultHash: 0})
	if err != nil {
		return nil, fmt.Errorf("signing key: make: %w", err)
	}
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PrivateKeyType, nil)
	if err != nil {
		return nil, fmt.Errorf("signing key: armour: %w", err)
	}
	if err := entity.SerializePrivate(w, nil); err != nil {
		return nil, fmt.Errorf("signing key: serialise: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("signing key: armour: %w", err)
	}
	if err := writeFileAtomic(dir, path, buf.Bytes()); err != nil {
		return nil, err
	}
	return signerFromArmor(buf.Bytes())
}

// signerFromArmor reads an armoured private key.
func signerFromArmor(raw []byte) (*OpenPGPSigner, error) {
	list, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(raw))
	if err != nil || len(list) != 1 || list[0].PrivateKey == nil {
		return nil, fmt.Errorf("signing key: %s holds no single private key: %v", signingKeyFile, err)
	}
	var pub bytes.Buffer
	w, err := armor.Encode(&pub, openpgp.PublicKeyType, nil)
	if err != nil {
		return nil, fmt.Errorf("signing key: armour: %w", err)
	}
	if err := list[0].Serialize(w); err != nil {
		return nil, fmt.Errorf("signing key: serialise: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("signing key: armour: %w", err)
	}
	pub.WriteByte('\n')
	return &OpenPGPSigner{entity: list[0], public: pub.Bytes()}, nil
}

// SignCommit returns the armoured detached signature of content.
func (s *OpenPGPSigner) SignCommit(content []byte) (string, error) {
	var sig strings.Builder
	if err := openpgp.ArmoredDetachSign(&sig, s.entity, bytes.NewReader(content), nil); err != nil {
		return "", fmt.Errorf("signing key: sign: %w", err)
	}
	return sig.String() + "\n", nil
}

// PublicKey returns the armoured public key.
func (s *OpenPGPSigner) PublicKey() []byte { return s.public }

// KeyID is the key's long id in hex, as gpg shows it.
func (s *OpenPGPSigner) KeyID() string { return s.entity.PrimaryKey.KeyIdString() }

// writeFileAtomic writes data to path through a synced temporary file in
// dir, readable by the owner only.
func writeFileAtomic(dir, path string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".signing-key-*")
	if err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	defer d.Close()
	return d.Sync()
}
