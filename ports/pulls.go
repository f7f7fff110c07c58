package ports

import (
	"context"

	"github.com/depothq/depot/domain/pull"
)

// PullStore persists what pull requests have beyond their issue rows (the
// IssueStore keeps those: index, title, state, labels, …), and scheduled
// automatic merges. Missing rows are errs.ErrNotFound. Lists of pull
// requests go through IssueStore.List (IsPull, BaseBranch) and then
// ByIssueIDs, so a page costs a constant number of statements.
type PullStore interface {
	// Create inserts p (its issue exists already) and sets p.ID.
	Create(ctx context.Context, p *pull.PullRequest) error
	GetByID(ctx context.Context, id int64) (*pull.PullRequest, error)
	GetByIssueID(ctx context.Context, issueID int64) (*pull.PullRequest, error)
	GetByIndex(ctx context.Context, repoID, index int64) (*pull.PullRequest, error)
	// ByIssueIDs loads the pull requests of these issues in one query, by
	// issue id; issues that are not pull requests are absent.
	ByIssueIDs(ctx context.Context, issueIDs []int64) (map[int64]*pull.PullRequest, error)
	// Update writes every mutable column of p.
	Update(ctx context.Context, p *pull.PullRequest) error
	// SetHead records a new head commit and marks the check as pending
	// (StatusChecking), unless the pull request is merged.
	SetHead(ctx context.Context, id int64, headCommitID string) error
	// SetCheck records a check computed for headCommitID; it changes
	// nothing and reports false when the head has moved since, or the pull
	// request was merged meanwhile.
	SetCheck(ctx context.Context, id int64, headCommitID string, c pull.Check) (bool, error)
	// FindUnmerged returns the open, unmerged pull request from head to
	// base, if any (errs.ErrNotFound otherwise).
	FindUnmerged(ctx context.Context, baseRepoID int64, baseBranch string, headRepoID int64, headBranch string) (*pull.PullRequest, error)
	// OpenOnBranch lists the open, unmerged pull requests that have
	// repoID's branch as head or as base, at most limit of them.
	OpenOnBranch(ctx context.Context, repoID int64, branch string, limit int) ([]*pull.PullRequest, error)
	// HasOpenFromHead reports whether an open, unmerged pull request other
	// than exceptID has this head branch.
	HasOpenFromHead(ctx context.Context, headRepoID int64, headBranch string, exceptID int64) (bool, error)
	// ByMergeCommit finds the merged pull request of repoID whose merge
	// produced commit sha.
	ByMergeCommit(ctx context.Context, repoID int64, sha string) (*pull.PullRequest, error)
	// ForgetHeadRepo marks the pull requests whose head lived in repoID as
	// having lost their head repository (it is being deleted).
	ForgetHeadRepo(ctx context.Context, repoID int64) error

	// ScheduleAutoMerge records m; one already scheduled for the pull
	// request is errs.ErrConflict.
	ScheduleAutoMerge(ctx context.Context, m *pull.AutoMerge) error
	// AutoMerge returns the merge scheduled for a pull request.
	AutoMerge(ctx context.Context, pullID int64) (*pull.AutoMerge, error)
	// ScheduledForHead lists the pull requests of repoID with a merge
	// scheduled on head commit sha.
	ScheduledForHead(ctx context.Context, repoID int64, sha string) ([]int64, error)
	// DeleteAutoMerge removes it; absent is errs.ErrNotFound.
	DeleteAutoMerge(ctx context.Context, pullID int64) error
}
