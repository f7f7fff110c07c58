package libgit2

import (
	"context"

	"github.com/depothq/depot/ports"
)

// ChangeFilesRacing is ChangeFiles with race run between building an
// attempt's tree and moving the branch, so tests can move the branch there.
func (s *Storage) ChangeFilesRacing(ctx context.Context, p ports.RepoPath, cs ports.GitChangeSet, race func(attempt int)) (ports.GitChangeResult, error) {
	return s.changeFiles(ctx, p, cs, race)
}

// ApplyPatchRacing is ApplyPatch with the same hook as ChangeFilesRacing.
func (s *Storage) ApplyPatchRacing(ctx context.Context, p ports.RepoPath, ps ports.GitPatchSet, race func(attempt int)) (ports.GitChangeResult, error) {
	return s.applyPatch(ctx, p, ps, race)
}
