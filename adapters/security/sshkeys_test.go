package security

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/matryer/is"
	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/domain/errs"
)

// sshTestKey turns a freshly generated crypto public key into an SSH key.
func sshTestKey(t *testing.T, pub any) ssh.PublicKey {
	t.Helper()
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatalf("ssh.NewPublicKey: %v", err)
	}
	return k
}

func authorizedLine(k ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

func genSSHKeys(t *testing.T) (ed, ec, rsa2048, rsa1024 ssh.PublicKey) {
	t.Helper()
	edPub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	r2048, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	r1024, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	return sshTestKey(t, edPub), sshTestKey(t, &ecKey.PublicKey), sshTestKey(t, &r2048.PublicKey), sshTestKey(t, &r1024.PublicKey)
}

// dsaLine builds an ssh-dss key by hand: generating DSA parameters takes
// seconds, and only the shape matters to the parser.
func dsaLine() string {
	one := big.NewInt(1)
	w := struct {
		Name       string
		P, Q, G, Y *big.Int
	}{
		Name: "ssh-dss",
		P:    new(big.Int).Add(new(big.Int).Lsh(one, 1023), one),
		Q:    new(big.Int).Add(new(big.Int).Lsh(one, 159), one),
		G:    big.NewInt(2),
		Y:    big.NewInt(3),
	}
	return "ssh-dss " + base64.StdEncoding.EncodeToString(ssh.Marshal(w)) + " old@host"
}

// rfc4716 writes k as an SSH2 public key block with a continued comment.
func rfc4716(k ssh.PublicKey) string {
	b64 := base64.StdEncoding.EncodeToString(k.Marshal())
	var sb strings.Builder
	sb.WriteString("---- BEGIN SSH2 PUBLIC KEY ----\r\n")
	sb.WriteString("Comment: \"a very long comment that goes on \\\r\n")
	sb.WriteString("and on\"\r\n")
	sb.WriteString("x-Private: yes\r\n")
	for len(b64) > 70 {
		sb.WriteString(b64[:70] + "\r\n")
		b64 = b64[70:]
	}
	sb.WriteString(b64 + "\r\n")
	sb.WriteString("---- END SSH2 PUBLIC KEY ----\r\n")
	return sb.String()
}

func TestSSHKeysParseAccepts(t *testing.T) {
	ed, ec, rsa2048, _ := genSSHKeys(t)
	cases := []struct {
		name string
		key  ssh.PublicKey
		line string
	}{
		{"ed25519 no comment", ed, authorizedLine(ed)},
		{"ed25519 comment", ed, authorizedLine(ed) + " alice@laptop"},
		{"ed25519 comment with spaces and newline", ed, "  " + authorizedLine(ed) + " Alice's key (work)\r\n"},
		{"ecdsa", ec, authorizedLine(ec) + " bob@host"},
		{"rsa 2048", rsa2048, authorizedLine(rsa2048) + " carol"},
		{"options", ed, `no-pty,command="echo hi" ` + authorizedLine(ed) + " dave"},
		{"leading comment line", ed, "# my key\n" + authorizedLine(ed)},
		{"rfc4716", ed, rfc4716(ed)},
		{"rfc4716 rsa", rsa2048, rfc4716(rsa2048)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			content, fp, err := NewSSHKeys().Parse("key", c.line)
			is.NoErr(err)
			is.Equal(content, authorizedLine(c.key)) // type and base64, no comment
			is.Equal(len(strings.Fields(content)), 2)
			is.Equal(fp, ssh.FingerprintSHA256(c.key))
			is.True(strings.HasPrefix(fp, "SHA256:"))
		})
	}
}

func TestSSHKeysParseRefuses(t *testing.T) {
	ed, ec, _, rsa1024 := genSSHKeys(t)
	edLine := authorizedLine(ed)
	fields := strings.Fields(edLine)
	cert := &ssh.Certificate{Key: ed, CertType: ssh.UserCert, ValidPrincipals: []string{"alice"}, ValidBefore: ssh.CertTimeInfinity}
	_, signerKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(signerKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.SignCert(rand.Reader, signer); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name, line, msg string
	}{
		{"empty", "", "key: Required"},
		{"blank", " \n\t ", "key: Required"},
		{"garbage", "this is not a key", "key: invalid public key"},
		{"secret-looking garbage", "hunter2-my-password", "key: invalid public key"},
		{"type only", fields[0], "key: invalid public key"},
		{"bad base64", fields[0] + " !!!notbase64!!!", "key: invalid public key"},
		{"truncated", fields[0] + " " + fields[1][:len(fields[1])-8], "key: invalid public key"},
		{"private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "key: invalid public key"},
		{"two keys", edLine + "\n" + authorizedLine(ec), "key: invalid public key"},
		{"certificate", authorizedLine(cert), "key: invalid public key"},
		{"rfc4716 without end", strings.TrimSuffix(rfc4716(ed), "---- END SSH2 PUBLIC KEY ----\r\n"), "key: invalid public key"},
		{"rfc4716 bad body", "---- BEGIN SSH2 PUBLIC KEY ----\nAAAA$$$$\n---- END SSH2 PUBLIC KEY ----", "key: invalid public key"},
		{"huge", fields[0] + " " + strings.Repeat("A", 20<<10), "key: invalid public key"},
		{"rsa 1024", authorizedLine(rsa1024) + " old@host", "key: key is too weak"},
		{"dsa", dsaLine(), "key: key is too weak"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			content, fp, err := NewSSHKeys().Parse("key", c.line)
			is.True(errors.Is(err, errs.ErrInvalid))
			is.Equal(errs.Message(err), c.msg)
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Fields, []string{"key"})
			is.Equal(content, "")
			is.Equal(fp, "")
		})
	}
}
