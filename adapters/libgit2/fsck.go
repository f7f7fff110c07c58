package libgit2

import (
	"context"

	"github.com/depothq/depot/ports"
)

var _ ports.GitFsck = (*Storage)(nil)

// Fsck runs `git fsck` in p's repository (libgit2 has no integrity check),
// with a clean git configuration; its report, bounded, is the error.
func (s *Storage) Fsck(ctx context.Context, p ports.RepoPath) error {
	return s.runGit(ctx, p, nil, "fsck", "--no-progress")
}
