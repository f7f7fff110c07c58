package user_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

func TestGPGKeyEmails(t *testing.T) {
	owned := []*user.Email{
		{Email: "Ann@Example.com", Activated: true},
		{Email: "pending@example.com", Activated: false},
	}
	for _, tc := range []struct {
		name string
		key  []string
		want []user.GPGKeyEmail
	}{
		{"none", nil, []user.GPGKeyEmail{}},
		{"activated, any case", []string{"ann@example.com"}, []user.GPGKeyEmail{{"ann@example.com", true}}},
		{"not activated", []string{"pending@example.com"}, []user.GPGKeyEmail{{"pending@example.com", false}}},
		{"someone else's, in order", []string{"x@elsewhere.test", "ann@example.com"},
			[]user.GPGKeyEmail{{"x@elsewhere.test", false}, {"ann@example.com", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(user.GPGKeyEmails(tc.key, owned), tc.want)
		})
	}
}

func TestCheckNewGPGKey(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	owned := []*user.Email{{Email: "ann@example.com", Activated: true}, {Email: "new@example.com"}}
	key := func(expires time.Time, emails ...string) *user.GPGKey {
		return &user.GPGKey{KeyID: "ABCDEF0123456789", Emails: emails, Expires: expires}
	}
	for _, tc := range []struct {
		name   string
		k      *user.GPGKey
		signed bool
		want   error // category, nil for accepted
	}{
		{"owner's address", key(time.Time{}, "x@elsewhere.test", "ann@example.com"), false, nil},
		{"no owner's address", key(time.Time{}, "x@elsewhere.test"), false, errs.ErrNotFound},
		{"address not activated", key(time.Time{}, "new@example.com"), false, errs.ErrNotFound},
		{"no address at all", key(time.Time{}), false, errs.ErrNotFound},
		{"signed, whatever the addresses", key(time.Time{}, "x@elsewhere.test"), true, nil},
		{"expires later", key(now.Add(time.Hour), "ann@example.com"), false, nil},
		{"expired", key(now.Add(-time.Hour), "ann@example.com"), false, errs.ErrInvalid},
		{"expires now", key(now, "ann@example.com"), true, errs.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := user.CheckNewGPGKey("armored_public_key", tc.k, owned, tc.signed, "TOKEN", now)
			if tc.want == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, tc.want))
			if tc.want == errs.ErrNotFound {
				is.Equal(errs.Message(err), errs.Message(user.ErrGPGKeyNoEmail)+"TOKEN")
			} else {
				is.True(strings.HasPrefix(errs.Message(err), "armored_public_key: "))
			}
		})
	}
}

func TestGPGVerificationToken(t *testing.T) {
	is := is.New(t)
	u := &user.User{ID: 7, Name: "ann", Email: "ann@example.com", Created: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)}
	at := time.Date(2026, 5, 1, 12, 30, 10, 0, time.UTC)
	tok := user.GPGVerificationToken(u, at, 1)
	is.Equal(len(tok), 64)
	// The same within a minute, the next minute's "previous" token, and
	// different for another account.
	is.Equal(user.GPGVerificationToken(u, at.Add(40*time.Second), 1), tok)
	is.Equal(user.GPGVerificationToken(u, at.Add(time.Minute), 0), tok)
	is.True(user.GPGVerificationToken(u, at.Add(time.Minute), 1) != tok)
	other := *u
	other.ID = 8
	is.True(user.GPGVerificationToken(&other, at, 1) != tok)

	// A token fetched in one minute is still accepted in the next.
	msgs := user.GPGTokenMessages(u, at.Add(time.Minute))
	is.Equal(len(msgs), 8)
	is.True(gpgContains(msgs, tok))
	is.True(gpgContains(msgs, tok+"\n"))
	is.True(!gpgContains(user.GPGTokenMessages(u, at.Add(2*time.Minute)), tok))
}

func gpgContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSignatureMismatch(t *testing.T) {
	is := is.New(t)
	err := user.SignatureMismatch("armored_signature", "TOKEN")
	is.True(errors.Is(err, errs.ErrInvalid))
	is.Equal(errs.Message(err), "armored_signature: "+errs.Message(user.ErrGPGSignatureMismatch)+"TOKEN")
}

func TestGPGKeyVouchesFor(t *testing.T) {
	owned := []*user.Email{{Email: "ann@example.com", Activated: true}, {Email: "new@example.com"}}
	for _, tc := range []struct {
		name      string
		key       *user.GPGKey
		committer string
		want      bool
	}{
		{"key lists the address", &user.GPGKey{Emails: []string{"ann@example.com"}}, "Ann@Example.com", true},
		{"key proven, address owned", &user.GPGKey{Verified: true}, "ann@example.com", true},
		{"key lists another address", &user.GPGKey{Emails: []string{"x@elsewhere.test"}}, "ann@example.com", false},
		{"address not activated", &user.GPGKey{Verified: true, Emails: []string{"new@example.com"}}, "new@example.com", false},
		{"address not the owner's", &user.GPGKey{Verified: true, Emails: []string{"x@elsewhere.test"}}, "x@elsewhere.test", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(user.GPGKeyVouchesFor(tc.key, tc.committer, owned), tc.want)
		})
	}
}
