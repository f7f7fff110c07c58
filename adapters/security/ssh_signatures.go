package security

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"hash"
	"strings"

	"golang.org/x/crypto/ssh"
)

// SSH signatures as OpenSSH's PROTOCOL.sshsig describes them: what
// `ssh-keygen -Y sign` writes and git stores in a commit's gpgsig header
// when gpg.format is ssh.

const (
	sshSigArmorStart = "-----BEGIN SSH SIGNATURE-----"
	sshSigArmorEnd   = "-----END SSH SIGNATURE-----"
	sshSigMagic      = "SSHSIG"
	// maxSSHSignatureLen bounds the armored input; an RSA-16384 signature
	// with its key is under 8 KiB.
	maxSSHSignatureLen = 32 << 10
)

var (
	errSSHSigUnreadable = errors.New("unreadable SSH signature")
	errSSHSigMismatch   = errors.New("no key made this SSH signature")
)

// sshSigBlob is the signature's binary form after its 6-byte magic.
type sshSigBlob struct {
	Version       uint32
	PublicKey     []byte
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Signature     []byte
}

// sshSigSigned is what the key signs: the magic, then these fields.
type sshSigSigned struct {
	Namespace     string
	Reserved      string
	HashAlgorithm string
	Hash          []byte
}

// parseSSHSignature reads an armored SSH signature.
func parseSSHSignature(armored string) (*sshSigBlob, error) {
	if len(armored) > maxSSHSignatureLen {
		return nil, errSSHSigUnreadable
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(armored), sshSigArmorStart)
	if !ok {
		return nil, errSSHSigUnreadable
	}
	body, ok = strings.CutSuffix(body, sshSigArmorEnd)
	if !ok {
		return nil, errSSHSigUnreadable
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(body), ""))
	if err != nil || !bytes.HasPrefix(raw, []byte(sshSigMagic)) {
		return nil, errSSHSigUnreadable
	}
	var sig sshSigBlob
	if err := ssh.Unmarshal(raw[len(sshSigMagic):], &sig); err != nil || sig.Version != 1 {
		return nil, errSSHSigUnreadable
	}
	return &sig, nil
}

// SignerOf implements ports.SSHKeys: the signature must name the namespace
// asked for and one of keys, and that key must have made it over message.
func (SSHKeys) SignerOf(keys []string, namespace, signature, message string) (string, error) {
	sig, err := parseSSHSignature(signature)
	if err != nil {
		return "", err
	}
	if sig.Namespace != namespace {
		return "", errSSHSigMismatch
	}
	var h hash.Hash
	switch sig.HashAlgorithm {
	case "sha512":
		h = sha512.New()
	case "sha256":
		h = sha256.New()
	default:
		return "", errSSHSigUnreadable
	}
	var inner ssh.Signature
	if err := ssh.Unmarshal(sig.Signature, &inner); err != nil {
		return "", errSSHSigUnreadable
	}
	signer, err := ssh.ParsePublicKey(sig.PublicKey)
	if err != nil {
		return "", errSSHSigUnreadable
	}
	h.Write([]byte(message))
	signed := append([]byte(sshSigMagic), ssh.Marshal(sshSigSigned{Namespace: sig.Namespace, Reserved: sig.Reserved,
		HashAlgorithm: sig.HashAlgorithm, Hash: h.Sum(nil)})...)
	for _, k := range keys {
		pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(k))
		if err != nil || !bytes.Equal(pub.Marshal(), sig.PublicKey) {
			continue
		}
		if err := signer.Verify(signed, &inner); err != nil {
			return "", errSSHSigMismatch
		}
		return ssh.FingerprintSHA256(pub), nil
	}
	return "", errSSHSigMismatch
}
