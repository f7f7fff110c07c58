package security

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

func testGPGEntity(t testing.TB, emails ...string) *openpgp.Entity {
	t.Helper()
	cfg := &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA, Curve: packet.Curve25519}
	e, err := openpgp.NewEntity("Ann", "", emails[0], cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range emails[1:] {
		if err := e.AddUserId("Ann", "", addr, cfg); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func testGPGArmor(t testing.TB, e *openpgp.Entity, private bool) string {
	t.Helper()
	var buf bytes.Buffer
	typ := openpgp.PublicKeyType
	if private {
		typ = openpgp.PrivateKeyType
	}
	w, err := armor.Encode(&buf, typ, nil)
	if err != nil {
		t.Fatal(err)
	}
	if private {
		err = e.SerializePrivate(w, nil)
	} else {
		err = e.Serialize(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func testGPGSign(t testing.TB, e *openpgp.Entity, text string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := openpgp.ArmoredDetachSign(&buf, e, strings.NewReader(text), nil); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGPGKeysRead(t *testing.T) {
	is := is.New(t)
	e := testGPGEntity(t, "Ann@Example.com", "ann@work.test")
	pub := testGPGArmor(t, e, false)

	keys, err := GPGKeys{}.Read("f", pub)
	is.NoErr(err)
	is.Equal(len(keys), 1)
	k := keys[0]
	is.Equal(k.KeyID, e.PrimaryKey.KeyIdString())
	is.Equal(k.Emails, []string{"ann@example.com", "ann@work.test"}) // primary identity first, lower case
	is.True(k.CanSign && k.CanCertify)
	is.Equal(k.Armored, strings.TrimSpace(pub))
	is.True(k.Expires.IsZero())
	is.Equal(k.Created.Unix(), e.PrimaryKey.CreationTime.Unix())
	is.Equal(len(k.Subkeys), 1)
	is.Equal(k.Subkeys[0].KeyID, e.Subkeys[0].PublicKey.KeyIdString())
	is.Equal(k.Subkeys[0].PrimaryKeyID, k.KeyID)
	is.True(k.Subkeys[0].CanEncryptComms)

	// The same key twice in a block is one key.
	var twice bytes.Buffer
	w, err := armor.Encode(&twice, openpgp.PublicKeyType, nil)
	is.NoErr(err)
	is.NoErr(e.Serialize(w))
	is.NoErr(e.Serialize(w))
	is.NoErr(w.Close())
	keys, err = GPGKeys{}.Read("f", twice.String())
	is.NoErr(err)
	is.Equal(len(keys), 1)
	is.Equal(len(keys[0].Subkeys), 1)

	for name, in := range map[string]string{
		"empty": "", "not armored": "hello", "private key": testGPGArmor(t, e, true),
		"signature": testGPGSign(t, e, "x"), "too large": strings.Repeat("A", maxArmoredGPGKeyLen+1),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := GPGKeys{}.Read("f", in)
			is := is.New(t)
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.HasPrefix(errs.Message(err), "f: "))
		})
	}
}

func TestGPGKeysReadExpiry(t *testing.T) {
	is := is.New(t)
	created := time.Now().Add(-time.Hour).Truncate(time.Second)
	cfg := &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA, Curve: packet.Curve25519, KeyLifetimeSecs: 60,
		Time: func() time.Time { return created }}
	e, err := openpgp.NewEntity("Ann", "", "ann@example.com", cfg)
	is.NoErr(err)
	keys, err := GPGKeys{}.Read("f", testGPGArmor(t, e, false))
	is.NoErr(err)
	is.Equal(keys[0].Expires, created.Add(time.Minute))
	is.Equal(keys[0].Subkeys[0].Expires, created.Add(time.Minute))
}

func TestGPGKeysSignerOf(t *testing.T) {
	is := is.New(t)
	e := testGPGEntity(t, "ann@example.com")
	other := testGPGEntity(t, "bob@example.com")
	pub := testGPGArmor(t, e, false)
	msgs := []string{"token", "token\n"}

	id, err := GPGKeys{}.SignerOf(pub, testGPGSign(t, e, "token\n"), msgs)
	is.NoErr(err)
	is.Equal(id, e.PrimaryKey.KeyIdString())
	for name, sig := range map[string]string{
		"other text": testGPGSign(t, e, "else"), "other key": testGPGSign(t, other, "token"), "garbage": "x", "empty": "",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := GPGKeys{}.SignerOf(pub, sig, msgs)
			is.New(t).True(errors.Is(err, user.ErrGPGSignatureMismatch))
		})
	}
	_, err = GPGKeys{}.SignerOf("not a key", testGPGSign(t, e, "token"), msgs)
	is.True(errors.Is(err, user.ErrGPGSignatureMismatch))
}
