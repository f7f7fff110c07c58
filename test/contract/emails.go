package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var emailTests = map[string]func(t *testing.T, f *fixture){
	"AddListAndGet": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("ann")
		other := f.user("ben")
		first := f.email(u.ID, "Ann@Example.com", true)
		second := f.email(u.ID, "ann@work.example", false)
		f.email(other.ID, "ben@example.com", true)

		list, err := f.Emails.ListByUser(f.ctx, u.ID)
		is.NoErr(err)
		is.Equal(len(list), 2)
		is.Equal(*list[0], *first) // in the order added, every field kept
		is.Equal(*list[1], *second)
		is.Equal(list[0].Email, "Ann@Example.com") // the spelling is kept

		got, err := f.Emails.GetByEmail(f.ctx, "ANN@example.COM")
		is.NoErr(err)
		is.Equal(*got, *first)

		none, err := f.Emails.ListByUser(f.ctx, 424242)
		is.NoErr(err)
		is.Equal(len(none), 0)
	},
	"MissingAddressIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		_, err := f.Emails.GetByEmail(f.ctx, "nobody@example.com")
		isCategory(is, err, errs.ErrNotFound, "email does not exist")
	},
	"AddressIsUniqueSiteWide": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		f.email(a.ID, "shared@example.com", true)
		err := f.Emails.Add(f.ctx, &user.Email{UserID: b.ID, Email: "SHARED@example.com", LowerEmail: "shared@example.com"})
		isCategory(is, err, errs.ErrConflict, "email already in use")
		err = f.Emails.Add(f.ctx, &user.Email{UserID: a.ID, Email: "Shared@Example.com", LowerEmail: "shared@example.com"})
		isCategory(is, err, errs.ErrConflict, "email already in use")
	},
	"AddForMissingUserIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.Emails.Add(f.ctx, &user.Email{UserID: 424242, Email: "x@example.com", LowerEmail: "x@example.com"})
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"DeleteOnlyOwnAddress": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		f.email(a.ID, "a@example.com", true)
		f.email(a.ID, "a2@example.com", false)
		f.email(b.ID, "b@example.com", true)

		isCategory(is, f.Emails.Delete(f.ctx, a.ID, "b@example.com"), errs.ErrNotFound, "email does not exist")
		_, err := f.Emails.GetByEmail(f.ctx, "b@example.com")
		is.NoErr(err) // another user's address survives

		is.NoErr(f.Emails.Delete(f.ctx, a.ID, "A2@EXAMPLE.COM"))
		list, err := f.Emails.ListByUser(f.ctx, a.ID)
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Email, "a@example.com")

		isCategory(is, f.Emails.Delete(f.ctx, a.ID, "a2@example.com"), errs.ErrNotFound, "email does not exist")
	},
	"SetPrimaryLeavesExactlyOne": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		f.email(a.ID, "one@example.com", true)
		f.email(a.ID, "two@example.com", false)
		f.email(b.ID, "b@example.com", true)

		is.NoErr(f.Emails.SetPrimary(f.ctx, a.ID, "TWO@example.com"))
		is.Equal(primaries(t, f, a.ID), []string{"two@example.com"})
		is.Equal(primaries(t, f, b.ID), []string{"b@example.com"}) // other users untouched

		isCategory(is, f.Emails.SetPrimary(f.ctx, a.ID, "missing@example.com"), errs.ErrNotFound, "email does not exist")
		isCategory(is, f.Emails.SetPrimary(f.ctx, a.ID, "b@example.com"), errs.ErrNotFound, "email does not exist")
		is.Equal(primaries(t, f, a.ID), []string{"two@example.com"}) // a failed call changes nothing
	},
	"Search": testEmailSearch,
}

func primaries(t *testing.T, f *fixture, userID int64) []string {
	t.Helper()
	list, err := f.Emails.ListByUser(f.ctx, userID)
	if err != nil {
		t.Fatalf("list emails: %v", err)
	}
	out := []string{}
	for _, e := range list {
		if e.Primary {
			out = append(out, e.Email)
		}
	}
	return out
}

func emailOwnerID(e *user.EmailOwner) int64 { return e.ID }

func testEmailSearch(t *testing.T, f *fixture) {
	ann := f.user("ann", func(u *user.User) { u.FullName = "Annie Hall" })
	bob := f.user("bob", func(u *user.User) { u.FullName = "Bob" })
	e1 := f.email(ann.ID, "ann@example.com", true)
	e2 := f.email(bob.ID, "bob@example.com", true)
	e3 := f.email(bob.ID, "robert@work.example", false)
	e4 := f.email(ann.ID, "hall_ann@work.example", false)

	t.Run("keywords", func(t *testing.T) {
		cases := []struct {
			keyword string
			want    []int64
		}{
			{"", []int64{e1.ID, e2.ID, e3.ID, e4.ID}},
			{"WORK", []int64{e3.ID, e4.ID}}, // address
			{"bob", []int64{e2.ID, e3.ID}},  // user name
			{"hall", []int64{e1.ID, e4.ID}}, // full name
			{"_", []int64{e4.ID}},           // literal underscore
			{"nobody", []int64{}},
		}
		for _, tc := range cases {
			is := is.New(t)
			got, total, err := f.Emails.Search(f.ctx, tc.keyword, ports.ListOptions{Page: 1, Limit: 50})
			is.NoErr(err)
			is.Equal(ids(got, emailOwnerID), tc.want)
			is.Equal(total, int64(len(tc.want)))
		}
	})
	t.Run("owner and fields", func(t *testing.T) {
		is := is.New(t)
		got, _, err := f.Emails.Search(f.ctx, "robert", ports.ListOptions{Page: 1, Limit: 50})
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].Email, *e3)
		is.Equal(got[0].UserName, "bob")
	})
	t.Run("pagination", func(t *testing.T) {
		is := is.New(t)
		got, total, err := f.Emails.Search(f.ctx, "", ports.ListOptions{Page: 2, Limit: 3})
		is.NoErr(err)
		is.Equal(ids(got, emailOwnerID), []int64{e4.ID})
		is.Equal(total, int64(4))
	})
}

var emailBatchTests = map[string]func(t *testing.T, f *fixture){
	"UsersByEmails": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.email(ann.ID, "Ann@Example.com", true)
		f.email(ann.ID, "ann@work.example", false)
		f.email(bob.ID, "bob@example.com", true)
		pending := &user.Email{UserID: bob.ID, Email: "pending@example.com", LowerEmail: "pending@example.com"}
		is.NoErr(f.Emails.Add(f.ctx, pending))

		got, err := f.Emails.UsersByEmails(f.ctx, []string{
			"ANN@example.com", "ann@work.example", "ann@example.com", "bob@EXAMPLE.com",
			"pending@example.com", "nobody@example.com", "",
		})
		is.NoErr(err)
		is.Equal(len(got), 3) // activated and known addresses only, each once
		is.Equal(got["ann@example.com"].ID, ann.ID)
		is.Equal(got["ann@work.example"].ID, ann.ID)
		is.Equal(got["bob@example.com"].ID, bob.ID)
		is.Equal(got["pending@example.com"], nil) // not activated
		is.Equal(*got["bob@example.com"], *bob)   // every field of the user
	},
	"UsersByEmailsEmpty": func(t *testing.T, f *fixture) {
		is := is.New(t)
		got, err := f.Emails.UsersByEmails(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(got), 0)
	},
}
