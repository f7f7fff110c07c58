package libgit2

import (
	"context"
	"fmt"
	"sort"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// maxConflictedFiles bounds MergeCheck.ConflictedFiles.
const maxConflictedFiles = 100

// CheckMerge merges headID into baseID in memory and reports how that went,
// with the stats of the head's changes since the merge base (ports.GitPulls).
// It writes nothing to the repository: the merged file contents and trees
// the check computes go to an object database in memory, dropped after.
func (s *Storage) CheckMerge(ctx context.Context, p ports.RepoPath, baseID, headID string) (ports.MergeCheck, error) {
	var out ports.MergeCheck
	err := s.withCommitPair(ctx, p, baseID, headID, func(repo *git.Repository, base, head *git.Commit) error {
		drop, err := writeInMemory(repo)
		if err != nil {
			return err
		}
		defer drop()
		out, err = checkMerge(ctx, repo, base, head)
		return err
	})
	return out, err
}

// writeInMemory makes repo, a handle opened for this call alone, write new
// objects to memory (libgit2's mempack backend, first in line for writes)
// rather than to its objects directory; reads still see the repository's
// objects and the ones written since. drop frees what was written.
func writeInMemory(repo *git.Repository) (drop func(), err error) {
	odb, err := repo.Odb()
	if err != nil {
		return nil, fmt.Errorf("libgit2: open object database: %w", err)
	}
	defer odb.Free()
	mem, err := git.NewMempack(odb)
	if err != nil {
		return nil, fmt.Errorf("libgit2: object database in memory: %w", err)
	}
	return func() { _ = mem.Reset() }, nil
}

// withCommitPair opens p's repository and looks up two commits by full id
// for fn, freeing them after.
func (s *Storage) withCommitPair(ctx context.Context, p ports.RepoPath, a, b string,
	fn func(repo *git.Repository, a, b *git.Commit) error) error {
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		ca, err := lookupCommit(repo, a)
		if err != nil {
			return err
		}
		defer ca.Free()
		cb, err := lookupCommit(repo, b)
		if err != nil {
			return err
		}
		defer cb.Free()
		return fn(repo, ca, cb)
	})
}

// checkMerge implements CheckMerge on an open repository.
func checkMerge(ctx context.Context, repo *git.Repository, base, head *git.Commit) (ports.MergeCheck, error) {
	var out ports.MergeCheck
	mergeBase, err := mergeBaseOf(repo, base.Id(), head.Id())
	if err != nil {
		return out, err
	}
	if mergeBase != nil {
		out.MergeBase = mergeBase.String()
	}
	if out.CommitsAhead, out.CommitsBehind, err = repo.AheadBehind(head.Id(), base.Id()); err != nil {
		return out, fmt.Errorf("libgit2: ahead and behind: %w", err)
	}
	if err := rangeStats(repo, mergeBase, head, &out); err != nil {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	if ok, err := isAncestor(repo, head.Id(), base.Id()); err != nil {
		return out, err
	} else if ok {
		out.Status = ports.MergeAncestor
		return out, nil
	}
	idx, err := repo.MergeCommits(base, head, nil)
	if err != nil {
		return out, fmt.Errorf("libgit2: merge: %w", err)
	}
	defer idx.Free()
	if idx.HasConflicts() {
		out.Status = ports.MergeConflict
		out.ConflictedFiles, err = conflictedPaths(idx)
		return out, err
	}
	tree, err := idx.WriteTreeTo(repo) // to memory: see CheckMerge
	if err != nil {
		return out, fmt.Errorf("libgit2: write merged tree: %w", err)
	}
	if tree.Equal(base.TreeId()) {
		out.Status = ports.MergeEmpty
	} else {
		out.Status = ports.MergeMergeable
	}
	return out, nil
}

// mergeBaseOf returns the best common ancestor of a and b, nil when the
// histories are unrelated.
func mergeBaseOf(repo *git.Repository, a, b *git.Oid) (*git.Oid, error) {
	id, err := repo.MergeBase(a, b)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("libgit2: merge base: %w", err)
	}
	return id, nil
}

// rangeStats fills the line and file counts of the diff from mergeBase (nil:
// the empty tree) to head, renames detected.
func rangeStats(repo *git.Repository, mergeBase *git.Oid, head *git.Commit, out *ports.MergeCheck) error {
	var from *git.Tree
	if mergeBase != nil {
		c, err := repo.LookupCommit(mergeBase)
		if err != nil {
			return fmt.Errorf("libgit2: look up merge base: %w", err)
		}
		from, err = c.Tree()
		c.Free()
		if err != nil {
			return fmt.Errorf("libgit2: tree of merge base: %w", err)
		}
		defer from.Free()
	}
	to, err := head.Tree()
	if err != nil {
		return fmt.Errorf("libgit2: tree of %s: %w", head.Id(), err)
	}
	defer to.Free()
	diff, err := diffTrees(repo, from, to, 0)
	if err != nil {
		return err
	}
	defer diff.Free()
	if err := findRenames(diff); err != nil {
		return err
	}
	st, err := diff.Stats()
	if err != nil {
		return fmt.Errorf("libgit2: diff stats: %w", err)
	}
	defer st.Free()
	out.Additions, out.Deletions, out.ChangedFiles = st.Insertions(), st.Deletions(), st.FilesChanged()
	return nil
}

// conflictedPaths lists the paths in conflict in idx, sorted, at most
// maxConflictedFiles.
func conflictedPaths(idx *git.Index) ([]string, error) {
	it, err := idx.ConflictIterator()
	if err != nil {
		return nil, fmt.Errorf("libgit2: conflicts: %w", err)
	}
	defer it.Free()
	seen := map[string]bool{}
	for {
		c, err := it.Next()
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("libgit2: conflicts: %w", err)
		}
		// A side that deleted the file has no entry; a rename conflict can
		// name the path differently on each side.
		for _, e := range []*git.IndexEntry{c.Our, c.Their, c.Ancestor} {
			if e != nil {
				seen[e.Path] = true
			}
		}
	}
	paths := make([]string, 0, len(seen))
	for path := range seen {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	if len(paths) > maxConflictedFiles {
		paths = paths[:maxConflictedFiles]
	}
	return paths, nil
}

// mergedTree merges theirs into ours in memory and writes the result's
// tree; a conflict is errs.ErrConflict.
func mergedTree(repo *git.Repository, ours, theirs *git.Commit) (*git.Oid, error) {
	idx, err := repo.MergeCommits(ours, theirs, nil)
	if err != nil {
		return nil, fmt.Errorf("libgit2: merge: %w", err)
	}
	defer idx.Free()
	if idx.HasConflicts() {
		paths, err := conflictedPaths(idx)
		if err != nil {
			return nil, err
		}
		return nil, errConflictIn(paths)
	}
	tree, err := idx.WriteTreeTo(repo)
	if err != nil {
		return nil, fmt.Errorf("libgit2: write merged tree: %w", err)
	}
	return tree, nil
}

// errConflictIn is the answer to a merge with conflicts in paths.
func errConflictIn(paths []string) error {
	msg := "merge conflict"
	if len(paths) > 0 {
		msg += " in " + paths[0]
		if len(paths) > 1 {
			msg += fmt.Sprintf(" and %d more files", len(paths)-1)
		}
	}
	return errs.Conflict(msg)
}

// mergeSignatures turns c's signatures into libgit2's (a zero time is now;
// no committer is the author). An author needs a name.
func mergeSignatures(c ports.GitMergeCommit) (author, committer *git.Signature, err error) {
	if c.Author.Name == "" {
		return nil, nil, errs.Invalid("author name is required", "author")
	}
	author, committer = gitSignatures(c.Author, c.Committer)
	return author, committer, nil
}

// MergeCommits writes the merge commit of theirs into ours, parents ours
// and theirs, without moving a ref (ports.GitPulls).
func (s *Storage) MergeCommits(ctx context.Context, p ports.RepoPath, ours, theirs string, c ports.GitMergeCommit) (string, error) {
	return s.writeMerged(ctx, p, ours, theirs, c, true)
}

// SquashCommits writes one commit on base with the tree of the merge of
// head into base, without moving a ref (ports.GitPulls).
func (s *Storage) SquashCommits(ctx context.Context, p ports.RepoPath, base, head string, c ports.GitMergeCommit) (string, error) {
	return s.writeMerged(ctx, p, base, head, c, false)
}

// writeMerged commits the in-memory merge of theirs into ours, with theirs
// as second parent when bothParents is set.
func (s *Storage) writeMerged(ctx context.Context, p ports.RepoPath, ours, theirs string, c ports.GitMergeCommit, bothParents bool) (string, error) {
	author, committer, err := mergeSignatures(c)
	if err != nil {
		return "", err
	}
	var out string
	err = s.withCommitPair(ctx, p, ours, theirs, func(repo *git.Repository, o, t *git.Commit) error {
		tree, err := mergedTree(repo, o, t)
		if err != nil {
			return err
		}
		parents := []*git.Oid{o.Id()}
		if bothParents {
			parents = append(parents, t.Id())
		}
		id, err := s.commits().write(repo, "", author, committer, message(c.Message), tree, parents...)
		if err != nil {
			return fmt.Errorf("libgit2: create commit: %w", err)
		}
		out = id.String()
		return nil
	})
	return out, err
}

// RebaseCommits replays head's commits not in onto on top of onto, merges
// left out, those whose patch onto already has (same patch id) skipped and
// commits that become empty dropped, as git rebase does, and returns the
// new tip without moving a ref (ports.GitPulls).
func (s *Storage) RebaseCommits(ctx context.Context, p ports.RepoPath, onto, head string, committer ports.GitSignature) (string, error) {
	if committer.Name == "" {
		return "", errs.Invalid("committer name is required", "committer")
	}
	when := committer.When
	if when.IsZero() {
		when = time.Now()
	}
	sig := &git.Signature{Name: committer.Name, Email: committer.Email, When: when}
	var out string
	err := s.withCommitPair(ctx, p, onto, head, func(repo *git.Repository, o, h *git.Commit) error {
		picks, err := rebaseList(repo, o.Id(), h.Id())
		if err != nil {
			return err
		}
		if picks, err = withoutUpstreamPatches(ctx, repo, picks, o.Id(), h.Id()); err != nil {
			return err
		}
		tip, tipTree := o.Id(), o.TreeId()
		for _, id := range picks {
			if err := ctx.Err(); err != nil {
				return err
			}
			next, nextTree, err := replay(s.commits(), repo, id, tip, tipTree, sig)
			if err != nil {
				return err
			}
			if next != nil {
				tip, tipTree = next, nextTree
			}
		}
		out = tip.String()
		return nil
	})
	return out, err
}

// rebaseList lists the commits reachable from head and not from onto,
// oldest first, merges left out, as git rebase picks them.
func rebaseList(repo *git.Repository, onto, head *git.Oid) ([]*git.Oid, error) {
	walk, err := repo.Walk()
	if err != nil {
		return nil, fmt.Errorf("libgit2: walk: %w", err)
	}
	defer walk.Free()
	walk.Sorting(git.SortTopological | git.SortReverse)
	if err := walk.Push(head); err != nil {
		return nil, fmt.Errorf("libgit2: walk from %s: %w", head, err)
	}
	if err := walk.Hide(onto); err != nil {
		return nil, fmt.Errorf("libgit2: walk hiding %s: %w", onto, err)
	}
	var ids []*git.Oid
	err = walk.Iterate(func(c *git.Commit) bool {
		if c.ParentCount() <= 1 {
			ids = append(ids, c.Id())
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("libgit2: walk: %w", err)
	}
	return ids, nil
}

// replay applies commit id's change (its first parent's tree to its tree;
// the empty tree for a root commit) onto tip, whose tree is tipTree, and
// commits the result with id's author and message and committer. A change
// that is already in tip (the result's tree is tipTree) writes nothing and
// returns nil, as git rebase drops it; a commit that was empty to begin with
// is kept, as git rebase keeps it.
func replay(w commitWriter, repo *git.Repository, id, tip, tipTree *git.Oid, committer *git.Signature) (*git.Oid, *git.Oid, error) {
	c, err := repo.LookupCommit(id)
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: look up %s: %w", id, err)
	}
	defer c.Free()
	var ancestor *git.Tree
	startedEmpty := false
	if c.ParentCount() > 0 {
		parent, err := repo.LookupCommit(c.ParentId(0))
		if err != nil {
			return nil, nil, fmt.Errorf("libgit2: parent of %s: %w", id, err)
		}
		startedEmpty = parent.TreeId().Equal(c.TreeId())
		ancestor, err = parent.Tree()
		parent.Free()
		if err != nil {
			return nil, nil, fmt.Errorf("libgit2: tree of parent of %s: %w", id, err)
		}
		defer ancestor.Free()
	}
	ours, err := repo.LookupTree(tipTree)
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: look up tree %s: %w", tipTree, err)
	}
	defer ours.Free()
	theirs, err := c.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: tree of %s: %w", id, err)
	}
	defer theirs.Free()
	idx, err := repo.MergeTrees(ancestor, ours, theirs, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: apply %s: %w", id, err)
	}
	defer idx.Free()
	if idx.HasConflicts() {
		paths, err := conflictedPaths(idx)
		if err != nil {
			return nil, nil, err
		}
		return nil, nil, errs.Conflict(fmt.Sprintf("commit %s does not apply: %s", id, errs.Message(errConflictIn(paths))))
	}
	tree, err := idx.WriteTreeTo(repo)
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: write tree of %s: %w", id, err)
	}
	if tree.Equal(tipTree) && !startedEmpty {
		return nil, nil, nil
	}
	next, err := w.write(repo, "", c.Author(), committer, c.RawMessage(), tree, tip)
	if err != nil {
		return nil, nil, fmt.Errorf("libgit2: create commit: %w", err)
	}
	return next, tree, nil
}
