package ports

import (
	"context"

	"github.com/depothq/depot/domain/issue"
)

// MilestoneQuery filters a repository's milestones.
type MilestoneQuery struct {
	RepoID int64
	// State is "open", "closed" or "all" (empty means open).
	State string
	// Name matches titles containing it, case-insensitively.
	Name string
	ListOptions
}

// MilestoneStore persists milestones. Missing rows are errs.ErrNotFound.
type MilestoneStore interface {
	Create(ctx context.Context, m *issue.Milestone) error
	// Get finds the repository's milestone by id.
	Get(ctx context.Context, repoID, id int64) (*issue.Milestone, error)
	// GetByTitle finds the repository's milestone by exact title.
	GetByTitle(ctx context.Context, repoID int64, title string) (*issue.Milestone, error)
	// GetByIDs finds these milestones in one query; absent ids are skipped.
	GetByIDs(ctx context.Context, ids []int64) ([]*issue.Milestone, error)
	List(ctx context.Context, q MilestoneQuery) ([]*issue.Milestone, int64, error)
	Update(ctx context.Context, m *issue.Milestone) error
	// Delete removes the milestone and clears it from its issues.
	Delete(ctx context.Context, repoID, id int64) error
	// Recount recomputes the open and closed issue counters of these milestones.
	Recount(ctx context.Context, ids []int64) error
}
