package ports

import (
	"context"

	"github.com/depothq/depot/domain/protection"
)

// BranchProtectionStore persists branch protection rules. A rule's name is
// unique per repository (errs.ErrConflict).
type BranchProtectionStore interface {
	// List returns every rule of the repository (a repository has few), by id.
	List(ctx context.Context, repoID int64) ([]*protection.BranchRule, error)
	// GetByName returns the rule of that exact name.
	GetByName(ctx context.Context, repoID int64, name string) (*protection.BranchRule, error)
	// Create inserts r and sets its id; a priority of 0 becomes one more
	// than the repository's highest, so a new rule comes last.
	Create(ctx context.Context, r *protection.BranchRule) error
	// Update writes every option of r (by id and repository).
	Update(ctx context.Context, r *protection.BranchRule) error
	// Delete removes one rule.
	Delete(ctx context.Context, repoID, id int64) error
	// SetPriorities gives the rules ids, in order, the priorities 1, 2, …;
	// ids of other repositories are left alone.
	SetPriorities(ctx context.Context, repoID int64, ids []int64) error
}

// GitPushInspection is what a ref update of a push does to a branch.
type GitPushInspection struct {
	// FastForward: the old head is an ancestor of the new one.
	FastForward bool
	// ChangedFiles are the paths that differ between the two heads' trees
	// (only when asked for).
	ChangedFiles []string
}

// GitPushInspector looks at a push before it is accepted, while its objects
// may still sit in the push's quarantine directory.
type GitPushInspector interface {
	// InspectPush compares oldID and newID in p; quarantine is the name of
	// the push's incoming object directory under objects/ ("" when none).
	InspectPush(ctx context.Context, p RepoPath, quarantine, oldID, newID string, files bool) (GitPushInspection, error)
	// PushedCommits lists, newest first and with their signatures, the
	// commits a push brings to a branch: oldID..newID, or, when oldID is
	// empty (a new branch), those of newID no existing ref reaches. At most
	// limit are listed.
	PushedCommits(ctx context.Context, p RepoPath, quarantine, oldID, newID string, limit int) ([]CommitDetail, error)
	// SigningKey is the armoured public key of the OpenPGP key Depot signs
	// its own commits with, nil when it signs none.
	SigningKey() []byte
}
