package contract

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

func tokenID(t *token.AccessToken) int64 { return t.ID }

var tokenTests = map[string]func(t *testing.T, f *fixture){
	"CreateAndGetRoundTripsEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		u := f.user("ann")
		tk := f.token(u.ID, "ci", "0123abcd")

		got, err := f.Tokens.GetByID(f.ctx, u.ID, tk.ID)
		is.NoErr(err)
		is.Equal(*got, *tk)
		is.Equal(got.Scopes, token.Scopes{"read:repository", "write:user"})
		is.True(got.LastUsed.IsZero()) // never used reads back as zero

		got, err = f.Tokens.GetByName(f.ctx, u.ID, "ci")
		is.NoErr(err)
		is.Equal(*got, *tk)
	},
	"OtherUsersTokenIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		tk := f.token(a.ID, "mine", "11111111")
		_, err := f.Tokens.GetByID(f.ctx, b.ID, tk.ID)
		isCategory(is, err, errs.ErrNotFound, "access token does not exist")
		_, err = f.Tokens.GetByName(f.ctx, b.ID, "mine")
		isCategory(is, err, errs.ErrNotFound, "access token does not exist")
		_, err = f.Tokens.GetByID(f.ctx, a.ID, 424242)
		isCategory(is, err, errs.ErrNotFound, "access token does not exist")
	},
	"NameIsUniquePerUser": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		f.token(a.ID, "deploy", "11111111")
		err := f.Tokens.Create(f.ctx, &token.AccessToken{
			UserID: a.ID, Name: "deploy", Hash: "other-hash", Salt: "s", LastEight: "22222222",
		})
		isCategory(is, err, errs.ErrConflict, "access token name has been used already")
		f.token(b.ID, "deploy", "33333333") // the same name is fine for another user
	},
	"CreateForMissingUserIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.Tokens.Create(f.ctx, &token.AccessToken{UserID: 424242, Name: "x", Hash: "h", Salt: "s", LastEight: "12345678"})
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"ListByUserPaginates": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		var want []int64
		for _, n := range []string{"t1", "t2", "t3", "t4", "t5"} {
			want = append(want, f.token(a.ID, n, "aaaaaaaa").ID)
		}
		f.token(b.ID, "t1", "aaaaaaaa")

		cases := []struct {
			page, limit int
			want        []int64
		}{
			{1, 2, want[0:2]}, {2, 2, want[2:4]}, {3, 2, want[4:5]}, {4, 2, []int64{}}, {1, 50, want},
		}
		for _, tc := range cases {
			got, total, err := f.Tokens.ListByUser(f.ctx, a.ID, ports.ListOptions{Page: tc.page, Limit: tc.limit})
			is.NoErr(err)
			is.Equal(ids(got, tokenID), tc.want)
			is.Equal(total, int64(5))
		}
		got, total, err := f.Tokens.ListByUser(f.ctx, 424242, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(len(got), 0)
		is.Equal(total, int64(0))
	},
	"FindByLastEight": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		b := f.user("b")
		t1 := f.token(a.ID, "one", "deadbeef")
		t2 := f.token(b.ID, "two", "deadbeef")
		f.token(a.ID, "three", "cafebabe")

		got, err := f.Tokens.FindByLastEight(f.ctx, "deadbeef")
		is.NoErr(err)
		is.Equal(len(got), 2)
		byID := map[int64]*token.AccessToken{got[0].ID: got[0], got[1].ID: got[1]}
		is.Equal(*byID[t1.ID], *t1)
		is.Equal(*byID[t2.ID], *t2)

		got, err = f.Tokens.FindByLastEight(f.ctx, "00000000")
		is.NoErr(err) // no match is an empty answer, not an error
		is.Equal(len(got), 0)
	},
	"Delete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		tk := f.token(a.ID, "bye", "bbbbbbbb")
		keep := f.token(a.ID, "stay", "bbbbbbbb")
		is.NoErr(f.Tokens.Delete(f.ctx, tk.ID))
		_, err := f.Tokens.GetByID(f.ctx, a.ID, tk.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Tokens.GetByID(f.ctx, a.ID, keep.ID)
		is.NoErr(err)
		isCategory(is, f.Tokens.Delete(f.ctx, tk.ID), errs.ErrNotFound, "access token does not exist")
	},
	"TouchLastUsed": func(t *testing.T, f *fixture) {
		is := is.New(t)
		a := f.user("a")
		t1 := f.token(a.ID, "one", "11111111")
		t2 := f.token(a.ID, "two", "22222222")
		t3 := f.token(a.ID, "three", "33333333")

		is.NoErr(f.Tokens.TouchLastUsed(f.ctx, nil)) // an empty batch is a no-op
		is.NoErr(f.Tokens.TouchLastUsed(f.ctx, map[int64]time.Time{
			t1.ID:  at(10),
			t2.ID:  at(11),
			424242: at(12), // deleted meanwhile: skipped, not an error
		}))
		is.True(lastUsed(t, f, a.ID, t1.ID).Equal(at(10)))
		is.True(lastUsed(t, f, a.ID, t2.ID).Equal(at(11)))
		is.True(lastUsed(t, f, a.ID, t3.ID).IsZero())

		// A late batch carrying an older time must not move the record back.
		is.NoErr(f.Tokens.TouchLastUsed(f.ctx, map[int64]time.Time{t1.ID: at(20), t2.ID: at(5)}))
		is.True(lastUsed(t, f, a.ID, t1.ID).Equal(at(20)))
		is.True(lastUsed(t, f, a.ID, t2.ID).Equal(at(11)))
	},
}

func lastUsed(t *testing.T, f *fixture, userID, id int64) time.Time {
	t.Helper()
	tk, err := f.Tokens.GetByID(f.ctx, userID, id)
	if err != nil {
		t.Fatalf("get token: %v", err)
	}
	return tk.LastUsed
}
