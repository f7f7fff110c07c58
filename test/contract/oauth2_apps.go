package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/oauth2"
	"github.com/depothq/depot/ports"
)

// oauth2App registers an application of the user with clientID.
func (f *fixture) oauth2App(userID int64, clientID string) *oauth2.Application {
	f.t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	a := &oauth2.Application{UserID: userID, Name: "app " + clientID, ClientID: clientID, SecretHash: "h", SecretSalt: "s",
		RedirectURIs: []string{"https://a.example/cb", "com.example:/cb"}, Confidential: true, Created: now, Updated: now}
	if err := f.OAuth2Apps.Create(f.ctx, a); err != nil {
		f.t.Fatalf("oauth2 app %q: %v", clientID, err)
	}
	return a
}

var oauth2AppTests = map[string]func(t *testing.T, f *fixture){
	"CreateListGetUpdateDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		a := f.oauth2App(alice.ID, "c1")
		f.oauth2App(alice.ID, "c2")
		f.oauth2App(bob.ID, "c3")
		err := f.OAuth2Apps.Create(f.ctx, &oauth2.Application{UserID: bob.ID, Name: "dup", ClientID: "c1"})
		isCategory(is, err, errs.ErrConflict, "OAuth2 client id has been used already")

		list, total, err := f.OAuth2Apps.ListByUser(f.ctx, alice.ID, ports.ListOptions{Limit: 1})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(len(list), 1)
		is.Equal(*list[0], *a)

		got, err := f.OAuth2Apps.GetByClientID(f.ctx, "c1")
		is.NoErr(err)
		is.Equal(*got, *a)
		_, err = f.OAuth2Apps.GetByID(f.ctx, bob.ID, a.ID)
		isCategory(is, err, errs.ErrNotFound, "OAuth2 application does not exist")

		a.Name, a.RedirectURIs, a.Confidential, a.SecretHash = "renamed", []string{"https://b.example"}, false, "h2"
		is.NoErr(f.OAuth2Apps.Update(f.ctx, a))
		got, err = f.OAuth2Apps.GetByID(f.ctx, alice.ID, a.ID)
		is.NoErr(err)
		is.Equal(*got, *a)

		isCategory(is, f.OAuth2Apps.Delete(f.ctx, bob.ID, a.ID), errs.ErrNotFound, "OAuth2 application does not exist")
		is.NoErr(f.OAuth2Apps.Delete(f.ctx, alice.ID, a.ID))
		_, err = f.OAuth2Apps.GetByClientID(f.ctx, "c1")
		isCategory(is, err, errs.ErrNotFound, "OAuth2 application does not exist")
	},
	"GrantsCodesAndCounter": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		a := f.oauth2App(alice.ID, "c1")
		g, err := f.OAuth2Grants.GetOrCreate(f.ctx, &oauth2.Grant{UserID: alice.ID, AppID: a.ID, Scope: "openid", Nonce: "n1"})
		is.NoErr(err)
		is.Equal(g.Counter, int64(1))
		again, err := f.OAuth2Grants.GetOrCreate(f.ctx, &oauth2.Grant{UserID: alice.ID, AppID: a.ID, Scope: "read:user", Nonce: "n2"})
		is.NoErr(err)
		is.Equal(again.ID, g.ID)
		is.Equal(again.Scope, "read:user")
		is.Equal(again.Nonce, "n2")
		found, err := f.OAuth2Grants.GetByUserApp(f.ctx, alice.ID, a.ID)
		is.NoErr(err)
		is.Equal(*found, *again)
		_, err = f.OAuth2Grants.GetByUserApp(f.ctx, alice.ID+1000, a.ID)
		isCategory(is, err, errs.ErrNotFound, "OAuth2 grant does not exist")

		// The counter moves only from the value expected.
		moved, err := f.OAuth2Grants.Advance(f.ctx, g.ID, 1)
		is.NoErr(err)
		is.True(moved)
		moved, err = f.OAuth2Grants.Advance(f.ctx, g.ID, 1)
		is.NoErr(err)
		is.True(!moved)
		got, err := f.OAuth2Grants.GetByID(f.ctx, g.ID)
		is.NoErr(err)
		is.Equal(got.Counter, int64(2))

		// A code is taken once.
		until := time.Now().Add(time.Minute).UTC().Truncate(time.Second)
		c := &oauth2.AuthCode{GrantID: g.ID, CodeHash: oauth2.HashCode("code"), RedirectURI: "https://a.example/cb",
			CodeChallenge: "ch", CodeChallengeMethod: oauth2.PKCES256, ValidUntil: until}
		is.NoErr(f.OAuth2Grants.CreateCode(f.ctx, c))
		taken, err := f.OAuth2Grants.TakeCode(f.ctx, oauth2.HashCode("code"))
		is.NoErr(err)
		is.Equal(*taken, *c)
		again2, err := f.OAuth2Grants.TakeCode(f.ctx, oauth2.HashCode("code"))
		is.NoErr(err)
		is.True(again2.Used)
		_, err = f.OAuth2Grants.TakeCode(f.ctx, oauth2.HashCode("nope"))
		isCategory(is, err, errs.ErrNotFound, "authorization code does not exist")

		// Expired codes are swept; deleting the application takes its grants.
		old := &oauth2.AuthCode{GrantID: g.ID, CodeHash: oauth2.HashCode("old"), RedirectURI: "x", ValidUntil: until.Add(-time.Hour)}
		is.NoErr(f.OAuth2Grants.CreateCode(f.ctx, old))
		is.NoErr(f.OAuth2Grants.DeleteExpiredCodes(f.ctx, time.Now()))
		_, err = f.OAuth2Grants.TakeCode(f.ctx, oauth2.HashCode("old"))
		isCategory(is, err, errs.ErrNotFound, "authorization code does not exist")
		is.NoErr(f.OAuth2Apps.Delete(f.ctx, alice.ID, a.ID))
		_, err = f.OAuth2Grants.GetByID(f.ctx, g.ID)
		isCategory(is, err, errs.ErrNotFound, "OAuth2 grant does not exist")
	},
}
