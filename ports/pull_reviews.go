package ports

import (
	"context"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/pull"
)

// PullReviewStore persists the reviews of pull requests and the requests
// for them (reviews of state pull.ReviewRequest, as Gitea keeps them). The
// line comments of a review are comments (issue.CommentCode, with their
// ReviewID), written through CommentStore and read here by review. Missing
// rows are errs.ErrNotFound. A page of reviews with their comment counts,
// entries and teams costs a constant number of statements.
type PullReviewStore interface {
	// Create inserts r and sets r.ID.
	Create(ctx context.Context, r *pull.Review) error
	GetByID(ctx context.Context, id int64) (*pull.Review, error)
	// Update writes r's state, body, commit, official, stale and
	// dismissed flags and updated_at.
	Update(ctx context.Context, r *pull.Review) error
	// Delete removes r with its code comments, its timeline entry and its
	// dismissals (and their reactions and attachment rows).
	Delete(ctx context.Context, id int64) error
	// List returns one page of the reviews of an issue, oldest first,
	// requests and pending drafts included, and the total.
	List(ctx context.Context, issueID int64, opts ListOptions) ([]*pull.Review, int64, error)
	// All returns every review of these issues (for merge decisions and
	// the requested reviewers of pull request listings), by issue id.
	All(ctx context.Context, issueIDs []int64) (map[int64][]*pull.Review, error)
	// Pending returns reviewerID's pending review of the issue.
	Pending(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error)
	// Latest returns reviewerID's latest verdict or request on the issue
	// (Gitea's GetReviewByIssueIDAndUserID).
	Latest(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error)
	// TeamRequest returns the team's latest request on the issue.
	TeamRequest(ctx context.Context, issueID, teamID int64) (*pull.Review, error)
	// ClearOfficial unsets official on every review of reviewerID on the issue.
	ClearOfficial(ctx context.Context, issueID, reviewerID int64) error
	// SetOfficial sets official on one review.
	SetOfficial(ctx context.Context, id int64, official bool) error
	// DeleteRequests removes the user requests of reviewerID on the issue.
	DeleteRequests(ctx context.Context, issueID, reviewerID int64) error
	// DismissVerdicts dismisses every approval and rejection of reviewerID
	// on the issue.
	DismissVerdicts(ctx context.Context, issueID, reviewerID int64) error
	// MarkStale marks the issue's reviews stale unless they judged head.
	MarkStale(ctx context.Context, issueID int64, head string) error
	// CodeComments returns the code comments of these reviews, oldest
	// first, by review id, in one query.
	CodeComments(ctx context.Context, reviewIDs []int64) (map[int64][]*issue.Comment, error)
	// ValidCodeComments returns the code comments of an issue that are not
	// invalidated yet, oldest first (Gitea's FindComments with
	// Invalidated false), at most limit of them.
	ValidCodeComments(ctx context.Context, issueID int64, limit int) ([]*issue.Comment, error)
	// InvalidateComments marks these code comments outdated (their line
	// changed since).
	InvalidateComments(ctx context.Context, ids []int64) error
	// CodeCommentCounts counts the code comments of these reviews.
	CodeCommentCounts(ctx context.Context, reviewIDs []int64) (map[int64]int, error)
	// Entries returns the id of the timeline entry (issue.CommentReview)
	// of each of these reviews that has one.
	Entries(ctx context.Context, reviewIDs []int64) (map[int64]int64, error)
	// Teams finds these teams (with their units) in one query; absent ids
	// are skipped.
	Teams(ctx context.Context, ids []int64) (map[int64]*org.Team, error)
}
