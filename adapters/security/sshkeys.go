package security

import (
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.SSHKeys = SSHKeys{}

// minRSABits is the shortest RSA modulus accepted; OpenSSH has refused
// shorter keys since 8.8 and NIST deprecated them in 2013.
const minRSABits = 2048

// maxSSHKeyLen bounds the input before parsing; the largest RSA key OpenSSH
// makes (16384 bits) is under 3 KiB in authorized_keys form.
const maxSSHKeyLen = 16 << 10

// SSHKeys implements ports.SSHKeys with golang.org/x/crypto/ssh.
type SSHKeys struct{}

// NewSSHKeys returns an SSHKeys.
func NewSSHKeys() SSHKeys { return SSHKeys{} }

// Parse reads one public key, either as an authorized_keys line (options
// and comment allowed and dropped) or as an RFC 4716 "BEGIN SSH2 PUBLIC
// KEY" block, and returns it as "type base64" with its SHA256 fingerprint.
// Errors never repeat the input, which may be something pasted by mistake.
func (SSHKeys) Parse(field, line string) (content, fingerprint string, err error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return "", "", errs.Invalid("Required", field)
	}
	invalid := errs.Invalid("invalid public key", field)
	if len(line) > maxSSHKeyLen {
		return "", "", invalid
	}

	var pub ssh.PublicKey
	if strings.HasPrefix(line, rfc4716Begin) {
		pub, err = parseRFC4716(line)
		if err != nil {
			return "", "", invalid
		}
	} else {
		var rest []byte
		pub, _, _, rest, err = ssh.ParseAuthorizedKey([]byte(line))
		// More than one key in the field is ambiguous: refuse rather than
		// silently keep the first.
		if err != nil || strings.TrimSpace(string(rest)) != "" {
			return "", "", invalid
		}
	}
	// A certificate is signed by some authority for a fixed set of
	// principals; it is not a key a user registers.
	if _, isCert := pub.(*ssh.Certificate); isCert {
		return "", "", invalid
	}
	if weak(pub) {
		return "", "", errs.Invalid("key is too weak", field)
	}
	content = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
	return content, ssh.FingerprintSHA256(pub), nil
}

// weak reports keys that are broken or too short to trust: DSA keys (fixed
// at 1024 bits, disabled in OpenSSH since 7.0) and short RSA keys.
func weak(pub ssh.PublicKey) bool {
	switch pub.Type() {
	case ssh.InsecureKeyAlgoDSA:
		return true
	case ssh.KeyAlgoRSA:
		ck, ok := pub.(ssh.CryptoPublicKey)
		if !ok {
			return true
		}
		rk, ok := ck.CryptoPublicKey().(*rsa.PublicKey)
		return !ok || rk.N.BitLen() < minRSABits
	}
	return false
}

const (
	rfc4716Begin = "---- BEGIN SSH2 PUBLIC KEY ----"
	rfc4716End   = "---- END SSH2 PUBLIC KEY ----"
)

// parseRFC4716 reads the SSH2 public key file format (RFC 4716, section 3):
// a begin marker, header lines ("Comment: ...", continued by a trailing
// backslash), base64 body lines and an end marker.
func parseRFC4716(block string) (ssh.PublicKey, error) {
	lines := strings.Split(strings.ReplaceAll(block, "\r\n", "\n"), "\n")
	if strings.TrimSpace(lines[0]) != rfc4716Begin {
		return nil, errRFC4716
	}
	var body strings.Builder
	inHeader, continued, ended := true, false, false
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		switch {
		case ended:
			if l != "" {
				return nil, errRFC4716
			}
		case l == rfc4716End:
			ended = true
		case continued:
			continued = strings.HasSuffix(l, `\`)
		case inHeader && strings.Contains(l, ":"):
			// Base64 has no colon, so a colon marks a header line.
			continued = strings.HasSuffix(l, `\`)
		default:
			inHeader = false
			body.WriteString(l)
		}
	}
	if !ended {
		return nil, errRFC4716
	}
	raw, err := base64.StdEncoding.DecodeString(body.String())
	if err != nil {
		return nil, err
	}
	return ssh.ParsePublicKey(raw)
}

// errRFC4716 is never shown to a client; Parse answers with errs.Invalid.
var errRFC4716 = errors.New("malformed SSH2 public key block")
