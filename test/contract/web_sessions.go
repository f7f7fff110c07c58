package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

var webSessionTests = map[string]func(t *testing.T, f *fixture){
	"CreateFindDeleteExpire": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		anon := &user.WebSession{TokenHash: "h-anon", Created: at(1), Expires: at(16)}
		is.NoErr(f.WebSessions.Create(f.ctx, anon))
		is.True(anon.ID != 0)
		signed := &user.WebSession{TokenHash: "h-alice", UserID: alice.ID, Created: at(1), Expires: at(50)}
		is.NoErr(f.WebSessions.Create(f.ctx, signed))
		pending := &user.WebSession{TokenHash: "h-pending", PendingUserID: alice.ID, Created: at(1), Expires: at(16)}
		is.NoErr(f.WebSessions.Create(f.ctx, pending))
		isCategory(is, f.WebSessions.Create(f.ctx, &user.WebSession{TokenHash: "h-anon", Created: at(1), Expires: at(2)}),
			errs.ErrConflict, "session exists already")

		got, err := f.WebSessions.GetByHash(f.ctx, "h-alice")
		is.NoErr(err)
		is.Equal(*got, *signed)
		got, err = f.WebSessions.GetByHash(f.ctx, "h-pending")
		is.NoErr(err)
		is.Equal(*got, *pending)
		_, err = f.WebSessions.GetByHash(f.ctx, "h-none")
		isCategory(is, err, errs.ErrNotFound, "session does not exist")

		// Expired at the instant they end.
		is.NoErr(f.WebSessions.DeleteExpired(f.ctx, at(16)))
		_, err = f.WebSessions.GetByHash(f.ctx, "h-anon")
		isCategory(is, err, errs.ErrNotFound, "session does not exist")
		_, err = f.WebSessions.GetByHash(f.ctx, "h-alice")
		is.NoErr(err)

		is.NoErr(f.WebSessions.Delete(f.ctx, signed.ID))
		is.NoErr(f.WebSessions.Delete(f.ctx, signed.ID))
		_, err = f.WebSessions.GetByHash(f.ctx, "h-alice")
		isCategory(is, err, errs.ErrNotFound, "session does not exist")
	},
	"GoWithTheirAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		bob := f.user("bob")
		is.NoErr(f.WebSessions.Create(f.ctx, &user.WebSession{TokenHash: "h-bob", UserID: bob.ID, Created: at(1), Expires: at(50)}))
		is.NoErr(f.WebSessions.Create(f.ctx, &user.WebSession{TokenHash: "h-bob-2fa", PendingUserID: bob.ID, Created: at(1), Expires: at(50)}))
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		_, err := f.WebSessions.GetByHash(f.ctx, "h-bob")
		isCategory(is, err, errs.ErrNotFound, "session does not exist")
		_, err = f.WebSessions.GetByHash(f.ctx, "h-bob-2fa")
		isCategory(is, err, errs.ErrNotFound, "session does not exist")
	},
}
