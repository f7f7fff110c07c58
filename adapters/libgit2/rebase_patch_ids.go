package libgit2

import (
	"context"
	"fmt"
	"slices"
	"strings"

	git "github.com/libgit2/git2go/v34"
)

// maxUpstreamPatchCommits bounds the commits of the base side whose changes
// a rebase compares with the head's: the newest ones since the merge base.
// A pick whose patch is in an older one is still replayed, and dropped when
// it changes nothing there.
const maxUpstreamPatchCommits = 1000

// commitPatch is what a rebase compares of one commit: the paths its change
// touches (cheap, from the trees) and, when those match another's, its
// patch id (which reads the files).
type commitPatch struct {
	paths  string
	id     [20]byte
	hasID  bool
	commit *git.Oid
}

// withoutUpstreamPatches drops from picks (head's commits, oldest first)
// those whose change the base side already has, as git rebase does
// without --reapply-cherry-picks: a commit of onto, since its merge base
// with head, with the same patch id. Merges on the base side are not
// compared (git has no patch id for them). Only the paths are compared
// first; patch ids are computed for the commits whose paths match.
func withoutUpstreamPatches(ctx context.Context, repo *git.Repository, picks []*git.Oid, onto, head *git.Oid) ([]*git.Oid, error) {
	if len(picks) == 0 {
		return picks, nil
	}
	walk, err := repo.Walk()
	if err != nil {
		return nil, fmt.Errorf("libgit2: walk: %w", err)
	}
	defer walk.Free()
	walk.Sorting(git.SortTime)
	if err := walk.Push(onto); err != nil {
		return nil, fmt.Errorf("libgit2: walk from %s: %w", onto, err)
	}
	if err := walk.Hide(head); err != nil {
		return nil, fmt.Errorf("libgit2: walk hiding %s: %w", head, err)
	}
	var upstream []*git.Oid
	err = walk.Iterate(func(c *git.Commit) bool {
		if c.ParentCount() <= 1 {
			upstream = append(upstream, c.Id())
		}
		return len(upstream) < maxUpstreamPatchCommits
	})
	if err != nil {
		return nil, fmt.Errorf("libgit2: walk: %w", err)
	}
	if len(upstream) == 0 {
		return picks, nil
	}
	heads := make([]commitPatch, len(picks))
	byPaths := map[string][]int{}
	for i, id := range picks {
		paths, err := commitPaths(repo, id)
		if err != nil {
			return nil, err
		}
		heads[i] = commitPatch{paths: paths, commit: id}
		byPaths[paths] = append(byPaths[paths], i)
	}
	drop := make([]bool, len(picks))
	for n, id := range upstream {
		if n%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		paths, err := commitPaths(repo, id)
		if err != nil {
			return nil, err
		}
		same := byPaths[paths]
		if len(same) == 0 {
			continue
		}
		theirs, err := commitPatchID(repo, id)
		if err != nil {
			return nil, err
		}
		for _, i := range same {
			if !heads[i].hasID {
				if heads[i].id, err = commitPatchID(repo, heads[i].commit); err != nil {
					return nil, err
				}
				heads[i].hasID = true
			}
			if heads[i].id == theirs {
				drop[i] = true
			}
		}
	}
	out := make([]*git.Oid, 0, len(picks))
	for i, id := range picks {
		if !drop[i] {
			out = append(out, id)
		}
	}
	return out, nil
}

// commitPaths names the paths commit id changes from its first parent
// (from the empty tree for a root commit), sorted, one per line.
func commitPaths(repo *git.Repository, id *git.Oid) (string, error) {
	diff, err := commitDiff(repo, id)
	if err != nil {
		return "", err
	}
	defer diff.Free()
	n, err := diff.NumDeltas()
	if err != nil {
		return "", fmt.Errorf("libgit2: diff deltas: %w", err)
	}
	paths := make([]string, 0, 2*n)
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return "", fmt.Errorf("libgit2: diff delta: %w", err)
		}
		paths = append(paths, d.OldFile.Path, d.NewFile.Path)
	}
	slices.Sort(paths)
	return strings.Join(slices.Compact(paths), "\n"), nil
}

// commitPatchID is the patch id of commit id's change from its first parent.
func commitPatchID(repo *git.Repository, id *git.Oid) ([20]byte, error) {
	diff, err := commitDiff(repo, id)
	if err != nil {
		return [20]byte{}, err
	}
	defer diff.Free()
	return diffPatchID(diff)
}

// commitDiff diffs commit id against its first parent, renames not
// detected (as git computes patch ids).
func commitDiff(repo *git.Repository, id *git.Oid) (*git.Diff, error) {
	c, err := repo.LookupCommit(id)
	if err != nil {
		return nil, fmt.Errorf("libgit2: look up %s: %w", id, err)
	}
	defer c.Free()
	return diffWithParent(repo, c, 0)
}
