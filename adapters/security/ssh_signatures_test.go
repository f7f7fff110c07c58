package security

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// sshKeygen makes a key of kind with OpenSSH's ssh-keygen in dir and
// returns its private key's path and its public key line.
func sshKeygen(t *testing.T, dir, name string, args ...string) (string, string) {
	t.Helper()
	path := filepath.Join(dir, name)
	out, err := exec.Command("ssh-keygen", append([]string{"-q", "-N", "", "-C", "test", "-f", path}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// sshSign signs message with key in namespace, as git does for a commit.
func sshSign(t *testing.T, key, namespace, message string) string {
	t.Helper()
	cmd := exec.Command("ssh-keygen", "-Y", "sign", "-f", key, "-n", namespace)
	cmd.Stdin = strings.NewReader(message)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v", err)
	}
	return string(out)
}

// TestSSHSignerOf checks signatures made by OpenSSH's ssh-keygen: the key
// that made one is found among several, whatever its kind; another
// message, another namespace, a key not listed and garbage are refused.
func TestSSHSignerOf(t *testing.T) {
	dir := t.TempDir()
	ed, edPub := sshKeygen(t, dir, "ed", "-t", "ed25519")
	rsa, rsaPub := sshKeygen(t, dir, "rsa", "-t", "rsa", "-b", "2048")
	_, otherPub := sshKeygen(t, dir, "other", "-t", "ecdsa")
	k := NewSSHKeys()
	const msg = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\n\nsigned\n"
	for _, tc := range []struct {
		name, key, pub string
	}{{"ed25519", ed, edPub}, {"rsa", rsa, rsaPub}} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			sig := sshSign(t, tc.key, "git", msg)
			want, _, err := k.Parse("key", tc.pub)
			is.NoErr(err)
			_, fp, err := k.Parse("key", want)
			is.NoErr(err)
			got, err := k.SignerOf([]string{otherPub, want}, "git", sig, msg)
			is.NoErr(err)
			is.Equal(got, fp)

			_, err = k.SignerOf([]string{want}, "git", sig, msg+"changed")
			is.True(err != nil) // another message
			_, err = k.SignerOf([]string{want}, "file", sig, msg)
			is.True(err != nil) // another namespace
			_, err = k.SignerOf([]string{otherPub}, "git", sig, msg)
			is.True(err != nil) // a key that did not sign
			_, err = k.SignerOf([]string{want}, "git", strings.Replace(sig, "A", "B", 3), msg)
			is.True(err != nil) // damaged
		})
	}
	_, err := NewSSHKeys().SignerOf([]string{edPub}, "git", "-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----", msg)
	if err == nil {
		t.Fatal("an OpenPGP signature passed as SSH")
	}
}

// FuzzParseSSHSignature feeds the armored signature parser anything: it
// must refuse or read, never panic.
func FuzzParseSSHSignature(f *testing.F) {
	f.Add(sshSigArmorStart + "\nU1NIU0lHAAAAAQ==\n" + sshSigArmorEnd)
	f.Add(sshSigArmorStart + "\n" + sshSigArmorEnd)
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, armored string) {
		sig, err := parseSSHSignature(armored)
		if err == nil && sig.Version != 1 {
			t.Fatalf("version %d accepted", sig.Version)
		}
		_, _ = NewSSHKeys().SignerOf([]string{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"}, "git", armored, "m")
	})
}
