package libgit2

import (
	"context"
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// RangeChanged reports whether moving a pull request's head from oldHead
// to newHead changed what it proposes against baseID (ports.GitPulls), as
// Gitea's checkIfPRContentChanged: some path differs between the two heads
// and, at the new head, from the merge base of baseID and newHead. A head
// that only took in the base's changes proposes nothing new.
func (s *Storage) RangeChanged(ctx context.Context, p ports.RepoPath, baseID, oldHead, newHead string) (bool, error) {
	var changed bool
	err := s.withRange(ctx, p, baseID, newHead, func(repo *git.Repository, from, head *git.Commit) error {
		old, err := lookupCommit(repo, oldHead)
		if err != nil {
			return err
		}
		defer old.Free()
		diff, err := diffCommitTrees(repo, old, head, 0)
		if err != nil {
			return err
		}
		defer diff.Free()
		fromTree, err := from.Tree()
		if err != nil {
			return fmt.Errorf("libgit2: tree of %s: %w", from.Id(), err)
		}
		defer fromTree.Free()
		n, err := diff.NumDeltas()
		if err != nil {
			return fmt.Errorf("libgit2: diff deltas: %w", err)
		}
		for i := range n {
			d, err := diff.Delta(i)
			if err != nil {
				return fmt.Errorf("libgit2: diff delta: %w", err)
			}
			path, now := d.NewFile.Path, d.NewFile.Oid
			if d.Status == git.DeltaDeleted {
				path, now = d.OldFile.Path, nil
			}
			var atBase *git.Oid
			if e, err := fromTree.EntryByPath(path); err == nil {
				atBase = e.Id
			}
			if (now == nil) != (atBase == nil) || (now != nil && !now.Equal(atBase)) {
				changed = true
				return nil
			}
		}
		return nil
	})
	return changed, err
}
