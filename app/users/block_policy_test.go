package users_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// Blocks: a user blocks another (or an organisation's owner for it); the
// ties between the two go with the block; refusals for oneself, twice,
// organisations, an organisation's own members and people acting for
// others.
func TestBlockPolicySeversTiesBothWays(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	ra, rb := w.Repo(alice, "alpha"), w.Repo(bob, "beta")
	w.Must(w.Stores.Stars.Star(w.Ctx, bob.ID, ra.ID))
	w.Must(w.Stores.Watches.Watch(w.Ctx, alice.ID, rb.ID))
	w.Must(w.Stores.Collaborators.Set(w.Ctx, repository.Collaborator{RepoID: ra.ID, UserID: bob.ID, Mode: permission.ModeWrite}))
	w.Must(w.Stores.Transfers.Create(w.Ctx, &repository.Transfer{RepoID: rb.ID, DoerID: bob.ID, RecipientID: alice.ID, Created: w.Clock.At}))
	i := &issue.Issue{RepoID: ra.ID, PosterID: alice.ID, Title: "help", CreatedAt: w.Clock.At, UpdatedAt: w.Clock.At}
	w.Must(w.Stores.Issues.Create(w.Ctx, i))
	w.Must(w.Stores.Issues.SetAssignees(w.Ctx, i.ID, []int64{alice.ID, bob.ID}))
	other := w.Repo(w.User("carol"), "gamma")
	w.Must(w.Stores.Stars.Star(w.Ctx, bob.ID, other.ID)) // a tie to someone else stays

	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, bob, "spam"))

	is.Equal(w.blocked(alice), []string{"bob"})
	is.NoErr(w.svc.Blocks().Check(w.Ctx, alice, bob))
	starred, err := w.Stores.Stars.IsStarred(w.Ctx, bob.ID, ra.ID)
	is.NoErr(err)
	is.True(!starred)
	_, err = w.Stores.Watches.Get(w.Ctx, alice.ID, rb.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // both ways
	_, err = w.Stores.Collaborators.Get(w.Ctx, ra.ID, bob.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.Stores.Transfers.Get(w.Ctx, rb.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	as, err := w.Stores.Issues.Assignees(w.Ctx, []int64{i.ID})
	is.NoErr(err)
	is.Equal(as[i.ID], []int64{alice.ID})
	starred, err = w.Stores.Stars.IsStarred(w.Ctx, bob.ID, other.ID)
	is.NoErr(err)
	is.True(starred)

	is.True(errors.Is(w.svc.CheckNotBlocked(w.Ctx, bob, alice.ID), errs.ErrForbidden))
	is.NoErr(w.svc.CheckNotBlocked(w.Ctx, alice, bob.ID)) // the blocker is not held back
}

func TestBlockPolicyRefusals(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, mallory := w.User("alice"), w.User("bob"), w.User("mallory")
	o := w.org("acme", alice)

	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, alice, ""), user.ErrCannotBlock)         // oneself
	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, &o.User, ""), user.ErrBlockOrganization) // an organisation
	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(mallory), alice, bob, ""), user.ErrCannotBlock)         // for someone else
	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, bob, ""))
	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, bob, ""), user.ErrCannotBlock) // twice
	is.Equal(w.blocked(alice), []string{"bob"})
	is.Equal(len(w.blocked(mallory)), 0)

	err := w.svc.Blocks().Block(w.Ctx, caller(nil), alice, bob, "")
	is.True(errors.Is(err, errs.ErrUnauthenticated))
}

func TestBlockPolicyOrganisationOwnersBlockForIt(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, member, troll := w.User("owner"), w.User("member"), w.User("troll")
	o := w.org("acme", owner, member)

	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(member), &o.User, troll, ""), user.ErrCannotBlock) // a plain member may not
	is.Equal(w.svc.Blocks().Block(w.Ctx, caller(owner), &o.User, member, ""), user.ErrCannotBlock) // nor block its own member
	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(owner), &o.User, troll, ""))
	is.Equal(w.blocked(&o.User), []string{"troll"})
}

func TestBlockPolicySiteAdministrators(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, root := w.User("alice"), w.User("bob"), w.User("root", admin)

	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(root), alice, bob, "")) // an admin acts for anyone
	is.Equal(w.blocked(alice), []string{"bob"})
	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, root, ""))
	is.NoErr(w.svc.CheckNotBlocked(w.Ctx, root, alice.ID)) // and is never held back
}

func TestBlockPolicyUnblock(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.Repo(alice, "alpha")
	w.Must(w.Stores.Stars.Star(w.Ctx, bob.ID, r.ID))
	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(alice), alice, bob, ""))

	is.Equal(w.svc.Blocks().Unblock(w.Ctx, caller(bob), alice, bob), user.ErrCannotUnblock) // the blockee may not
	is.NoErr(w.svc.Blocks().Unblock(w.Ctx, caller(alice), alice, bob))
	is.Equal(w.svc.Blocks().Unblock(w.Ctx, caller(alice), alice, bob), user.ErrCannotUnblock) // not blocked any more
	is.Equal(len(w.blocked(alice)), 0)
	is.True(errors.Is(w.svc.Blocks().Check(w.Ctx, alice, bob), errs.ErrNotFound))
	starred, err := w.Stores.Stars.IsStarred(w.Ctx, bob.ID, r.ID)
	is.NoErr(err)
	is.True(!starred) // the severed ties stay severed
}
