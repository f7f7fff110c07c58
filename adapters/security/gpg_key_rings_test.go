package security

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/user"
)

// TestGPGKeyRingsKeepParsed checks that a kept ring answers as a fresh
// parse does, that a ring stands only for its own text (another key's text
// never verifies with it), and that the cache stays within its bound.
func TestGPGKeyRingsKeepParsed(t *testing.T) {
	is := is.New(t)
	ann, bob := testGPGEntity(t, "ann@example.com"), testGPGEntity(t, "bob@example.com")
	annPub, bobPub := testGPGArmor(t, ann, false), testGPGArmor(t, bob, false)
	g := GPGKeys{rings: newKeyRings(2)}
	annSig := testGPGSign(t, ann, "commit\n")

	for range 3 {
		id, err := g.SignerOf(annPub, annSig, []string{"commit\n"})
		is.NoErr(err)
		is.Equal(id, ann.PrimaryKey.KeyIdString())
	}
	is.Equal(g.rings.len(), 1)

	_, err := g.SignerOf(bobPub, annSig, []string{"commit\n"})
	is.True(errors.Is(err, user.ErrGPGSignatureMismatch)) // bob's text has bob's ring only
	is.Equal(g.rings.len(), 2)

	_, err = g.SignerOf("not a key", annSig, []string{"commit\n"})
	is.True(errors.Is(err, user.ErrGPGSignatureMismatch))
	is.Equal(g.rings.len(), 2) // errors are not kept

	carl := testGPGEntity(t, "carl@example.com")
	_, err = g.SignerOf(testGPGArmor(t, carl, false), testGPGSign(t, carl, "x"), []string{"x"})
	is.NoErr(err)
	is.Equal(g.rings.len(), 2) // the least recently used ring (ann's) went out

	id, err := g.SignerOf(annPub, annSig, []string{"commit\n"})
	is.NoErr(err) // and is parsed again when asked for
	is.Equal(id, ann.PrimaryKey.KeyIdString())
}

// BenchmarkGPGKeysSignerOf measures a signature check of a commit by a
// committer whose key is checked again and again (a commit page): with the
// parse kept and with a parse per check.
func BenchmarkGPGKeysSignerOf(b *testing.B) {
	e := testGPGEntity(b, "ann@example.com")
	pub, sig := testGPGArmor(b, e, false), testGPGSign(b, e, "commit\n")
	for name, g := range map[string]GPGKeys{"kept": NewGPGKeys(), "parsed-each-time": {}} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.SignerOf(pub, sig, []string{"commit\n"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
