package content

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TestRefsPatternFaults checks the names the notes route refuses (422):
// Gitea's IsValidRefPattern.
func TestRefsPatternFaults(t *testing.T) {
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
			is.New(t).Equal(refPatternFaults(tc.ref)&(refMalformed|refLockComponent) == 0, tc.ok)
		})
	}
}

// TestRefsCommitPatternStatus checks that the commit routes refuse (422)
// what is malformed or too long, and look up a name with a ".lock"
// component inside, which the notes route refuses.
func TestRefsCommitPatternStatus(t *testing.T) {
	is := is.New(t)
	is.NoErr(checkRefPattern("sha", ""))
	is.NoErr(checkRefPattern("sha", "dir/x.lock/y"))
	is.Equal(refPatternFaults("dir/x.lock/y"), refLockComponent)
	is.Equal(refPatternFaults("x.lock"), refMalformed)
	is.Equal(refPatternFaults(strings.Repeat("a", 256)), refTooLong)
	for _, bad := range []string{"x.lock", "a..b", strings.Repeat("a", 256), strings.Repeat("a", 250) + "/b.lock/c"} {
		is.True(errors.Is(checkRefPattern("sha", bad), errs.ErrInvalid))
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
