package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var actorKeyTests = map[string]func(t *testing.T, f *fixture){
	"FirstPairStaysAndGoesWithTheAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		_, err := f.ActorKeys.Get(f.ctx, alice.ID)
		is.True(errors.Is(err, errs.ErrNotFound))

		got, err := f.ActorKeys.Add(f.ctx, &ports.ActorKey{UserID: alice.ID, PublicPEM: "pub-1", PrivateSealed: "sealed-1", Created: at(1)})
		is.NoErr(err)
		is.Equal(*got, ports.ActorKey{UserID: alice.ID, PublicPEM: "pub-1", PrivateSealed: "sealed-1", Created: at(1)})
		// A second pair made by a racing request loses to the stored one.
		got, err = f.ActorKeys.Add(f.ctx, &ports.ActorKey{UserID: alice.ID, PublicPEM: "pub-2", PrivateSealed: "sealed-2", Created: at(2)})
		is.NoErr(err)
		is.Equal(got.PublicPEM, "pub-1")
		read, err := f.ActorKeys.Get(f.ctx, alice.ID)
		is.NoErr(err)
		is.Equal(*read, *got)

		_, err = f.ActorKeys.Add(f.ctx, &ports.ActorKey{UserID: 999999, PublicPEM: "p", PrivateSealed: "s", Created: at(1)})
		is.True(errors.Is(err, errs.ErrNotFound))

		is.NoErr(f.Users.Delete(f.ctx, alice.ID))
		_, err = f.ActorKeys.Get(f.ctx, alice.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
	},
}
