package security

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzGPGKeysRead fuzzes the armored public key a user pastes: refused with
// a 422 on the field, or read to keys that each have a 16-digit key id, a
// content, and subkeys naming their primary; reading the same block again
// gives the same keys.
func FuzzGPGKeysRead(f *testing.F) {
	e := testGPGEntity(f, "ann@example.com", "other@example.com")
	pub := testGPGArmor(f, e, false)
	for _, s := range []string{pub, pub + "\n" + pub, testGPGArmor(f, e, true), testGPGSign(f, e, "x"), "",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----",
		"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----",
		strings.Replace(pub, "A", "B", 3), pub[:len(pub)/2], "not a key at all"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		keys, err := GPGKeys{}.Read("armored_public_key", in)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"armored_public_key"}) {
				t.Fatalf("error %v (%T) is not a 422 on armored_public_key", err, err)
			}
			return
		}
		if len(keys) == 0 {
			t.Fatalf("Read(%q) gave no key and no error", in)
		}
		for _, k := range keys {
			if len(k.KeyID) != 16 || k.Content == "" || k.PrimaryKeyID != "" || k.Armored == "" {
				t.Fatalf("key %+v", k)
			}
			for _, s := range k.Subkeys {
				if len(s.KeyID) != 16 || s.PrimaryKeyID != k.KeyID || s.Armored != "" {
					t.Fatalf("subkey %+v of %s", s, k.KeyID)
				}
			}
		}
		again, err := GPGKeys{}.Read("armored_public_key", in)
		if err != nil || len(again) != len(keys) || again[0].KeyID != keys[0].KeyID {
			t.Fatalf("reading %q again: %v", in, err)
		}
		// A signature check on whatever was read never panics.
		_, _ = GPGKeys{}.SignerOf(in, in, []string{"x"})
	})
}
