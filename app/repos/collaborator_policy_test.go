package repos_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// Collaborators: active individuals other than the owner, never across a
// block either way; removal ends a watch the user may no longer read.
// (Who may change collaborators, repository admins, is the route's code.)
func TestCollaboratorPolicyAddChangesAndRemoves(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool", private)
	a := w.mustOpen(alice, r)

	_, err := w.open(bob, r)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.NoErr(w.svc.Collaborators().Add(w.Ctx, a, "Bob", permission.ModeRead))
	ab := w.mustOpen(bob, r)
	is.True(ab.Perm.CanRead(permission.UnitCode))
	is.True(!ab.Perm.CanWrite(permission.UnitCode))
	is.NoErr(w.svc.Collaborators().Check(w.Ctx, a, "bob"))

	is.NoErr(w.svc.Collaborators().Add(w.Ctx, a, "bob", permission.ModeWrite)) // changes the mode
	c, err := w.Stores.Collaborators.Get(w.Ctx, r.ID, bob.ID)
	is.NoErr(err)
	is.Equal(c.Mode, permission.ModeWrite)

	is.NoErr(w.Stores.Watches.Watch(w.Ctx, bob.ID, r.ID))
	is.NoErr(w.svc.Collaborators().Remove(w.Ctx, a, "bob"))
	_, err = w.open(bob, r)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.Stores.Watches.Get(w.Ctx, bob.ID, r.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // no longer watches what it cannot read
	err = w.svc.Collaborators().Check(w.Ctx, a, "bob")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.NoErr(w.svc.Collaborators().Remove(w.Ctx, a, "bob")) // removing a non-collaborator is a no-op
}

func TestCollaboratorPolicyRemovalKeepsWatchOfPublicRepository(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool")
	a := w.mustOpen(alice, r)
	is.NoErr(w.svc.Collaborators().Add(w.Ctx, a, "bob", permission.ModeWrite))
	is.NoErr(w.Stores.Watches.Watch(w.Ctx, bob.ID, r.ID))

	is.NoErr(w.svc.Collaborators().Remove(w.Ctx, a, "bob"))
	_, err := w.Stores.Watches.Get(w.Ctx, bob.ID, r.ID)
	is.NoErr(err) // still reads it
}

func TestCollaboratorPolicyRefusesOwnerOrganisationsInactiveAndUnknown(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice := w.User("alice")
	w.User("sleeper", func(u *user.User) { u.IsActive = false })
	w.User("banned", func(u *user.User) { u.ProhibitLogin = true })
	w.org("acme", alice)
	r := w.repo(alice, "tool")
	a := w.mustOpen(alice, r)

	for _, name := range []string{"alice", "acme", "sleeper", "banned", "nobody"} {
		err := w.svc.Collaborators().Add(w.Ctx, a, name, permission.ModeRead)
		is.True(errors.Is(err, errs.ErrInvalid)) // a 422 for each
	}
	list, total, err := w.svc.Collaborators().List(w.Ctx, a, pageOne)
	is.NoErr(err)
	is.Equal(total, int64(0))
	is.Equal(len(list), 0)
}

func TestCollaboratorPolicyBlocksEitherWayRefuse(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, carol := w.User("alice"), w.User("bob"), w.User("carol")
	r := w.repo(alice, "tool")
	a := w.mustOpen(alice, r)
	w.block(alice, bob)   // the owner blocks the user
	w.block(carol, alice) // the user blocks the owner

	for _, name := range []string{"bob", "carol"} {
		err := w.svc.Collaborators().Add(w.Ctx, a, name, permission.ModeWrite)
		is.True(errors.Is(err, errs.ErrForbidden))
		is.Equal(errs.Message(err), "user is blocked")
	}
	_, total, err := w.svc.Collaborators().List(w.Ctx, a, pageOne)
	is.NoErr(err)
	is.Equal(total, int64(0))
}

func TestCollaboratorPolicyOrganisationRepositoryIgnoresMemberBlocks(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, bob := w.User("owner"), w.User("bob")
	o := w.org("acme", owner)
	r := w.repo(&o.User, "tool")
	w.block(bob, owner) // a block of a member is no block of the organisation

	is.NoErr(w.svc.Collaborators().Add(w.Ctx, w.mustOpen(owner, r), "bob", permission.ModeRead))
	w.block(&o.User, bob) // the organisation's own block refuses
	err := w.svc.Collaborators().Add(w.Ctx, w.mustOpen(owner, r), "bob", permission.ModeWrite)
	is.True(errors.Is(err, errs.ErrForbidden))
	c, err := w.Stores.Collaborators.Get(w.Ctx, r.ID, bob.ID)
	is.NoErr(err)
	is.Equal(c.Mode, permission.ModeRead) // unchanged
}
