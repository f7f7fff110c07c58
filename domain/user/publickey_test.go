package user_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/matryer/is"
)

func TestNormalizeKeyTitle(t *testing.T) {
	cases := []struct {
		name, in, want, msg string
	}{
		{"plain", "laptop", "laptop", ""},
		{"trimmed", "  work laptop\t", "work laptop", ""},
		{"empty", "", "", "Title: Required"},
		{"blank", " \n ", "", "Title: Required"},
		{"longest", strings.Repeat("t", user.MaxKeyTitleLength), strings.Repeat("t", user.MaxKeyTitleLength), ""},
		{"too long", strings.Repeat("t", user.MaxKeyTitleLength+1), "", "Title: MaxSize"},
		{"runes not bytes", strings.Repeat("é", user.MaxKeyTitleLength), strings.Repeat("é", user.MaxKeyTitleLength), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := user.NormalizeKeyTitle("Title", c.in)
			if c.msg == "" {
				is.NoErr(err)
				is.Equal(got, c.want)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.Equal(errs.Message(err), c.msg)
		})
	}
}

func TestKeyConflictsAreConflicts(t *testing.T) {
	for _, err := range []error{user.ErrKeyInUse, user.ErrKeyIsDeployKey, user.ErrKeyTitleInUse} {
		t.Run(errs.Message(err), func(t *testing.T) {
			is := is.New(t)
			is.True(errors.Is(err, errs.ErrConflict))
			// AsInvalid keeps Gitea's message behind the field.
			inv := errs.AsInvalid(err, errs.ErrConflict, "Key")
			is.True(errors.Is(inv, errs.ErrInvalid))
			is.Equal(errs.Message(inv), "Key: "+errs.Message(err))
		})
	}
}

func TestCanHoldKeys(t *testing.T) {
	is := is.New(t)
	is.True(user.CanHoldKeys(&user.User{Kind: user.KindIndividual}))
	is.True(!user.CanHoldKeys(&user.User{Kind: user.KindOrganization}))
}
