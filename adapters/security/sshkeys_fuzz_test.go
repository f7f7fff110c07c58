package security

import (
	"crypto/ed25519"
	"errors"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/domain/errs"
)

// FuzzSSHKeysParse fuzzes the public key a user pastes: refused with a 422
// on the field that never repeats the input, or read to a canonical
// "type base64" line that reads back to itself with the same fingerprint.
func FuzzSSHKeysParse(f *testing.F) {
	pub, err := ssh.NewPublicKey(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public())
	if err != nil {
		f.Fatal(err)
	}
	line := authorizedLine(pub)
	for _, s := range []string{line, line + " me@host", `command="ls",no-pty ` + line + " c", line + "\n" + line,
		rfc4716(pub), "---- BEGIN SSH2 PUBLIC KEY ----\nComment: x\\\n", dsaLine(), "ssh-ed25519 AAAA", "", "  \t",
		"ssh-rsa " + strings.Repeat("A", 100), "not a key at all"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		content, fp, err := SSHKeys{}.Parse("Key", in)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"Key"}) {
				t.Fatalf("error %v (%T) is not a 422 on Key", err, err)
			}
			if trimmed := strings.TrimSpace(in); len(trimmed) > 12 && strings.Contains(e.Msg, trimmed) {
				t.Fatalf("message %q repeats the input", e.Msg)
			}
			return
		}
		typ, b64, ok := strings.Cut(content, " ")
		if !ok || typ == "" || b64 == "" || strings.ContainsAny(b64, " \n") || !strings.HasPrefix(fp, "SHA256:") {
			t.Fatalf("Parse(%q) = %q, %q", in, content, fp)
		}
		again, fp2, err := SSHKeys{}.Parse("Key", content)
		if err != nil || again != content || fp2 != fp {
			t.Fatalf("canonical %q reads back as %q, %q, %v", content, again, fp2, err)
		}
	})
}
