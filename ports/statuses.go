package ports

import (
	"context"

	"github.com/depothq/depot/domain/commitstatus"
)

// CommitStatusQuery filters and orders one commit's status listing.
type CommitStatusQuery struct {
	// State keeps only statuses in this state; empty keeps all.
	State commitstatus.State
	Sort  commitstatus.Sort
	ListOptions
}

// CommitStatusStore persists the statuses reported on commits. A status
// belongs to its repository: deleting the repository deletes its statuses.
type CommitStatusStore interface {
	// Create stores s and sets s.ID and s.Index, the next index of
	// (s.RepoID, s.SHA) counting from 1; concurrent creations on one commit
	// get distinct indexes. A missing repository is errs.ErrNotFound.
	Create(ctx context.Context, s *commitstatus.Status) error
	// CreateMany is Create for many statuses in few statements: those of
	// one commit take its next indexes in list order.
	CreateMany(ctx context.Context, list []*commitstatus.Status) error
	// List returns one page of the statuses of (repoID, sha) matching q, in
	// q's order, and how many match in all.
	List(ctx context.Context, repoID int64, sha string, q CommitStatusQuery) ([]*commitstatus.Status, int64, error)
	// Latest returns one page of the latest status of each context of
	// (repoID, sha) (commitstatus.Latest's selection), the newest first, and
	// the number of contexts.
	Latest(ctx context.Context, repoID int64, sha string, opts ListOptions) ([]*commitstatus.Status, int64, error)
	// LatestStates counts the latest statuses of (repoID, sha) by state, for
	// the combined state of a commit whose contexts do not fit on one page.
	LatestStates(ctx context.Context, repoID int64, sha string) (map[commitstatus.State]int64, error)
}
