package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// outdated reads whether each code comment of a review is stored outdated
// (Gitea's invalidated, which its API does not show), by comment id.
func (f *reviewFixture) outdated(t *testing.T, reviewID int64) map[int64]bool {
	t.Helper()
	byReview, err := f.srv.App.DB.Stores().PullReviews.CodeComments(t.Context(), []int64{reviewID})
	if err != nil {
		t.Fatalf("read code comments: %v", err)
	}
	out := map[int64]bool{}
	for _, c := range byReview[reviewID] {
		out[c.ID] = c.Invalidated
	}
	return out
}

func TestPullReviewCommentsOutdated(t *testing.T) {
	t.Parallel()
	testPullReviewCommentsOutdated(t)
}

func TestPullReviewCommentsOutdatedPostgres(t *testing.T) {
	t.Parallel()
	testPullReviewCommentsOutdated(t, testserver.OnPostgres())
}

// testPullReviewCommentsOutdated pushes to a reviewed head: a push that
// changes other files leaves a line comment current, one that changes the
// commented line makes it outdated; the API answers for it as Gitea does
// (still listed, at the line it was written on).
func testPullReviewCommentsOutdated(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	f := newReviewFixture(t, opts...)
	idx := f.pr.Index
	review, _, err := f.bob.CreatePullReview("alice", "reviewed", idx, gitea.CreatePullReviewOptions{
		State: gitea.ReviewStateComment, Body: "notes",
		Comments: []gitea.CreatePullReviewComment{
			{Path: "feature-b.txt", Body: "why b?", NewLineNum: 1},
			{Path: "feature-c.txt", Body: "why c?", NewLineNum: 1},
		}})
	is.NoErr(err)
	comments, _, err := f.alice.ListPullReviewComments("alice", "reviewed", idx, review.ID)
	is.NoErr(err)
	is.Equal(len(comments), 2)
	onB, onC := comments[0], comments[1]
	is.Equal(onB.Path, "feature-b.txt")

	// A push that changes another file: nothing is outdated.
	f.repo.commit(t, "", "README.md", "other\n", "touch the readme")
	f.repo.push(t, "feature")
	// A push that changes the line commented in feature-b.txt.
	head := f.repo.commit(t, "", "feature-b.txt", "b, changed\n", "change b")
	f.repo.push(t, "feature")
	testkit.Eventually(t, "the comment on the changed line outdated", func() bool {
		return f.outdated(t, review.ID)[onB.ID]
	})
	// Both pushes were looked at (one queue, in order): the comment on
	// the file no push changed stays current.
	is.True(!f.outdated(t, review.ID)[onC.ID])
	is.Equal(f.repo.pull(t, idx).Head.Sha, head)

	// Gitea's API shows an outdated comment as it was written.
	after, _, err := f.alice.ListPullReviewComments("alice", "reviewed", idx, review.ID)
	is.NoErr(err)
	is.Equal(len(after), 2)
	is.Equal(after[0].ID, onB.ID)
	is.Equal(after[0].LineNum, uint64(1))
	is.Equal(after[0].CommitID, onB.CommitID)
	is.Equal(after[0].DiffHunk, onB.DiffHunk)
	got, _, err := f.alice.GetPullReview("alice", "reviewed", idx, review.ID)
	is.NoErr(err)
	is.Equal(got.CodeCommentsCount, 2)

	// An update that rebases the head onto a moved base rewrites every
	// commit: the commented line's origin is a new commit, so outdated.
	f.repo.branchFromMain(t, "main")
	f.repo.commit(t, "", "main-only.txt", "main\n", "main moves")
	f.repo.push(t, "main")
	res := updatePull(f.srv, "alice", "reviewed", idx, "rebase", "alice")
	is.Equal(res.Status, http.StatusOK)
	testkit.Eventually(t, "the rebased comment outdated", func() bool {
		return f.outdated(t, review.ID)[onC.ID]
	})
}
