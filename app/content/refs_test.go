package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func TestRefsPatternValid(t *testing.T) {
	for _, tc := range []struct {
		ref string
		ok  bool
	}{
		{"main", true},
		{"feature/x", true},
		{"v1.0", true},
		{strings.Repeat("a", 40), true},
		{"", false},
		{"a..b", false},
		{"/main", false},
		{"main/", false},
		{"a//b", false},
		{"x.lock", false},
		{"dir/x.lock/y", false},
		{".hidden", false},
		{"a b", false},
		{"a~1", false},
		{"a^", false},
		{"a:b", false},
		{"a?", false},
		{"a*", false},
		{"a[", false},
		{"a\\b", false},
		{"a@{1}", false},
		{"@", false},
		{"end.", false},
		{"tab\there", false},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			is.New(t).Equal(refPatternValid(tc.ref), tc.ok)
		})
	}
}

func TestRefsNameValidNamesTheField(t *testing.T) {
	is := is.New(t)
	is.NoErr(refNameValid("TagName", "v1.0.0"))
	is.NoErr(refNameValid("TagName", strings.Repeat("é", 100))) // characters, not bytes
	for _, bad := range []string{"", "a..b", strings.Repeat("x", 101)} {
		var e *errs.Error
		err := refNameValid("BranchName", bad)
		is.True(errors.As(err, &e))
		is.Equal(e.Fields, []string{"BranchName"})
	}
}

func TestRefsConflictMessages(t *testing.T) {
	is := is.New(t)
	conflict := func(k ports.RefConflictKind) error {
		return &ports.RefConflictError{Kind: k, Err: errs.Conflict("x")}
	}
	is.Equal(errs.Message(refConflictMessage(conflict(ports.RefExists), refMsgBranchExists)), "The branch already exists.")
	is.Equal(errs.Message(refConflictMessage(conflict(ports.RefNameClash), refMsgBranchExists)),
		"The branch with the same name already exists.")
	is.Equal(errs.Message(refConflictMessage(conflict(ports.RefTagExists), refMsgBranchExists)),
		"The branch with the same tag already exists.")
	other := errs.NotFound("gone")
	is.Equal(refConflictMessage(other, refMsgBranchExists), other)
}
