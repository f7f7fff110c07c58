package contract

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// follow records that a follows b.
func (f *fixture) follow(a, b *user.User) {
	f.t.Helper()
	if err := f.Follows.Follow(f.ctx, a.ID, b.ID); err != nil {
		f.t.Fatalf("%q follows %q: %v", a.Name, b.Name, err)
	}
}

// followCounts reads an account's followers and following counters afresh.
func (f *fixture) followCounts(u *user.User) [2]int {
	f.t.Helper()
	got, err := f.Users.GetByID(f.ctx, u.ID)
	if err != nil {
		f.t.Fatalf("get %q: %v", u.Name, err)
	}
	return [2]int{got.NumFollowers, got.NumFollowing}
}

// names are the accounts' names, in order.
func names(list []*user.User) []string {
	out := make([]string, len(list))
	for i, u := range list {
		out[i] = u.Name
	}
	return out
}

var followTests = map[string]func(t *testing.T, f *fixture){
	"FollowCheckUnfollowAndCounters": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		f.follow(alice, bob)
		f.follow(alice, bob) // twice is once
		f.follow(carol, bob)

		ok, err := f.Follows.IsFollowing(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.True(ok)
		ok, err = f.Follows.IsFollowing(f.ctx, bob.ID, alice.ID)
		is.NoErr(err)
		is.True(!ok) // one direction only
		is.Equal(f.followCounts(bob), [2]int{2, 0})
		is.Equal(f.followCounts(alice), [2]int{0, 1})

		is.NoErr(f.Follows.Unfollow(f.ctx, alice.ID, bob.ID))
		is.NoErr(f.Follows.Unfollow(f.ctx, alice.ID, bob.ID)) // none left: no error
		ok, err = f.Follows.IsFollowing(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.True(!ok)
		is.Equal(f.followCounts(bob), [2]int{1, 0})
		is.Equal(f.followCounts(alice), [2]int{0, 0})
	},
	"AccountWritesKeepCounters": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		f.follow(alice, bob)
		bob.FullName = "Robert" // bob as read before the follow
		is.NoErr(f.Users.Update(f.ctx, bob))
		is.Equal(f.followCounts(bob), [2]int{1, 0})
	},
	"MissingAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		err := f.Follows.Follow(f.ctx, alice.ID, alice.ID+1000)
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
		is.Equal(f.followCounts(alice), [2]int{0, 0})
	},
	"ListsInFollowOrderWithTotals": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol, dave := f.user("alice"), f.user("bob"), f.user("carol"), f.user("dave")
		acme := f.orgCreate("acme", alice, user.VisibilityPublic)
		f.follow(dave, alice)
		f.follow(bob, alice)
		f.follow(carol, alice)
		f.follow(alice, dave)
		f.follow(alice, &acme.User) // an organisation can be followed

		list, total, err := f.Follows.Followers(f.ctx, alice.ID, ports.FollowList{})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(names(list), []string{"dave", "bob", "carol"})
		is.Equal(list[0].NumFollowing, 1) // records carry their counters
		is.Equal(list[0].NumFollowers, 1)

		list, total, err = f.Follows.Followers(f.ctx, alice.ID, ports.FollowList{ListOptions: ports.ListOptions{Page: 2, Limit: 2}})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(names(list), []string{"carol"})

		list, total, err = f.Follows.Following(f.ctx, alice.ID, ports.FollowList{})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(names(list), []string{"dave", "acme"})
		is.Equal(f.followCounts(&acme.User), [2]int{1, 0})
	},
	"ListsKeepOnlyVisibleAccounts": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		pub := f.user("pub")
		lim := f.user("lim", func(u *user.User) { u.Visibility = user.VisibilityLimited })
		priv := f.user("priv", func(u *user.User) { u.Visibility = user.VisibilityPrivate })
		for _, u := range []*user.User{pub, lim, priv} {
			f.follow(u, alice)
		}
		anon := ports.FollowList{Visibilities: []user.Visibility{user.VisibilityPublic}}
		list, total, err := f.Follows.Followers(f.ctx, alice.ID, anon)
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(names(list), []string{"pub"})

		signed := ports.FollowList{Visibilities: []user.Visibility{user.VisibilityPublic, user.VisibilityLimited}}
		list, _, err = f.Follows.Followers(f.ctx, alice.ID, signed)
		is.NoErr(err)
		is.Equal(names(list), []string{"pub", "lim"})

		signed.IncludeUserID = priv.ID // the private follower itself
		list, total, err = f.Follows.Followers(f.ctx, alice.ID, signed)
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(names(list), []string{"pub", "lim", "priv"})
		is.Equal(f.followCounts(alice), [2]int{3, 0}) // the counter counts all
	},
	"SeverBothWays": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		f.follow(alice, bob)
		f.follow(bob, alice)
		f.follow(carol, alice)
		is.NoErr(f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			return tx.Follows.Sever(ctx, alice.ID, bob.ID)
		}))
		for _, p := range [][2]*user.User{{alice, bob}, {bob, alice}} {
			ok, err := f.Follows.IsFollowing(f.ctx, p[0].ID, p[1].ID)
			is.NoErr(err)
			is.True(!ok)
		}
		is.Equal(f.followCounts(alice), [2]int{1, 0})
		is.Equal(f.followCounts(bob), [2]int{0, 0})
		is.NoErr(f.Follows.Sever(f.ctx, alice.ID, bob.ID)) // nothing left: no error
	},
	"DeletedAccountsLeaveCountersRight": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		acme := f.orgCreate("acme", carol, user.VisibilityPublic)
		f.follow(alice, bob)
		f.follow(bob, alice)
		f.follow(carol, bob)
		f.follow(alice, &acme.User)
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		is.Equal(f.followCounts(alice), [2]int{0, 1})
		is.Equal(f.followCounts(carol), [2]int{0, 0})
		is.NoErr(f.Orgs.Delete(f.ctx, acme.ID))
		is.Equal(f.followCounts(alice), [2]int{0, 0})
	},
}
