package contract

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var userTests = map[string]func(t *testing.T, f *fixture){
	"CreateAndGetRoundTripsEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("Alice")

		got, err := f.Users.GetByID(f.ctx, u.ID)
		is.NoErr(err)
		is.Equal(*got, *u)

		got, err = f.Users.GetByName(f.ctx, "Alice")
		is.NoErr(err)
		is.Equal(*got, *u)
	},
	"ZeroTimesRoundTripAsZero": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("never", func(u *user.User) { u.Created, u.Updated, u.LastLogin = time.Time{}, time.Time{}, time.Time{} })

		got, err := f.Users.GetByID(f.ctx, u.ID)
		is.NoErr(err)
		is.True(got.Created.IsZero())
		is.True(got.Updated.IsZero())
		is.True(got.LastLogin.IsZero())
	},
	"TimesComeBackInUTC": func(t *testing.T, f *fixture) {
		is := is.New(t)
		zone := time.FixedZone("UTC+5", 5*3600)
		local := time.Date(2024, 1, 2, 15, 4, 5, 6000, zone)
		u := f.user("zoned", func(u *user.User) { u.LastLogin = local })

		got, err := f.Users.GetByID(f.ctx, u.ID)
		is.NoErr(err)
		is.True(got.LastLogin.Equal(local))
		is.Equal(got.LastLogin.Location(), time.UTC)
	},
	"GetByNamesFindsAccountsInAnyCaseOnce": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("Alice"), f.user("bob")
		got, err := f.Users.GetByNames(f.ctx, []string{"ALICE", "nobody", "Bob", "alice"})
		is.NoErr(err)
		is.Equal(len(got), 2)
		is.Equal(got[0].ID, alice.ID)
		is.Equal(got[1].ID, bob.ID)
		got, err = f.Users.GetByNames(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(got), 0)
	},
	"GetByNameIsCaseInsensitive": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("MixedCase")
		for _, name := range []string{"mixedcase", "MIXEDCASE", "mIxEdCaSe"} {
			got, err := f.Users.GetByName(f.ctx, name)
			is.NoErr(err)
			is.Equal(got.ID, u.ID)
			is.Equal(got.Name, "MixedCase") // the name keeps its spelling
		}
	},
	"MissingUserIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		_, err := f.Users.GetByID(f.ctx, 424242)
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
		_, err = f.Users.GetByName(f.ctx, "nobody")
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
	},
	"TakenNameIsConflictWhateverTheCase": func(t *testing.T, f *fixture) {
		is := is.New(t)
		f.user("taken")
		err := f.Users.Create(f.ctx, newUser("TAKEN"))
		isCategory(is, err, errs.ErrConflict, "user already exists")
	},
	"UpdateWritesEveryColumn": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("before")
		u.Name, u.LowerName = "After", "after"
		u.FullName, u.Email, u.PasswordHash, u.PasswordVersion = "New Name", "after@example.com", "h2", 4
		u.IsAdmin, u.IsActive, u.ProhibitLogin, u.MustChangePassword, u.IsRestricted = false, false, false, false, false
		u.Visibility, u.Location, u.Website, u.Description = user.VisibilityPrivate, "", "", ""
		u.Language, u.Theme, u.DiffView, u.HideEmail, u.HideActivity = "de-DE", "light", "split", false, false
		u.AllowGitHook, u.AllowImportLocal, u.AllowCreateOrganization, u.MaxRepoCreation = false, false, false, 7
		u.TOTPSecret, u.Updated, u.LastLogin = "", at(9), time.Time{}
		is.NoErr(f.Users.Update(f.ctx, u))

		got, err := f.Users.GetByID(f.ctx, u.ID)
		is.NoErr(err)
		is.Equal(*got, *u)
		_, err = f.Users.GetByName(f.ctx, "before")
		is.True(errors.Is(err, errs.ErrNotFound)) // the old name is gone
	},
	"UpdateMissingOrToTakenName": func(t *testing.T, f *fixture) {
		is := is.New(t)
		missing := newUser("ghost")
		missing.ID = 424242
		isCategory(is, f.Users.Update(f.ctx, missing), errs.ErrNotFound, "user does not exist")

		f.user("first")
		second := f.user("second")
		second.Name, second.LowerName = "First", "first"
		isCategory(is, f.Users.Update(f.ctx, second), errs.ErrConflict, "user already exists")
	},
	"DeleteCascadesToEmailsTokensAndRedirects": func(t *testing.T, f *fixture) {
		is := is.New(t)
		gone := f.user("gone")
		kept := f.user("kept")
		f.email(gone.ID, "gone@example.com", true)
		f.email(kept.ID, "kept@example.com", true)
		f.token(gone.ID, "t", "aaaaaaaa")
		keptToken := f.token(kept.ID, "t", "aaaaaaaa")
		is.NoErr(f.Users.AddRedirect(f.ctx, "old-gone", gone.ID))
		is.NoErr(f.Users.AddRedirect(f.ctx, "old-kept", kept.ID))

		is.NoErr(f.Users.Delete(f.ctx, gone.ID))

		_, err := f.Users.GetByID(f.ctx, gone.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Emails.GetByEmail(f.ctx, "gone@example.com")
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Users.LookupRedirect(f.ctx, "old-gone")
		is.True(errors.Is(err, errs.ErrNotFound))
		found, err := f.Tokens.FindByLastEight(f.ctx, "aaaaaaaa")
		is.NoErr(err)
		is.Equal(ids(found, tokenID), []int64{keptToken.ID})

		// The other user is untouched.
		_, err = f.Users.GetByID(f.ctx, kept.ID)
		is.NoErr(err)
		_, err = f.Emails.GetByEmail(f.ctx, "kept@example.com")
		is.NoErr(err)
		id, err := f.Users.LookupRedirect(f.ctx, "old-kept")
		is.NoErr(err)
		is.Equal(id, kept.ID)

		isCategory(is, f.Users.Delete(f.ctx, gone.ID), errs.ErrNotFound, "user does not exist")
	},
	"DeletedNameCanBeTakenAgainWithANewID": func(t *testing.T, f *fixture) {
		is := is.New(t)
		old := f.user("reuse")
		is.NoErr(f.Users.Delete(f.ctx, old.ID))
		again := f.user("reuse")
		is.True(again.ID != old.ID) // ids are never reused, so stale references cannot hit the new account
	},
	"Count": func(t *testing.T, f *fixture) {
		is := is.New(t)
		n, err := f.Users.Count(f.ctx)
		is.NoErr(err)
		is.Equal(n, int64(0))
		f.user("one")
		f.user("org", func(u *user.User) { u.Kind = user.KindOrganization })
		n, err = f.Users.Count(f.ctx)
		is.NoErr(err)
		is.Equal(n, int64(2)) // every kind counts
	},
	"SearchFilters":    testUserSearchFilters,
	"SearchPagination": testUserSearchPagination,
	"Redirects":        testRedirects,
}

func userID(u *user.User) int64 { return u.ID }

func testUserSearchFilters(t *testing.T, f *fixture) {
	alice := f.user("alice", func(u *user.User) { u.FullName = "Alice Liddell" })
	bob := f.user("bob", func(u *user.User) { u.FullName = "Robert 100% Sure"; u.Visibility = user.VisibilityLimited })
	carol := f.user("carol_x", func(u *user.User) { u.FullName = "Carol"; u.Visibility = user.VisibilityPrivate })
	dave := f.user("dave", func(u *user.User) { u.FullName = "ALICE's friend" })
	org := f.user("alice-org", func(u *user.User) { u.Kind = user.KindOrganization })

	cases := []struct {
		name string
		q    ports.UserSearch
		want []int64
	}{
		{"all individuals", ports.UserSearch{}, []int64{alice.ID, bob.ID, carol.ID, dave.ID}},
		{"keyword in name or full name, any case", ports.UserSearch{Keyword: "ALIce"}, []int64{alice.ID, dave.ID}},
		{"keyword in the middle", ports.UserSearch{Keyword: "idd"}, []int64{alice.ID}},
		{"percent is literal", ports.UserSearch{Keyword: "100%"}, []int64{bob.ID}},
		{"percent alone matches only a percent", ports.UserSearch{Keyword: "%"}, []int64{bob.ID}},
		{"underscore is literal", ports.UserSearch{Keyword: "l_x"}, []int64{carol.ID}},
		{"underscore alone matches only an underscore", ports.UserSearch{Keyword: "_"}, []int64{carol.ID}},
		{"uid", ports.UserSearch{UID: bob.ID}, []int64{bob.ID}},
		{"login name", ports.UserSearch{LoginName: "dave"}, []int64{dave.ID}},
		{"visibilities", ports.UserSearch{Visibilities: []user.Visibility{user.VisibilityPublic}}, []int64{alice.ID, dave.ID}},
		{"visibilities plus self", ports.UserSearch{
			Visibilities: []user.Visibility{user.VisibilityPublic, user.VisibilityLimited}, IncludeUserID: carol.ID,
		}, []int64{alice.ID, bob.ID, carol.ID, dave.ID}},
		{"self does not bypass other filters", ports.UserSearch{
			Keyword: "alice", Visibilities: []user.Visibility{user.VisibilityLimited}, IncludeUserID: carol.ID,
		}, []int64{}},
		{"organisations", ports.UserSearch{Kind: user.KindOrganization, Keyword: "alice"}, []int64{org.ID}},
		{"no match", ports.UserSearch{Keyword: "zzz"}, []int64{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, total, err := f.Users.Search(f.ctx, tc.q)
			is.NoErr(err)
			is.Equal(ids(got, userID), tc.want)
			is.Equal(total, int64(len(tc.want)))
		})
	}
}

func testUserSearchPagination(t *testing.T, f *fixture) {
	var all []int64
	for _, n := range []string{"u1", "u2", "u3", "u4", "u5"} {
		all = append(all, f.user(n).ID)
	}
	f.user("o1", func(u *user.User) { u.Kind = user.KindOrganization })
	cases := []struct {
		page, limit int
		want        []int64
	}{
		{1, 2, all[0:2]},
		{2, 2, all[2:4]},
		{3, 2, all[4:5]},
		{4, 2, []int64{}},
		{0, 3, all[0:3]}, // page 0 is the first page
		{1, 10, all},
	}
	for _, tc := range cases {
		is := is.New(t)
		got, total, err := f.Users.Search(f.ctx, ports.UserSearch{ListOptions: ports.ListOptions{Page: tc.page, Limit: tc.limit}})
		is.NoErr(err)
		is.Equal(ids(got, userID), tc.want)
		is.Equal(total, int64(5)) // the total ignores the page
	}
}

func testRedirects(t *testing.T, f *fixture) {
	is := is.New(t)
	first := f.user("first")
	second := f.user("second")

	_, err := f.Users.LookupRedirect(f.ctx, "old")
	is.True(errors.Is(err, errs.ErrNotFound))

	is.NoErr(f.Users.AddRedirect(f.ctx, "Old", first.ID))
	id, err := f.Users.LookupRedirect(f.ctx, "OLD")
	is.NoErr(err)
	is.Equal(id, first.ID) // case-insensitive both ways

	is.NoErr(f.Users.AddRedirect(f.ctx, "old", second.ID))
	id, err = f.Users.LookupRedirect(f.ctx, "old")
	is.NoErr(err)
	is.Equal(id, second.ID) // the latest rename wins

	is.NoErr(f.Users.DeleteRedirect(f.ctx, "oLd"))
	_, err = f.Users.LookupRedirect(f.ctx, "old")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.NoErr(f.Users.DeleteRedirect(f.ctx, "old")) // forgetting an absent name is fine

	err = f.Users.AddRedirect(f.ctx, "dangling", 424242)
	is.True(errors.Is(err, errs.ErrNotFound)) // a redirect to no user is refused
}
