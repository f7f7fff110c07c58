package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// review writes a review of issueID by reviewerID at minute m.
func (f *fixture) review(issueID, reviewerID int64, state pull.ReviewState, m int, edit ...func(r *pull.Review)) *pull.Review {
	f.t.Helper()
	r := &pull.Review{IssueID: issueID, ReviewerID: reviewerID, State: state, Body: state.String(),
		CommitID: sha('a'), CreatedAt: at(m), UpdatedAt: at(m)}
	for _, e := range edit {
		e(r)
	}
	if err := f.PullReviews.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create review: %v", err)
	}
	if r.ID == 0 {
		f.t.Fatal("create review: id not set")
	}
	return r
}

// reviewedPull is a pull request of alice's for the review tests.
func (f *fixture) reviewedPull() (*issue.Issue, *user.User) {
	f.t.Helper()
	alice := f.user("alice")
	r := f.repo(alice, "app")
	p := f.pullOf(r, r, alice, "feature", "main")
	return f.issueNow(p.IssueID), alice
}

var pullReviewTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetUpdateRoundTrip": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		r := f.review(i.ID, alice.ID, pull.ReviewPending, 1)
		g, err := f.PullReviews.GetByID(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(g, r)
		r.State, r.Body, r.Official, r.Stale, r.Dismissed, r.UpdatedAt = pull.ReviewApproved, "ok", true, true, true, at(5)
		is.NoErr(f.PullReviews.Update(f.ctx, r))
		g, err = f.PullReviews.GetByID(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(g, r)
		_, err = f.PullReviews.GetByID(f.ctx, r.ID+100)
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"ListPagesInOrder": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		bob := f.user("bob")
		a := f.review(i.ID, alice.ID, pull.ReviewComment, 1)
		b := f.review(i.ID, bob.ID, pull.ReviewApproved, 2)
		c := f.review(i.ID, bob.ID, pull.ReviewRequest, 3)
		list, total, err := f.PullReviews.List(f.ctx, i.ID, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal([]int64{list[0].ID, list[1].ID}, []int64{a.ID, b.ID})
		all, err := f.PullReviews.All(f.ctx, []int64{i.ID})
		is.NoErr(err)
		is.Equal(len(all[i.ID]), 3)
		is.Equal(all[i.ID][2].ID, c.ID)
	},
	"LatestPendingAndTeamRequest": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		bob := f.user("bob")
		o := f.orgCreate("org", alice, user.VisibilityPublic)
		team := f.orgTeam(o, "reviewers", permission.ModeRead, false)
		f.review(i.ID, bob.ID, pull.ReviewApproved, 1)
		reject := f.review(i.ID, bob.ID, pull.ReviewRequestChanges, 2)
		f.review(i.ID, bob.ID, pull.ReviewComment, 3) // comments are no verdict
		draft := f.review(i.ID, bob.ID, pull.ReviewPending, 4)
		req := f.review(i.ID, 0, pull.ReviewRequest, 5, func(r *pull.Review) { r.ReviewerTeamID = team.ID })
		last, err := f.PullReviews.Latest(f.ctx, i.ID, bob.ID)
		is.NoErr(err)
		is.Equal(last.ID, reject.ID)
		p, err := f.PullReviews.Pending(f.ctx, i.ID, bob.ID)
		is.NoErr(err)
		is.Equal(p.ID, draft.ID)
		_, err = f.PullReviews.Pending(f.ctx, i.ID, alice.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		tr, err := f.PullReviews.TeamRequest(f.ctx, i.ID, team.ID)
		is.NoErr(err)
		is.Equal(tr.ID, req.ID)
		teams, err := f.PullReviews.Teams(f.ctx, []int64{team.ID, team.ID + 99})
		is.NoErr(err)
		is.Equal(len(teams), 1)
		is.Equal(teams[team.ID].Name, "reviewers")
	},
	"FlagsInBulk": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		bob := f.user("bob")
		official := func(r *pull.Review) { r.Official = true }
		approve := f.review(i.ID, bob.ID, pull.ReviewApproved, 1, official)
		comment := f.review(i.ID, bob.ID, pull.ReviewComment, 2, official, func(r *pull.Review) { r.CommitID = sha('b') })
		request := f.review(i.ID, bob.ID, pull.ReviewRequest, 3)
		other := f.review(i.ID, alice.ID, pull.ReviewRequestChanges, 4, official)
		is.NoErr(f.PullReviews.ClearOfficial(f.ctx, i.ID, bob.ID))
		is.NoErr(f.PullReviews.DismissVerdicts(f.ctx, i.ID, bob.ID))
		is.NoErr(f.PullReviews.DeleteRequests(f.ctx, i.ID, bob.ID))
		is.NoErr(f.PullReviews.MarkStale(f.ctx, i.ID, sha('b')))
		get := func(id int64) *pull.Review {
			r, err := f.PullReviews.GetByID(f.ctx, id)
			is.NoErr(err)
			return r
		}
		a, c, o := get(approve.ID), get(comment.ID), get(other.ID)
		is.True(!a.Official && a.Dismissed && a.Stale)
		is.True(!c.Official && !c.Dismissed && !c.Stale) // it judged the head
		is.True(o.Official && !o.Dismissed && o.Stale)   // another reviewer's
		_, err := f.PullReviews.GetByID(f.ctx, request.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		is.NoErr(f.PullReviews.SetOfficial(f.ctx, approve.ID, true))
		is.True(get(approve.ID).Official)
	},
	"CommentsByReviewAndDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		r := f.review(i.ID, alice.ID, pull.ReviewComment, 1)
		keep := f.review(i.ID, alice.ID, pull.ReviewComment, 2)
		code := func(path string, line int64) func(c *issue.Comment) {
			return func(c *issue.Comment) {
				c.ReviewID, c.TreePath, c.Line, c.CommitSHA, c.Patch = r.ID, path, line, sha('c'), "diff --git a/x b/x\n@@ -1 +1 @@\n+x"
			}
		}
		c1 := f.comment(i, alice.ID, issue.CommentCode, "one", 3, code("a.go", 4))
		c2 := f.comment(i, alice.ID, issue.CommentCode, "two", 4, code("b.go", -2))
		entry := f.comment(i, alice.ID, issue.CommentReview, "entry", 5, func(c *issue.Comment) { c.ReviewID = r.ID })
		f.comment(i, alice.ID, issue.CommentCode, "kept", 6, func(c *issue.Comment) { c.ReviewID = keep.ID })
		plain := f.comment(i, alice.ID, issue.CommentPlain, "plain", 7)
		byReview, err := f.PullReviews.CodeComments(f.ctx, []int64{r.ID})
		is.NoErr(err)
		is.Equal(len(byReview[r.ID]), 2)
		is.Equal(byReview[r.ID][0], c1) // every code column round-trips
		is.Equal(byReview[r.ID][1], c2)
		counts, err := f.PullReviews.CodeCommentCounts(f.ctx, []int64{r.ID, keep.ID})
		is.NoErr(err)
		is.Equal(counts[r.ID], 2)
		is.Equal(counts[keep.ID], 1)
		entries, err := f.PullReviews.Entries(f.ctx, []int64{r.ID, keep.ID})
		is.NoErr(err)
		is.Equal(entries, map[int64]int64{r.ID: entry.ID})

		is.NoErr(f.PullReviews.Delete(f.ctx, r.ID))
		_, err = f.Comments.GetByID(f.ctx, c1.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Comments.GetByID(f.ctx, entry.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Comments.GetByID(f.ctx, plain.ID)
		is.NoErr(err)
		counts, err = f.PullReviews.CodeCommentCounts(f.ctx, []int64{keep.ID})
		is.NoErr(err)
		is.Equal(counts[keep.ID], 1)
		is.True(errors.Is(f.PullReviews.Delete(f.ctx, r.ID), errs.ErrNotFound))
	},
	"OutdatedCodeComments": func(t *testing.T, f *fixture) {
		is := is.New(t)
		i, alice := f.reviewedPull()
		r := f.review(i.ID, alice.ID, pull.ReviewComment, 1)
		code := func(c *issue.Comment) { c.ReviewID, c.TreePath, c.Line, c.CommitSHA = r.ID, "a.go", 1, sha('c') }
		first := f.comment(i, alice.ID, issue.CommentCode, "one", 2, code)
		second := f.comment(i, alice.ID, issue.CommentCode, "two", 3, code)
		plain := f.comment(i, alice.ID, issue.CommentPlain, "plain", 4)
		valid, err := f.PullReviews.ValidCodeComments(f.ctx, i.ID, 10)
		is.NoErr(err)
		is.Equal(len(valid), 2)
		is.Equal(valid[0].ID, first.ID)
		valid, err = f.PullReviews.ValidCodeComments(f.ctx, i.ID, 1)
		is.NoErr(err)
		is.Equal(len(valid), 1)

		// Only code comments are marked; marked ones leave the list.
		is.NoErr(f.PullReviews.InvalidateComments(f.ctx, []int64{first.ID, plain.ID}))
		is.NoErr(f.PullReviews.InvalidateComments(f.ctx, nil))
		valid, err = f.PullReviews.ValidCodeComments(f.ctx, i.ID, 10)
		is.NoErr(err)
		is.Equal(len(valid), 1)
		is.Equal(valid[0].ID, second.ID)
		byReview, err := f.PullReviews.CodeComments(f.ctx, []int64{r.ID})
		is.NoErr(err)
		is.True(byReview[r.ID][0].Invalidated && !byReview[r.ID][1].Invalidated)
		p, err := f.Comments.GetByID(f.ctx, plain.ID)
		is.NoErr(err)
		is.True(!p.Invalidated)
	},
}
