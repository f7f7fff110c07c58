package issues_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

// Who may edit, close and reopen an issue: its poster and the writers of
// the tracker; readers who did not post it are refused, strangers to a
// private repository do not see it.
func TestEditPolicyPosterChangesTitleAndClosesOwnIssue(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Crash on start")

	v, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.poster), i.Index, issues.EditInput{Title: "Crash at startup", State: ptr("closed")})
	is.NoErr(err)
	is.True(v != nil)

	got := f.stored(i.ID)
	is.Equal(got.Title, "Crash at startup")
	is.True(got.IsClosed)
	is.True(got.ClosedAt != nil)
	is.Equal(f.timeline(i.ID), []issue.CommentType{issue.CommentChangeTitle, issue.CommentClose})
	is.Equal(f.events.actions(), []string{"issues:edited", "issues:closed"})
}

func TestEditPolicyPosterReopensOwnIssue(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Flaky test")
	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.writer), i.Index, issues.EditInput{State: ptr("closed")})
	is.NoErr(err)

	_, err = f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.poster), i.Index, issues.EditInput{State: ptr("open")})
	is.NoErr(err)
	got := f.stored(i.ID)
	is.True(!got.IsClosed)
	is.Equal(f.timeline(i.ID), []issue.CommentType{issue.CommentClose, issue.CommentReopen})
}

func TestEditPolicyReaderMayNotEditOthersIssue(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Typo in docs")

	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.reader), i.Index, issues.EditInput{Title: "hijacked", State: ptr("closed")})
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "user should be the poster of the issue or have write permission")

	got := f.stored(i.ID)
	is.Equal(got.Title, "Typo in docs") // nothing written
	is.True(!got.IsClosed)
	is.Equal(len(f.timeline(i.ID)), 0)
	is.Equal(len(f.events.actions()), 0)
}

func TestEditPolicyStrangerDoesNotSeePrivateTracker(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	f.issue(f.poster, "Secret bug")

	_, err := f.access(f.stranger)
	is.True(errors.Is(err, errs.ErrNotFound)) // a private repository answers as absent
	_, err = f.access(nil)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestEditPolicyWriterClosesOthersIssueAndSetsMilestone(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Slow page")
	m := &issue.Milestone{RepoID: f.repo.ID, Title: "v1", CreatedAt: f.Clock.At, UpdatedAt: f.Clock.At}
	is.NoErr(f.Stores.Milestones.Create(f.Ctx, m))

	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.writer), i.Index, issues.EditInput{State: ptr("closed"), Milestone: ptr(m.ID)})
	is.NoErr(err)
	got := f.stored(i.ID)
	is.True(got.IsClosed)
	is.Equal(got.MilestoneID, m.ID)
	ms, err := f.Stores.Milestones.Get(f.Ctx, f.repo.ID, m.ID)
	is.NoErr(err)
	is.Equal([]int{ms.NumIssues, ms.NumClosedIssues}, []int{1, 1})
}

func TestEditPolicyPosterMetadataChangesAreIgnored(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Wrong colour")
	m := &issue.Milestone{RepoID: f.repo.ID, Title: "v1", CreatedAt: f.Clock.At, UpdatedAt: f.Clock.At}
	is.NoErr(f.Stores.Milestones.Create(f.Ctx, m))

	// A poster without write access changes the text but not the
	// milestone or the assignees (Gitea ignores them silently).
	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.poster), i.Index, issues.EditInput{Body: ptr("now blue"),
		Milestone: ptr(m.ID), Assignees: &[]string{f.writer.Name}})
	is.NoErr(err)
	got := f.stored(i.ID)
	is.Equal(got.Body, "now blue")
	is.Equal(got.MilestoneID, int64(0))
	as, err := f.Stores.Issues.Assignees(f.Ctx, []int64{i.ID})
	is.NoErr(err)
	is.Equal(len(as[i.ID]), 0)
}

func TestEditPolicySiteAdminEditsWithoutTies(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Needs triage")

	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.admin), i.Index, issues.EditInput{State: ptr("closed")})
	is.NoErr(err)
	is.True(f.stored(i.ID).IsClosed)
}

func TestEditPolicyOpenDependencyBlocksClosing(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	blocker := f.issue(f.poster, "Upstream fix")
	i := f.issue(f.poster, "Waits for upstream")
	is.NoErr(f.Stores.IssueRelations.AddDependency(f.Ctx, i.ID, blocker.ID))

	_, err := f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.writer), i.Index, issues.EditInput{State: ptr("closed")})
	is.True(errors.Is(err, errs.ErrPrecondition))
	is.True(!f.stored(i.ID).IsClosed)
	is.Equal(len(f.timeline(i.ID)), 0) // the transaction rolled back its event too

	_, err = f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.writer), blocker.Index, issues.EditInput{State: ptr("closed")})
	is.NoErr(err)
	_, err = f.svc.Issues().Edit(f.Ctx, f.mustAccess(f.writer), i.Index, issues.EditInput{State: ptr("closed")})
	is.NoErr(err)
	is.True(f.stored(i.ID).IsClosed)
}

func TestEditPolicyStrangerReadsPublicTrackerButMayNotEdit(t *testing.T) {
	is := is.New(t)
	f := newTracker(t)
	i := f.issue(f.poster, "Public bug")
	f.repo.Private = false
	is.NoErr(f.Stores.Repos.Update(f.Ctx, f.repo))

	a := f.mustAccess(f.stranger)
	v, err := f.svc.Issues().Get(f.Ctx, a, i.Index)
	is.NoErr(err) // reads it
	is.True(v != nil)
	_, err = f.svc.Issues().Edit(f.Ctx, a, i.Index, issues.EditInput{State: ptr("closed")})
	is.True(errors.Is(err, errs.ErrForbidden))
	is.True(!f.stored(i.ID).IsClosed)
}
