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
	alice, bob := w.user("alice"), w.user("bob")
	ra, rb := w.repo(alice, "alpha"), w.repo(bob, "beta")
	w.must(w.stores.Stars.Star(w.ctx, bob.ID, ra.ID))
	w.must(w.stores.Watches.Watch(w.ctx, alice.ID, rb.ID))
	w.must(w.stores.Collaborators.Set(w.ctx, repository.Collaborator{RepoID: ra.ID, UserID: bob.ID, Mode: permission.ModeWrite}))
	w.must(w.stores.Transfers.Create(w.ctx, &repository.Transfer{RepoID: rb.ID, DoerID: bob.ID, RecipientID: alice.ID, Created: w.clock.at}))
	i := &issue.Issue{RepoID: ra.ID, PosterID: alice.ID, Title: "help", CreatedAt: w.clock.at, UpdatedAt: w.clock.at}
	w.must(w.stores.Issues.Create(w.ctx, i))
	w.must(w.stores.Issues.SetAssignees(w.ctx, i.ID, []int64{alice.ID, bob.ID}))
	other := w.repo(w.user("carol"), "gamma")
	w.must(w.stores.Stars.Star(w.ctx, bob.ID, other.ID)) // a tie to someone else stays

	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(alice), alice, bob, "spam"))

	is.Equal(w.blocked(alice), []string{"bob"})
	is.NoErr(w.svc.Blocks().Check(w.ctx, alice, bob))
	starred, err := w.stores.Stars.IsStarred(w.ctx, bob.ID, ra.ID)
	is.NoErr(err)
	is.True(!starred)
	_, err = w.stores.Watches.Get(w.ctx, alice.ID, rb.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // both ways
	_, err = w.stores.Collaborators.Get(w.ctx, ra.ID, bob.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.stores.Transfers.Get(w.ctx, rb.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	as, err := w.stores.Issues.Assignees(w.ctx, []int64{i.ID})
	is.NoErr(err)
	is.Equal(as[i.ID], []int64{alice.ID})
	starred, err = w.stores.Stars.IsStarred(w.ctx, bob.ID, other.ID)
	is.NoErr(err)
	is.True(starred)

	is.True(errors.Is(w.svc.CheckNotBlocked(w.ctx, bob, alice.ID), errs.ErrForbidden))
	is.NoErr(w.svc.CheckNotBlocked(w.ctx, alice, bob.ID)) // the blocker is not held back
}

func TestBlockPolicyRefusals(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, mallory := w.user("alice"), w.user("bob"), w.user("mallory")
	o := w.org("acme", alice)

	is.Equal(w.svc.Blocks().Block(w.ctx, caller(alice), alice, alice, ""), user.ErrCannotBlock)         // oneself
	is.Equal(w.svc.Blocks().Block(w.ctx, caller(alice), alice, &o.User, ""), user.ErrBlockOrganization) // an organisation
	is.Equal(w.svc.Blocks().Block(w.ctx, caller(mallory), alice, bob, ""), user.ErrCannotBlock)         // for someone else
	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(alice), alice, bob, ""))
	is.Equal(w.svc.Blocks().Block(w.ctx, caller(alice), alice, bob, ""), user.ErrCannotBlock) // twice
	is.Equal(w.blocked(alice), []string{"bob"})
	is.Equal(len(w.blocked(mallory)), 0)

	err := w.svc.Blocks().Block(w.ctx, caller(nil), alice, bob, "")
	is.True(errors.Is(err, errs.ErrUnauthenticated))
}

func TestBlockPolicyOrganisationOwnersBlockForIt(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, member, troll := w.user("owner"), w.user("member"), w.user("troll")
	o := w.org("acme", owner, member)

	is.Equal(w.svc.Blocks().Block(w.ctx, caller(member), &o.User, troll, ""), user.ErrCannotBlock) // a plain member may not
	is.Equal(w.svc.Blocks().Block(w.ctx, caller(owner), &o.User, member, ""), user.ErrCannotBlock) // nor block its own member
	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(owner), &o.User, troll, ""))
	is.Equal(w.blocked(&o.User), []string{"troll"})
}

func TestBlockPolicySiteAdministrators(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, root := w.user("alice"), w.user("bob"), w.user("root", admin)

	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(root), alice, bob, "")) // an admin acts for anyone
	is.Equal(w.blocked(alice), []string{"bob"})
	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(alice), alice, root, ""))
	is.NoErr(w.svc.CheckNotBlocked(w.ctx, root, alice.ID)) // and is never held back
}

func TestBlockPolicyUnblock(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.user("alice"), w.user("bob")
	r := w.repo(alice, "alpha")
	w.must(w.stores.Stars.Star(w.ctx, bob.ID, r.ID))
	is.NoErr(w.svc.Blocks().Block(w.ctx, caller(alice), alice, bob, ""))

	is.Equal(w.svc.Blocks().Unblock(w.ctx, caller(bob), alice, bob), user.ErrCannotUnblock) // the blockee may not
	is.NoErr(w.svc.Blocks().Unblock(w.ctx, caller(alice), alice, bob))
	is.Equal(w.svc.Blocks().Unblock(w.ctx, caller(alice), alice, bob), user.ErrCannotUnblock) // not blocked any more
	is.Equal(len(w.blocked(alice)), 0)
	is.True(errors.Is(w.svc.Blocks().Check(w.ctx, alice, bob), errs.ErrNotFound))
	starred, err := w.stores.Stars.IsStarred(w.ctx, bob.ID, r.ID)
	is.NoErr(err)
	is.True(!starred) // the severed ties stay severed
}
