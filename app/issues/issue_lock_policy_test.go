package issues_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
)

// Locking and unlocking an issue, and who still comments on a locked one:
// writers (and site administrators) do, readers and the poster do not.
func TestLockPolicyLockAndUnlockRecordEvents(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Heated debate")
	a := f.mustAccess(f.owner)

	changed, err := f.svc.Locks().Set(f.Ctx, a, i.Index, true, "Too heated")
	is.NoErr(err)
	is.True(changed)
	is.True(f.stored(i.ID).IsLocked)

	changed, err = f.svc.Locks().Set(f.Ctx, a, i.Index, true, "Too heated")
	is.NoErr(err)
	is.True(!changed) // already locked: Gitea's 208, nothing written

	changed, err = f.svc.Locks().Set(f.Ctx, a, i.Index, false, "")
	is.NoErr(err)
	is.True(changed)
	is.True(!f.stored(i.ID).IsLocked)

	list := f.timeline(i.ID)
	is.Equal(list, []issue.CommentType{issue.CommentLock, issue.CommentUnlock})
}

func TestLockPolicyRejectsUnknownReason(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Spam magnet")

	_, err := f.svc.Locks().Set(f.Ctx, f.mustAccess(f.owner), i.Index, true, "because")
	is.True(errors.Is(err, errs.ErrBadRequest))
	is.True(!f.stored(i.ID).IsLocked)
}

func TestLockPolicyOnlyWritersCommentOnLockedIssue(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Settled")
	_, err := f.svc.Locks().Set(f.Ctx, f.mustAccess(f.owner), i.Index, true, "Resolved")
	is.NoErr(err)

	for _, u := range []*user.User{f.reader, f.poster} {
		_, err := f.svc.Comments().Create(f.Ctx, f.mustAccess(u), i.Index, "one more thing")
		is.True(errors.Is(err, errs.ErrForbidden)) // readers and the poster may not comment
		is.Equal(errs.Message(err), "You cannot comment on a locked issue.")
	}
	is.Equal(f.stored(i.ID).NumComments, 0)

	for _, u := range []*user.User{f.writer, f.owner, f.admin} {
		_, err := f.svc.Comments().Create(f.Ctx, f.mustAccess(u), i.Index, "noted by "+u.Name)
		is.NoErr(err)
	}
	is.Equal(f.stored(i.ID).NumComments, 3)
}
