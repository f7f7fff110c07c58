package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

func testIssueSubscriptions(t *testing.T, f *fixture) {
	is := is.New(t)
	poster, assignee, commenter, watcher, other := f.user("poster"), f.user("assignee"), f.user("commenter"), f.user("watcher"), f.user("other")
	r := f.repo(poster, "r")
	i := f.issue(r.ID, poster.ID, "a", "", 1)
	is.NoErr(f.Issues.SetAssignees(f.ctx, i.ID, []int64{assignee.ID}))
	is.NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: r.ID,
		PosterID: commenter.ID, Body: "hi", CreatedAt: at(2), UpdatedAt: at(2)}))
	// A timeline event does not make its poster a participant.
	is.NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentLock, IssueID: i.ID, RepoID: r.ID,
		PosterID: other.ID, CreatedAt: at(3), UpdatedAt: at(3)}))

	for _, tc := range []struct {
		uid  int64
		want bool
	}{{poster.ID, true}, {assignee.ID, true}, {commenter.ID, true}, {watcher.ID, false}, {other.ID, false}} {
		got, err := f.IssueRelations.IsParticipant(f.ctx, i.ID, tc.uid)
		is.NoErr(err)
		is.Equal(got, tc.want)
	}

	_, err := f.IssueRelations.Watch(f.ctx, i.ID, watcher.ID)
	isCategory(is, err, errs.ErrNotFound, "issue watch does not exist")
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, watcher.ID, true))
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, commenter.ID, false))
	is.NoErr(f.IssueRelations.SetWatch(f.ctx, i.ID, commenter.ID, false)) // idempotent upsert
	w, err := f.IssueRelations.Watch(f.ctx, i.ID, commenter.ID)
	is.NoErr(err)
	is.True(!w)

	ids, total, err := f.IssueRelations.Watchers(f.ctx, i.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(1))
	is.Equal(ids, []int64{watcher.ID})
	ignorers, err := f.IssueRelations.Ignorers(f.ctx, i.ID)
	is.NoErr(err)
	is.Equal(ignorers, []int64{commenter.ID})

	ids, total, err = f.IssueRelations.Subscribers(f.ctx, i.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, int64(3)) // poster, assignee, watcher; the commenter opted out
	is.Equal(ids, []int64{poster.ID, assignee.ID, watcher.ID})
	ids, total, err = f.IssueRelations.Subscribers(f.ctx, i.ID, ports.ListOptions{Page: 2, Limit: 2})
	is.NoErr(err)
	is.Equal(total, int64(3))
	is.Equal(ids, []int64{watcher.ID})
}
