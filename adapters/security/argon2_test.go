package security_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/security"
)

// cheap keeps the tests fast; the encoding and checks do not depend on cost.
var cheap = security.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestArgon2idRoundTrip(t *testing.T) {
	is := is.New(t)
	h := security.NewArgon2idHasher(cheap)

	enc, err := h.Hash("correct horse battery staple")
	is.NoErr(err)
	is.True(strings.HasPrefix(enc, "$argon2id$v=19$m=64,t=1,p=1$"))

	ok, err := h.Verify(enc, "correct horse battery staple")
	is.NoErr(err)
	is.True(ok)

	ok, err = h.Verify(enc, "correct horse battery stapl")
	is.NoErr(err) // a wrong password is not an error
	is.True(!ok)

	ok, err = h.Verify(enc, "")
	is.NoErr(err)
	is.True(!ok)
}

func TestArgon2idSaltsDiffer(t *testing.T) {
	is := is.New(t)
	h := security.NewArgon2idHasher(cheap)
	a, err := h.Hash("pw")
	is.NoErr(err)
	b, err := h.Hash("pw")
	is.NoErr(err)
	is.True(a != b)
}

func TestArgon2idDefaultParams(t *testing.T) {
	is := is.New(t)
	p := security.DefaultArgon2Params()
	is.Equal(p, security.Argon2Params{Memory: 19456, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32})

	h := security.NewArgon2idHasher(security.Argon2Params{})
	is.Equal(h.Params(), p) // zero fields take the defaults
	enc, err := h.Hash("pw")
	is.NoErr(err)
	is.True(strings.HasPrefix(enc, "$argon2id$v=19$m=19456,t=2,p=1$"))
	ok, err := h.Verify(enc, "pw")
	is.NoErr(err)
	is.True(ok)
}

func TestArgon2idParamsReadFromHash(t *testing.T) {
	is := is.New(t)
	old := security.NewArgon2idHasher(cheap)
	enc, err := old.Hash("pw")
	is.NoErr(err)

	// A hasher with other parameters still verifies the old hash...
	stronger := security.NewArgon2idHasher(security.Argon2Params{Memory: 128, Time: 2, Threads: 2, SaltLen: 16, KeyLen: 32})
	ok, err := stronger.Verify(enc, "pw")
	is.NoErr(err)
	is.True(ok)
	ok, err = stronger.Verify(enc, "other")
	is.NoErr(err)
	is.True(!ok)

	// ...and asks for it to be rehashed.
	is.True(stronger.NeedsRehash(enc))
	is.True(!old.NeedsRehash(enc))
	is.True(old.NeedsRehash("garbage"))

	newEnc, err := stronger.Hash("pw")
	is.NoErr(err)
	is.True(strings.Contains(newEnc, "$m=128,t=2,p=2$"))
	is.True(!stronger.NeedsRehash(newEnc))
}

// TestArgon2idKnownVector checks interoperability with a hash produced by the
// reference argon2 CLI: echo -n password | argon2 somesalt -id -t 2 -m 16 -p 1 -l 32.
func TestArgon2idKnownVector(t *testing.T) {
	is := is.New(t)
	h := security.NewArgon2idHasher(cheap)
	const enc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	ok, err := h.Verify(enc, "password")
	is.NoErr(err)
	is.True(ok)
	ok, err = h.Verify(enc, "Password")
	is.NoErr(err)
	is.True(!ok)
}

func TestArgon2idMalformed(t *testing.T) {
	h := security.NewArgon2idHasher(cheap)
	good, err := h.Hash("pw")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(good, "$")
	salt, key := parts[4], parts[5]

	cases := map[string]string{
		"empty":            "",
		"bcrypt":           "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
		"argon2i":          "$argon2i$v=19$m=64,t=1,p=1$" + salt + "$" + key,
		"no leading $":     "argon2id$v=19$m=64,t=1,p=1$" + salt + "$" + key,
		"old version":      "$argon2id$v=16$m=64,t=1,p=1$" + salt + "$" + key,
		"no version":       "$argon2id$m=64,t=1,p=1$" + salt + "$" + key,
		"missing param":    "$argon2id$v=19$m=64,t=1$" + salt + "$" + key,
		"unknown param":    "$argon2id$v=19$m=64,t=1,p=1,x=3$" + salt + "$" + key,
		"non-numeric":      "$argon2id$v=19$m=lots,t=1,p=1$" + salt + "$" + key,
		"zero time":        "$argon2id$v=19$m=64,t=0,p=1$" + salt + "$" + key,
		"zero threads":     "$argon2id$v=19$m=64,t=1,p=0$" + salt + "$" + key,
		"huge memory":      "$argon2id$v=19$m=4000000000,t=1,p=1$" + salt + "$" + key,
		"bad salt base64":  "$argon2id$v=19$m=64,t=1,p=1$!!!!$" + key,
		"padded hash":      "$argon2id$v=19$m=64,t=1,p=1$" + salt + "$" + key + "=",
		"short salt":       "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$" + key,
		"short hash":       "$argon2id$v=19$m=64,t=1,p=1$" + salt + "$aGFzaA",
		"extra field":      good + "$x",
		"truncated fields": "$argon2id$v=19$m=64,t=1,p=1$" + salt,
	}
	for name, enc := range cases {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			ok, err := h.Verify(enc, "pw")
			is.True(!ok)
			is.True(errors.Is(err, security.ErrMalformedHash))
			is.True(h.NeedsRehash(enc))
		})
	}
}

func BenchmarkArgon2idHash(b *testing.B) {
	h := security.NewArgon2idHasher(security.DefaultArgon2Params())
	for b.Loop() {
		if _, err := h.Hash("correct horse battery staple"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkArgon2idVerify(b *testing.B) {
	h := security.NewArgon2idHasher(security.DefaultArgon2Params())
	enc, err := h.Hash("correct horse battery staple")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ok, err := h.Verify(enc, "correct horse battery staple"); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}
