package errs_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

func TestCategories(t *testing.T) {
	cases := []struct {
		err  error
		kind error
		msg  string
	}{
		{errs.NotFound("user does not exist"), errs.ErrNotFound, "user does not exist"},
		{errs.Forbidden("nope"), errs.ErrForbidden, "nope"},
		{errs.Invalid("must be valid", "Username", "Email"), errs.ErrInvalid, "Username, Email: must be valid"},
		{fmt.Errorf("wrapped: %w", errs.Conflict("taken")), errs.ErrConflict, "taken"},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			is := is.New(t)
			is.True(errors.Is(c.err, c.kind))
			is.Equal(errs.Message(c.err), c.msg)
		})
	}
}

func TestAsInvalidAndIgnoreNotFound(t *testing.T) {
	is := is.New(t)
	err := errs.AsInvalid(errs.Conflict("user already exists"), errs.ErrConflict, "Username")
	is.True(errors.Is(err, errs.ErrInvalid))
	is.Equal(errs.Message(err), "Username: user already exists")
	other := errs.NotFound("gone")
	is.Equal(errs.AsInvalid(other, errs.ErrConflict, "Username"), other) // other categories pass through
	is.Equal(errs.AsInvalid(nil, errs.ErrConflict, "Username"), nil)
	is.NoErr(errs.IgnoreNotFound(other))
	c := errs.Conflict("x")
	is.Equal(errs.IgnoreNotFound(c), c)
}
