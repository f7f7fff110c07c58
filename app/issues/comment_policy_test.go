package issues_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

// Who may comment, and edit or delete a comment: its poster and the
// writers of the tracker; others are refused and nothing changes.
func TestCommentPolicyReaderComments(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")

	v, err := f.svc.Comments().Create(f.Ctx, f.mustAccess(f.reader), i.Index, "me too")
	is.NoErr(err)
	is.Equal(len(v.Comments), 1)
	got, err := f.Stores.Comments.GetByID(f.Ctx, v.Comments[0].ID)
	is.NoErr(err)
	is.Equal(got.PosterID, f.reader.ID)
	is.Equal(got.Body, "me too")
	is.Equal(f.stored(i.ID).NumComments, 1)
	is.Equal(f.events.actions(), []string{"issue_comment:created"})
}

func TestCommentPolicyBlankCommentIsInvalid(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")

	_, err := f.svc.Comments().Create(f.Ctx, f.mustAccess(f.reader), i.Index, "   ")
	is.True(errors.Is(err, errs.ErrInvalid))
	is.Equal(f.stored(i.ID).NumComments, 0)
}

func TestCommentPolicyBlockedByPosterMayNotComment(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "My issue")
	is.NoErr(f.Stores.Blocks.Block(f.Ctx, &user.Block{BlockerID: f.poster.ID, BlockeeID: f.reader.ID, Created: f.Clock.At}))

	_, err := f.svc.Comments().Create(f.Ctx, f.mustAccess(f.reader), i.Index, "let me in")
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "user is blocked")
	is.Equal(f.stored(i.ID).NumComments, 0) // rolled back

	_, err = f.svc.Comments().Create(f.Ctx, f.mustAccess(f.writer), i.Index, "others still may")
	is.NoErr(err)
}

func TestCommentPolicyPosterEditsOwnComment(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")
	c := f.comment(i, f.reader, "frist")

	_, err := f.svc.Comments().Edit(f.Ctx, f.mustAccess(f.reader), c.ID, "first")
	is.NoErr(err)
	got, err := f.Stores.Comments.GetByID(f.Ctx, c.ID)
	is.NoErr(err)
	is.Equal(got.Body, "first")
	is.Equal(f.events.actions(), []string{"issue_comment:edited"})
}

func TestCommentPolicyOthersMayNotEditOrDelete(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")
	c := f.comment(i, f.reader, "mine")

	// The issue's poster does not own the comments on it.
	_, err := f.svc.Comments().Edit(f.Ctx, f.mustAccess(f.poster), c.ID, "rewritten")
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "user should be the poster of the comment or have write permission")
	_, err = f.svc.Comments().Delete(f.Ctx, f.mustAccess(f.poster), c.ID)
	is.True(errors.Is(err, errs.ErrForbidden))

	got, err := f.Stores.Comments.GetByID(f.Ctx, c.ID)
	is.NoErr(err)
	is.Equal(got.Body, "mine")
	is.Equal(len(f.events.actions()), 0)
}

func TestCommentPolicyWriterEditsAndDeletesOthersComments(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")
	c := f.comment(i, f.reader, "rude words")
	is.Equal(f.stored(i.ID).NumComments, 1)

	_, err := f.svc.Comments().Edit(f.Ctx, f.mustAccess(f.writer), c.ID, "[moderated]")
	is.NoErr(err)
	deleted, err := f.svc.Comments().Delete(f.Ctx, f.mustAccess(f.writer), c.ID)
	is.NoErr(err)
	is.True(deleted)

	_, err = f.Stores.Comments.GetByID(f.Ctx, c.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(f.stored(i.ID).NumComments, 0)
	is.Equal(f.events.actions(), []string{"issue_comment:edited", "issue_comment:deleted"})
}

func TestCommentPolicyPublicReaderMayNotEditOthersComment(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Question")
	c := f.comment(i, f.reader, "hello")
	f.repo.Private = false
	is.NoErr(f.Stores.Repos.Update(f.Ctx, f.repo))

	// Anyone signed in reads a public tracker, and so comments on it, but
	// changes only their own comments.
	a := f.mustAccess(f.stranger)
	_, err := f.svc.Comments().Edit(f.Ctx, a, c.ID, "defaced")
	is.True(errors.Is(err, errs.ErrForbidden))
	_, err = f.svc.Comments().Edit(f.Ctx, a, c.ID+100, "defaced")
	is.True(errors.Is(err, errs.ErrNotFound)) // no such comment
	v, err := f.svc.Comments().Create(f.Ctx, a, i.Index, "drive-by")
	is.NoErr(err)
	_, err = f.svc.Comments().Edit(f.Ctx, a, v.Comments[0].ID, "drive-by, edited")
	is.NoErr(err)
}
