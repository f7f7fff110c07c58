package repository

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

// TestParseRefChangeRefusesInvalidUTF8: a pushed ref whose name is not
// valid UTF-8 is a malformed update, shown escaped (found by
// FuzzRunHookInput: the hook posted it as JSON, which replaced its bytes,
// so the pre-receive checks judged another name than git wrote).
func TestParseRefChangeRefusesInvalidUTF8(t *testing.T) {
	is := is.New(t)
	zero, id := strings.Repeat("0", 40), strings.Repeat("ab", 20)
	_, err := ParseRefChange(zero + " " + id + " refs/heads/a\x80b")
	is.True(errors.Is(err, errs.ErrBadRequest))
	is.True(strings.Contains(errs.Message(err), `refs/heads/a\x80b`))
	c, err := ParseRefChange(zero + " " + id + " refs/heads/é")
	is.NoErr(err)
	is.Equal(c.Ref, "refs/heads/é")
}
