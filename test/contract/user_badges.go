package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

// badge defines a badge with slug.
func (f *fixture) badge(slug string) *user.Badge {
	f.t.Helper()
	b := &user.Badge{Slug: slug, Description: "the " + slug + " badge", ImageURL: "https://example.com/" + slug + ".png"}
	if err := f.Badges.Create(f.ctx, b); err != nil {
		f.t.Fatalf("badge %q: %v", slug, err)
	}
	if b.ID == 0 {
		f.t.Fatalf("badge %q: id not set", slug)
	}
	return b
}

// badgeSlugs are the slugs of list, in order.
func badgeSlugs(list []*user.Badge) []string {
	out := make([]string, 0, len(list))
	for _, b := range list {
		out = append(out, b.Slug)
	}
	return out
}

var userBadgeTests = map[string]func(t *testing.T, f *fixture){
	"DefineListDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		f.badge("zeta")
		a := f.badge("alpha")
		err := f.Badges.Create(f.ctx, &user.Badge{Slug: "alpha"})
		isCategory(is, err, errs.ErrConflict, "badge already exists")

		all, err := f.Badges.All(f.ctx)
		is.NoErr(err)
		is.Equal(badgeSlugs(all), []string{"alpha", "zeta"})
		is.Equal(*all[0], *a)

		found, err := f.Badges.BySlugs(f.ctx, []string{"zeta", "nope", "alpha"})
		is.NoErr(err)
		is.Equal(badgeSlugs(found), []string{"alpha", "zeta"})

		is.NoErr(f.Badges.Delete(f.ctx, "zeta"))
		isCategory(is, f.Badges.Delete(f.ctx, "zeta"), errs.ErrNotFound, "badge does not exist")
	},
	"GiveIsIdempotentAndTake": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		a, b, c := f.badge("a"), f.badge("b"), f.badge("c")
		is.NoErr(f.Badges.Give(f.ctx, alice.ID, []int64{b.ID, a.ID}))
		is.NoErr(f.Badges.Give(f.ctx, alice.ID, []int64{a.ID, c.ID})) // a is held: no-op for it
		got, err := f.Badges.OfUser(f.ctx, alice.ID)
		is.NoErr(err)
		is.Equal(badgeSlugs(got), []string{"b", "a", "c"}) // in the order given
		none, err := f.Badges.OfUser(f.ctx, bob.ID)
		is.NoErr(err)
		is.Equal(len(none), 0)

		is.NoErr(f.Badges.Take(f.ctx, alice.ID, []int64{a.ID}))
		is.NoErr(f.Badges.Take(f.ctx, bob.ID, []int64{a.ID})) // not held: skipped
		got, err = f.Badges.OfUser(f.ctx, alice.ID)
		is.NoErr(err)
		is.Equal(badgeSlugs(got), []string{"b", "c"})
	},
	"HoldingsGoWithUserAndBadge": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		a, b := f.badge("a"), f.badge("b")
		is.NoErr(f.Badges.Give(f.ctx, alice.ID, []int64{a.ID, b.ID}))
		is.NoErr(f.Badges.Give(f.ctx, bob.ID, []int64{a.ID}))

		is.NoErr(f.Badges.Delete(f.ctx, "a"))
		got, err := f.Badges.OfUser(f.ctx, alice.ID)
		is.NoErr(err)
		is.Equal(badgeSlugs(got), []string{"b"})

		is.NoErr(f.Users.Delete(f.ctx, alice.ID))
		is.NoErr(f.Badges.Give(f.ctx, bob.ID, []int64{b.ID})) // the badge outlives its holder
		got, err = f.Badges.OfUser(f.ctx, bob.ID)
		is.NoErr(err)
		is.Equal(badgeSlugs(got), []string{"b"})
	},
}
