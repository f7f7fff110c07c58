package test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// Gitea's answers about GPG keys, behind the field they concern.
const (
	gpgMsgInUse    = "armored_public_key: A key with the same id already exists"
	gpgMsgNoEmail  = "None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: "
	gpgMsgMismatch = "armored_signature: The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: "
)

// gpgNew makes an ed25519 OpenPGP key (with an encryption subkey) whose
// identities carry the given addresses; lifetime 0 never expires, and
// created shifts its creation time into the past.
func gpgNew(t *testing.T, lifetime uint32, created time.Time, emails ...string) *openpgp.Entity {
	t.Helper()
	cfg := &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA, Curve: packet.Curve25519, KeyLifetimeSecs: lifetime}
	if !created.IsZero() {
		cfg.Time = func() time.Time { return created }
	}
	e, err := openpgp.NewEntity("Key Holder", "", emails[0], cfg)
	if err != nil {
		t.Fatalf("openpgp key: %v", err)
	}
	for _, addr := range emails[1:] {
		if err := e.AddUserId("Key Holder", "", addr, cfg); err != nil {
			t.Fatalf("openpgp identity: %v", err)
		}
	}
	return e
}

// gpgArmor is e's public key block, or its private one.
func gpgArmor(t *testing.T, e *openpgp.Entity, private bool) string {
	t.Helper()
	var buf bytes.Buffer
	typ := openpgp.PublicKeyType
	if private {
		typ = openpgp.PrivateKeyType
	}
	w, err := armor.Encode(&buf, typ, nil)
	if err != nil {
		t.Fatalf("armor: %v", err)
	}
	if private {
		err = e.SerializePrivate(w, nil)
	} else {
		err = e.Serialize(w)
	}
	if err != nil {
		t.Fatalf("serialise: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("armor: %v", err)
	}
	return buf.String()
}

// gpgSign is e's armored detached signature over text.
func gpgSign(t *testing.T, e *openpgp.Entity, text string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := openpgp.ArmoredDetachSign(&buf, e, strings.NewReader(text), nil); err != nil {
		t.Fatalf("sign: %v", err)
	}
	return buf.String()
}

// gpgToken fetches the caller's verification token.
func gpgToken(t *testing.T, c *gitea.Client) string {
	t.Helper()
	token, resp, err := c.GetGPGKeyVerificationToken()
	assertSDKStatus(t, resp, err, http.StatusOK)
	if len(token) != 64 {
		t.Fatalf("token %q is not a SHA-256 in hex", token)
	}
	return token
}

func gpgKeyIDs(list []*gitea.GPGKey) []int64 {
	out := make([]int64, 0, len(list))
	for _, k := range list {
		out = append(out, k.ID)
	}
	return out
}

// TestGPGKeysLifecycle covers adding, listing, reading, verifying and
// deleting an account's GPG keys and the refusals of bad, expired,
// unowned and duplicate keys, on both backends.
func TestGPGKeysLifecycle(t *testing.T) {
	t.Parallel()
	backends(t, testGPGKeysLifecycle)
}

func testGPGKeysLifecycle(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	mine := gpgNew(t, 0, time.Time{}, "alice@example.com", "Other@Elsewhere.test")
	var k *gitea.GPGKey

	t.Run("add", func(t *testing.T) {
		is := is.New(t)
		var resp *gitea.Response
		var err error
		k, resp, err = alice.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: gpgArmor(t, mine, false)})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		is.True(k.ID > 0)
		is.Equal(k.KeyID, mine.PrimaryKey.KeyIdString())
		is.Equal(k.PrimaryKeyID, "")
		is.True(k.PublicKey != "")
		is.True(!k.Verified) // no signature yet
		is.True(k.CanSign)
		is.True(k.CanCertify)
		is.True(k.Expires.IsZero())
		is.Equal(k.Created.Unix(), mine.PrimaryKey.CreationTime.Unix())
		// Every address of the key, marked whether it is one of alice's.
		is.Equal(len(k.Emails), 2)
		is.Equal(*k.Emails[0], gitea.GPGKeyEmail{Email: "alice@example.com", Verified: true})
		is.Equal(*k.Emails[1], gitea.GPGKeyEmail{Email: "other@elsewhere.test", Verified: false})
		is.Equal(len(k.SubsKey), 1)
		sub := k.SubsKey[0]
		is.Equal(sub.KeyID, mine.Subkeys[0].PublicKey.KeyIdString())
		is.Equal(sub.PrimaryKeyID, k.KeyID)
		is.True(sub.CanEncryptComms)
		is.True(!sub.Verified)
	})

	t.Run("list and get", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := alice.ListMyGPGKeys(&gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(gpgKeyIDs(list), []int64{k.ID})
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(list[0].SubsKey), 1)
		list, _, err = bob.ListGPGKeys("alice", gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(gpgKeyIDs(list), []int64{k.ID})
		list, _, err = alice.ListGPGKeys("bob", gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)

		got, _, err := alice.GetGPGKey(k.ID)
		is.NoErr(err)
		is.Equal(got.KeyID, k.KeyID)
		is.Equal(len(got.Emails), 2)
		// Another account's key and a subkey's id are not one's keys.
		_, resp, err = bob.GetGPGKey(k.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = alice.GetGPGKey(k.SubsKey[0].ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/user/gpg_keys/abc", nil, basicAs("alice")...), http.StatusNotFound, "")
		_, resp, err = bob.ListGPGKeys("nobody", gitea.ListGPGKeysOptions{})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("refusals", func(t *testing.T) {
		is := is.New(t)
		post := func(who string, body map[string]any) testserver.Response {
			return srv.Do("POST", "/user/gpg_keys", body, basicAs(who)...)
		}
		// A key registered once, by anyone.
		assertAPIError(t, post("alice", map[string]any{"armored_public_key": gpgArmor(t, mine, false)}),
			http.StatusUnprocessableEntity, gpgMsgInUse)
		// Not a key.
		assertInvalid(t, post("alice", map[string]any{"armored_public_key": "not a key"}), "armored_public_key")
		assertInvalid(t, post("alice", map[string]any{"armored_public_key": ""}), "armored_public_key")
		assertInvalid(t, post("alice", map[string]any{"armored_public_key": gpgSign(t, mine, "x")}), "armored_public_key")
		// A private key is refused, never stored.
		fresh := gpgNew(t, 0, time.Time{}, "alice@example.com")
		assertInvalid(t, post("alice", map[string]any{"armored_public_key": gpgArmor(t, fresh, true)}), "armored_public_key")
		// An expired key.
		old := gpgNew(t, 3600, time.Now().Add(-48*time.Hour), "alice@example.com")
		r := post("alice", map[string]any{"armored_public_key": gpgArmor(t, old, false)})
		assertInvalid(t, r, "armored_public_key")
		is.True(strings.Contains(r.Message(), "expired"))
		// None of the key's addresses is alice's: 404 naming the token.
		stranger := gpgNew(t, 0, time.Time{}, "stranger@elsewhere.test")
		r = post("alice", map[string]any{"armored_public_key": gpgArmor(t, stranger, false)})
		assertAPIError(t, r, http.StatusNotFound, "")
		is.True(strings.HasPrefix(r.Message(), gpgMsgNoEmail))
		is.Equal(len(strings.TrimPrefix(r.Message(), gpgMsgNoEmail)), 64)
		// A signature by another key.
		token := gpgToken(t, alice)
		r = post("alice", map[string]any{"armored_public_key": gpgArmor(t, stranger, false), "armored_signature": gpgSign(t, fresh, token)})
		assertAPIError(t, r, http.StatusUnprocessableEntity, "")
		is.True(strings.HasPrefix(r.Message(), gpgMsgMismatch))
		// A signature over something else.
		r = post("alice", map[string]any{"armored_public_key": gpgArmor(t, stranger, false), "armored_signature": gpgSign(t, stranger, "hello")})
		assertAPIError(t, r, http.StatusUnprocessableEntity, "")
		is.True(strings.HasPrefix(r.Message(), gpgMsgMismatch))
		assertAPIError(t, srv.Do("POST", "/user/gpg_keys", "{", basicAs("alice")...), http.StatusBadRequest, "")
		list, _, err := alice.ListMyGPGKeys(&gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(gpgKeyIDs(list), []int64{k.ID}) // nothing added
	})

	t.Run("add with a signature", func(t *testing.T) {
		is := is.New(t)
		stranger := gpgNew(t, 0, time.Time{}, "stranger@elsewhere.test")
		token := gpgToken(t, bob)
		got, resp, err := bob.CreateGPGKey(gitea.CreateGPGKeyOption{
			ArmoredKey: gpgArmor(t, stranger, false), Signature: gpgSign(t, stranger, token+"\n"),
		})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		is.True(got.Verified)
		is.True(got.SubsKey[0].Verified)
		is.Equal(len(got.Emails), 1)
		is.Equal(*got.Emails[0], gitea.GPGKeyEmail{Email: "stranger@elsewhere.test", Verified: false})
		// alice's token is not bob's.
		other := gpgNew(t, 0, time.Time{}, "x@elsewhere.test")
		r := srv.Do("POST", "/user/gpg_keys", map[string]any{
			"armored_public_key": gpgArmor(t, other, false), "armored_signature": gpgSign(t, other, gpgToken(t, alice)),
		}, basicAs("bob")...)
		assertAPIError(t, r, http.StatusUnprocessableEntity, "")
	})

	t.Run("verify", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/user/gpg_key_token", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain"))
		token := string(r.Body)

		// Someone else's signature, a signature over something else, an
		// unknown key and bob's key are refused.
		other := gpgNew(t, 0, time.Time{}, "alice@example.com")
		_, resp, err := alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: k.KeyID, Signature: gpgSign(t, other, token)})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
		_, resp, err = alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: k.KeyID, Signature: gpgSign(t, mine, "nope")})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
		_, resp, err = alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: k.KeyID, Signature: ""})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
		_, resp, err = alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: other.PrimaryKey.KeyIdString(), Signature: gpgSign(t, other, token)})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = bob.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: k.KeyID, Signature: gpgSign(t, mine, gpgToken(t, bob))})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		got, _, err := alice.GetGPGKey(k.ID)
		is.NoErr(err)
		is.True(!got.Verified)

		// The key's signature over the token; the id may be lower case.
		got, resp, err = alice.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: strings.ToLower(k.KeyID), Signature: gpgSign(t, mine, token)})
		assertSDKStatus(t, resp, err, http.StatusOK)
		is.Equal(got.ID, k.ID)
		is.True(got.Verified)
		is.True(got.SubsKey[0].Verified)
		got, _, err = alice.GetGPGKey(k.ID)
		is.NoErr(err)
		is.True(got.Verified)
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := bob.DeleteGPGKey(k.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = alice.DeleteGPGKey(k.ID)
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = alice.DeleteGPGKey(k.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		list, _, err := alice.ListMyGPGKeys(&gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		// The key and its subkey are free again.
		again, resp, err := alice.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: gpgArmor(t, mine, false)})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		is.True(again.ID > k.ID)
	})
}

// TestGPGKeysAccess covers who may reach the GPG key routes: sign-in, the
// visibility of the account named and the token scopes.
func TestGPGKeysAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, erin := newAccount(t, srv, "erin", gitea.VisibleTypePrivate)
	newAccount(t, srv, "finn", gitea.VisibleTypePublic)
	key := gpgNew(t, 0, time.Time{}, "erin@example.com")
	k, resp, err := erin.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: gpgArmor(t, key, false)})
	assertSDKStatus(t, resp, err, http.StatusCreated)

	t.Run("anonymous", func(t *testing.T) {
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/user/gpg_keys", nil},
			{"POST", "/user/gpg_keys", map[string]any{"armored_public_key": gpgArmor(t, key, false)}},
			{"GET", fmt.Sprintf("/user/gpg_keys/%d", k.ID), nil},
			{"DELETE", fmt.Sprintf("/user/gpg_keys/%d", k.ID), nil},
			{"GET", "/user/gpg_key_token", nil},
			{"POST", "/user/gpg_key_verify", map[string]any{"key_id": k.KeyID}},
			{"GET", "/users/finn/gpg_keys", nil},
			{"GET", "/users/erin/gpg_keys", nil},
		} {
			assertAPIError(t, srv.Do(rt.method, rt.path, rt.body), http.StatusUnauthorized, "token is required")
		}
	})

	t.Run("private account", func(t *testing.T) {
		is := is.New(t)
		assertAPIError(t, srv.Do("GET", "/users/erin/gpg_keys", nil, basicAs("finn")...), http.StatusNotFound, "")
		list, _, err := srv.AdminClient().ListGPGKeys("erin", gitea.ListGPGKeysOptions{})
		is.NoErr(err)
		is.Equal(gpgKeyIDs(list), []int64{k.ID})
	})

	t.Run("scopes", func(t *testing.T) {
		is := is.New(t)
		read := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "read:user")}
		write := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "write:user")}
		repoOnly := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "write:repository")}
		other := gpgNew(t, 0, time.Time{}, "erin@example.com")
		body := map[string]any{"armored_public_key": gpgArmor(t, other, false)}

		is.Equal(srv.Do("GET", "/user/gpg_keys", nil, read...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/users/erin/gpg_keys", nil, read...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", fmt.Sprintf("/user/gpg_keys/%d", k.ID), nil, read...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/user/gpg_key_token", nil, read...).Status, http.StatusOK)
		scopeWantDenied(is, srv.Do("POST", "/user/gpg_keys", body, read...), "write:user", "read:user")
		scopeWantDenied(is, srv.Do("DELETE", fmt.Sprintf("/user/gpg_keys/%d", k.ID), nil, read...), "write:user", "read:user")
		scopeWantDenied(is, srv.Do("POST", "/user/gpg_key_verify", map[string]any{"key_id": k.KeyID}, read...), "write:user", "read:user")
		is.Equal(srv.Do("GET", "/user/gpg_keys", nil, repoOnly...).Status, http.StatusForbidden)

		r := srv.Do("POST", "/user/gpg_keys", body, write...)
		is.Equal(r.Status, http.StatusCreated)
		var created gitea.GPGKey
		r.Decode(t, &created)
		is.Equal(srv.Do("DELETE", fmt.Sprintf("/user/gpg_keys/%d", created.ID), nil, write...).Status, http.StatusNoContent)
	})
}
