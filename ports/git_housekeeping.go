package ports

import (
	"context"

	"github.com/depothq/depot/domain/repository"
)

// GitHousekeeping reads and tidies repositories' object stores, for the
// housekeeping after pushes and the git_gc_repos task.
type GitHousekeeping interface {
	// ObjectStore describes p's objects: its packs and their sizes, whether
	// the largest has a bitmap, the estimate of its loose objects.
	ObjectStore(ctx context.Context, p RepoPath) (repository.ObjectStore, error)
	// CollectGarbage runs `git gc` in p's repository: one pack with a
	// reachability bitmap and a commit-graph, the unreachable objects in a
	// cruft pack until they expire. Objects written while it runs are kept.
	// ctx bounds it (its end kills git and its children).
	CollectGarbage(ctx context.Context, p RepoPath) error
	// RollUp rolls p's loose objects and small packs into fewer packs,
	// leaving the large ones (`git repack -d --geometric=2`); ctx bounds it
	// as it does CollectGarbage.
	RollUp(ctx context.Context, p RepoPath) error
}
