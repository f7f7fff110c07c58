package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
)

// LabelStore persists repository and organisation labels and which issues
// carry them. Missing rows are errs.ErrNotFound.
type LabelStore interface {
	// Create inserts l (RepoID or OrgID set) and sets its ID.
	Create(ctx context.Context, l *issue.Label) error
	GetByID(ctx context.Context, id int64) (*issue.Label, error)
	// GetByIDs finds these labels in one query, by name; absent ids are skipped.
	GetByIDs(ctx context.Context, ids []int64) ([]*issue.Label, error)
	// GetByName finds the repository's (repoID set) or the organisation's
	// (orgID set) label with exactly this name; of several, the oldest.
	GetByName(ctx context.Context, repoID, orgID int64, name string) (*issue.Label, error)
	// ListByNames returns, in one query and by name, the labels with these
	// exact names of the repository repoID and of the organisation orgID
	// (0 for none).
	ListByNames(ctx context.Context, repoID, orgID int64, names []string) ([]*issue.Label, error)
	// ListByRepo returns one page of a repository's labels by name, and the total.
	ListByRepo(ctx context.Context, repoID int64, opts ListOptions) ([]*issue.Label, int64, error)
	// ListByOrg returns one page of an organisation's labels by name, and the total.
	ListByOrg(ctx context.Context, orgID int64, opts ListOptions) ([]*issue.Label, int64, error)
	Update(ctx context.Context, l *issue.Label) error
	// Delete removes the label from every issue and recounts nothing else.
	Delete(ctx context.Context, id int64) error

	// OfIssues returns the labels of these issues in one query, each list by name.
	OfIssues(ctx context.Context, issueIDs []int64) (map[int64][]*issue.Label, error)
	// AddToIssue puts these labels on the issue (already present ones are kept).
	AddToIssue(ctx context.Context, issueID int64, labelIDs []int64) error
	// RemoveFromIssue takes these labels off the issue.
	RemoveFromIssue(ctx context.Context, issueID int64, labelIDs []int64) error
	// Recount recomputes the open and closed issue counters of these labels.
	Recount(ctx context.Context, labelIDs []int64) error
	// CopyRepoLabels gives repository toRepoID a copy of each of repository
	// fromRepoID's labels (name, color, description, exclusive, archived), created at
	// now, in one statement (a repository generated from a template).
	CopyRepoLabels(ctx context.Context, fromRepoID, toRepoID int64, now time.Time) error
}
