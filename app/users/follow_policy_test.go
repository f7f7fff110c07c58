package users_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// following reports whether a follows b, from the store.
func (w *world) following(a, b *user.User) bool {
	w.T.Helper()
	ok, err := w.Stores.Follows.IsFollowing(w.Ctx, a.ID, b.ID)
	w.Must(err)
	return ok
}

// counts are u's followers and following counters, read afresh.
func (w *world) counts(u *user.User) [2]int {
	w.T.Helper()
	got, err := w.Stores.Users.GetByID(w.Ctx, u.ID)
	w.Must(err)
	return [2]int{got.NumFollowers, got.NumFollowing}
}

// Follows: following oneself does nothing; a block either way forbids a
// follow, except for a site administrator held back by one; a block
// removes the follows both ways.
func TestFollowPolicyBlocks(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, carol := w.User("alice"), w.User("bob"), w.User("carol")
	root := w.User("root", admin)
	f := w.svc.Follows()

	is.NoErr(f.Follow(w.Ctx, caller(alice), alice))
	is.True(!w.following(alice, alice))

	is.NoErr(f.Follow(w.Ctx, caller(alice), bob))
	is.NoErr(f.Follow(w.Ctx, caller(bob), alice))
	is.NoErr(f.Follow(w.Ctx, caller(carol), bob))
	is.Equal(w.counts(bob), [2]int{2, 1})

	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(bob), bob, alice, ""))
	is.True(!w.following(alice, bob))
	is.True(!w.following(bob, alice))
	is.True(w.following(carol, bob)) // another's follow stays
	is.Equal(w.counts(bob), [2]int{1, 0})
	is.Equal(w.counts(alice), [2]int{0, 0})

	is.True(errors.Is(f.Follow(w.Ctx, caller(alice), bob), user.ErrBlocked)) // the blocked one
	is.True(errors.Is(f.Follow(w.Ctx, caller(bob), alice), user.ErrBlocked)) // the blocker
	is.True(!w.following(alice, bob))

	is.NoErr(w.svc.Blocks().Block(w.Ctx, caller(carol), carol, root, ""))
	is.NoErr(f.Follow(w.Ctx, caller(root), carol)) // an administrator is not held back
	is.True(w.following(root, carol))
}

// Lists and checks answer 404 for an account the caller may not see, and
// leave hidden accounts out of the page and its total.
func TestFollowPolicyVisibility(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	priv := w.User("priv", func(u *user.User) { u.Visibility = user.VisibilityPrivate })
	f := w.svc.Follows()
	is.NoErr(f.Follow(w.Ctx, caller(priv), bob))
	is.NoErr(f.Follow(w.Ctx, caller(alice), bob))

	page := ports.ListOptions{Page: 1, Limit: 10}
	list, total, err := f.Followers(w.Ctx, caller(alice), bob, page)
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(list[0].Name, "alice")
	_, total, err = f.Followers(w.Ctx, caller(priv), bob, page)
	is.NoErr(err)
	is.Equal(total, int64(2)) // priv sees itself

	_, _, err = f.Following(w.Ctx, caller(alice), priv, page)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.True(errors.Is(f.Check(w.Ctx, caller(alice), priv, bob), errs.ErrNotFound))
	is.True(errors.Is(f.Follow(w.Ctx, caller(alice), priv), errs.ErrNotFound))
	is.NoErr(f.Check(w.Ctx, caller(priv), priv, bob))
}
