package libgit2

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"sort"
	"strings"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.GitChanges = (*Storage)(nil)

// changeMaxAttempts bounds how often a write is rebuilt on a branch tip that
// moved under it. Each lost race means another write landed, so a burst of
// n concurrent writes needs at most n attempts; lock contention costs a few
// more.
const changeMaxAttempts = 32

// changeEmptyTreeID is the id of the tree with no entries.
const changeEmptyTreeID = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// ChangeFiles commits a set of file changes (ports.GitChanges).
func (s *Storage) ChangeFiles(ctx context.Context, p ports.RepoPath, cs ports.GitChangeSet) (ports.GitChangeResult, error) {
	return s.changeFiles(ctx, p, cs, nil)
}

// changeWritten is what a change left at its path on one attempt.
type changeWritten struct {
	id      *git.Oid
	mode    git.Filemode
	content []byte
	// changed is unset when the path held the same blob and mode before.
	changed bool
}

// changeFiles implements ChangeFiles; race, when set, runs after each
// attempt built its tree and before it moves the branch (tests use it to
// move the branch under the write).
func (s *Storage) changeFiles(ctx context.Context, p ports.RepoPath, cs ports.GitChangeSet, race func(attempt int)) (ports.GitChangeResult, error) {
	if len(cs.Changes) == 0 {
		return ports.GitChangeResult{}, errs.Invalid("Required", "Files")
	}
	var out ports.GitChangeResult
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		// Blobs are written once; an attempt on a moved tip only rebuilds trees.
		blobs := make([]*git.Oid, len(cs.Changes))
		for i, c := range cs.Changes {
			if !c.Writes() || (c.Operation == repository.FileRename && len(c.Content) == 0) {
				continue
			}
			if blobs[i], err = repo.CreateBlobFromBuffer(c.Content); err != nil {
				return fmt.Errorf("libgit2: write blob %s: %w", c.Path, err)
			}
		}
		var written []changeWritten
		build := func(base *git.Tree) (*git.Oid, error) {
			var edits []changeEdit
			var err error
			edits, written, err = changePlanFiles(repo, base, cs.Changes, blobs)
			if err != nil {
				return nil, err
			}
			return changeEditTree(repo, base, edits, "")
		}
		id, wasEmpty, err := changeCommit(ctx, s.commits(), repo, cs.GitChangeTarget, true, build, race)
		if err != nil {
			return err
		}
		res, err := changeResult(repo, cs.Target(), id, wasEmpty)
		if err != nil {
			return err
		}
		res.Entries = make([]*ports.GitEntry, len(cs.Changes))
		for i, c := range cs.Changes {
			if !c.Writes() {
				continue
			}
			w := written[i]
			e := &ports.GitEntry{
				Path: c.Path, Name: path.Base(c.Path), Type: ports.EntryFile, Mode: int(w.mode),
				ID: w.id.String(), Size: int64(len(w.content)), Content: w.content,
			}
			if w.changed {
				e.LastCommit = &res.Commit
			}
			res.Entries[i] = e
		}
		out = res
		return nil
	})
	return out, err
}

// changeResult reads back the commit a write made.
func changeResult(repo *git.Repository, branch string, id *git.Oid, wasEmpty bool) (ports.GitChangeResult, error) {
	c, err := repo.LookupCommit(id)
	if err != nil {
		return ports.GitChangeResult{}, fmt.Errorf("libgit2: read new commit: %w", err)
	}
	defer c.Free()
	return ports.GitChangeResult{Branch: branch, Commit: commitInfo(c), WasEmpty: wasEmpty}, nil
}

// changeEdit is one change to a tree: a blob written at path, or path removed.
type changeEdit struct {
	path   string
	id     *git.Oid
	mode   git.Filemode
	remove bool
}

// changeEditTree writes the tree that is base (nil for none) with edits made,
// touching only the trees along the edited paths. A directory left empty is
// dropped, as Git keeps no empty directories. prefix is base's own path, for
// messages.
func changeEditTree(repo *git.Repository, base *git.Tree, edits []changeEdit, prefix string) (*git.Oid, error) {
	var (
		tb  *git.TreeBuilder
		err error
	)
	if base != nil {
		tb, err = repo.TreeBuilderFromTree(base)
	} else {
		tb, err = repo.TreeBuilder()
	}
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree builder: %w", err)
	}
	defer tb.Free()

	leaves := map[string]changeEdit{}
	groups := map[string][]changeEdit{}
	for _, e := range edits {
		head, rest, nested := strings.Cut(e.path, "/")
		if !nested {
			leaves[head] = e
			continue
		}
		sub := e
		sub.path = rest
		groups[head] = append(groups[head], sub)
	}
	names := make([]string, 0, len(leaves))
	for name := range leaves {
		names = append(names, name)
	}
	sort.Strings(names) // deterministic errors; the builder sorts entries itself
	for _, name := range names {
		e := leaves[name]
		if e.remove {
			if err := tb.Remove(name); err != nil && !git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return nil, fmt.Errorf("libgit2: remove %s%s: %w", prefix, name, err)
			}
			continue
		}
		if _, ok := groups[name]; ok {
			return nil, errs.Invalid("a file and a directory would share the path [path: "+prefix+name+"]", "TreePath")
		}
		if err := tb.Insert(name, e.id, e.mode); err != nil {
			return nil, fmt.Errorf("libgit2: tree entry %s%s: %w", prefix, name, err)
		}
	}
	dirs := make([]string, 0, len(groups))
	for name := range groups {
		dirs = append(dirs, name)
	}
	sort.Strings(dirs)
	for _, name := range dirs {
		id, err := changeEditSubtree(repo, base, name, leaves[name].remove, groups[name], prefix)
		if err != nil {
			return nil, err
		}
		if id.String() == changeEmptyTreeID {
			if err := tb.Remove(name); err != nil && !git.IsErrorCode(err, git.ErrorCodeNotFound) {
				return nil, fmt.Errorf("libgit2: remove %s%s: %w", prefix, name, err)
			}
			continue
		}
		if err := tb.Insert(name, id, git.FilemodeTree); err != nil {
			return nil, fmt.Errorf("libgit2: tree entry %s%s: %w", prefix, name, err)
		}
	}
	id, err := tb.Write()
	if err != nil {
		return nil, fmt.Errorf("libgit2: write tree: %w", err)
	}
	return id, nil
}

// changeEditSubtree writes base's subdirectory name with edits made; replaced
// says the entry there was removed by the same write, so the directory
// starts empty.
func changeEditSubtree(repo *git.Repository, base *git.Tree, name string, replaced bool, edits []changeEdit, prefix string) (*git.Oid, error) {
	var sub *git.Tree
	if base != nil && !replaced {
		if e := base.EntryByName(name); e != nil {
			if e.Type != git.ObjectTree {
				return nil, errs.Invalid(changeKind(e)+" exists where you're trying to create a subdirectory [path: "+prefix+name+"]", "TreePath")
			}
			t, err := repo.LookupTree(e.Id)
			if err != nil {
				return nil, fmt.Errorf("libgit2: read tree %s%s: %w", prefix, name, err)
			}
			defer t.Free()
			sub = t
		}
	}
	return changeEditTree(repo, sub, edits, prefix+name+"/")
}

// changeTip is the state of the branch a write starts from.
type changeTip struct {
	// ref is the target branch when it exists: the commit moves it only if
	// it still points at commit.
	ref *git.Reference
	// commit and tree are the tip read; nil when the repository is empty.
	commit   *git.Commit
	tree     *git.Tree
	wasEmpty bool
}

func (t *changeTip) free() {
	if t.tree != nil {
		t.tree.Free()
	}
	if t.commit != nil {
		t.commit.Free()
	}
	if t.ref != nil {
		t.ref.Free()
	}
}

// changeHasNoBranch reports whether repo has no branch at all.
func changeHasNoBranch(repo *git.Repository) (bool, error) {
	it, err := repo.NewReferenceIteratorGlob("refs/heads/*")
	if err != nil {
		return false, fmt.Errorf("libgit2: list branches: %w", err)
	}
	defer it.Free()
	if _, err := it.Names().Next(); err != nil {
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			return true, nil
		}
		return false, fmt.Errorf("libgit2: list branches: %w", err)
	}
	return false, nil
}

// changeReadTip reads the branch t reads from and checks the one it writes to.
func changeReadTip(repo *git.Repository, t ports.GitChangeTarget, allowEmpty bool) (*changeTip, error) {
	name, err := branchRef(t.Branch)
	if err != nil {
		return nil, err
	}
	target, err := branchRef(t.Target())
	if err != nil {
		return nil, errs.Invalid("invalid branch name", "NewBranchName")
	}
	tip := &changeTip{}
	ref, err := repo.References.Lookup(name)
	switch {
	case err == nil:
		direct, rerr := ref.Resolve()
		ref.Free()
		if rerr != nil {
			return nil, fmt.Errorf("libgit2: resolve %s: %w", name, rerr)
		}
		obj, perr := direct.Peel(git.ObjectCommit)
		if perr != nil {
			direct.Free()
			return nil, errs.NotFound("branch " + t.Branch + " does not point at a commit")
		}
		tip.ref = direct
		tip.commit, err = obj.AsCommit() // a copy: obj is freed either way
		obj.Free()
		if err != nil {
			tip.free()
			return nil, fmt.Errorf("libgit2: read tip of %s: %w", t.Branch, err)
		}
		if tip.tree, err = tip.commit.Tree(); err != nil {
			tip.free()
			return nil, fmt.Errorf("libgit2: read tree of %s: %w", t.Branch, err)
		}
	case git.IsErrorCode(err, git.ErrorCodeNotFound):
		none := false
		if allowEmpty {
			if none, err = changeHasNoBranch(repo); err != nil {
				return nil, err
			}
		}
		if !none {
			return nil, errs.NotFound("branch does not exist [name: " + t.Branch + "]")
		}
		tip.wasEmpty = true
	default:
		return nil, fmt.Errorf("libgit2: look up %s: %w", name, err)
	}
	if target != name {
		if tip.ref != nil {
			tip.ref.Free()
			tip.ref = nil
		}
		exists, err := hasRef(repo, target)
		if err != nil {
			tip.free()
			return nil, err
		}
		if exists {
			tip.free()
			return nil, errs.Invalid("branch already exists [name: "+t.Target()+"]", "NewBranchName")
		}
	}
	return tip, nil
}

// changeSignatures turns a target's author and committer into libgit2
// signatures; a zero time is now and an empty committer is the author.
func changeSignatures(t ports.GitChangeTarget) (author, committer *git.Signature, err error) {
	if strings.TrimSpace(t.Author.Name) == "" || strings.TrimSpace(t.Author.Email) == "" {
		return nil, nil, errs.Invalid("author name and email are required", "Author")
	}
	author, committer = gitSignatures(t.Author, t.Committer)
	return author, committer, nil
}

// changeRetryable reports whether a ref update failed because someone else
// moved, created or locked the branch meanwhile.
func changeRetryable(err error) bool {
	return git.IsErrorCode(err, git.ErrorCodeModified) || git.IsErrorCode(err, git.ErrorCodeExists) ||
		git.IsErrorCode(err, git.ErrorCodeLocked)
}

// changeBackoff waits a little, more after each attempt, so that writers that
// collided do not collide again in lockstep.
func changeBackoff(ctx context.Context, attempt int) error {
	d := time.Duration(attempt) * 500 * time.Microsecond
	d = min(d, 20*time.Millisecond)
	d = d/2 + rand.N(d/2+1)
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// changeCommit builds a tree from the branch tip with build, commits it and
// moves the target branch to the commit only if it still points at the tip
// read (or, for a branch being created, if it is still absent). A write that
// lost a race is rebuilt on the new tip; when it no longer applies there,
// the refusal becomes errs.ErrConflict, as the write was valid when sent.
// allowEmpty lets a write create the first branch of an empty repository.
func changeCommit(ctx context.Context, w commitWriter, repo *git.Repository, t ports.GitChangeTarget, allowEmpty bool,
	build func(base *git.Tree) (*git.Oid, error), race func(attempt int)) (*git.Oid, bool, error) {
	author, committer, err := changeSignatures(t)
	if err != nil {
		return nil, false, err
	}
	target, err := branchRef(t.Target())
	if err != nil {
		return nil, false, errs.Invalid("invalid branch name", "NewBranchName")
	}
	lost := func(attempt int, err error) error {
		if attempt > 1 && (errors.Is(err, errs.ErrInvalid) || errors.Is(err, errs.ErrNotFound)) {
			return errs.Conflict("branch " + t.Target() + " changed while committing: " + errs.Message(err))
		}
		return err
	}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		tip, err := changeReadTip(repo, t, allowEmpty)
		if err != nil {
			return nil, false, lost(attempt, err)
		}
		id, err := changeCommitOnTip(w, repo, tip, target, author, committer, message(t.Message), build, race, attempt)
		wasEmpty := tip.wasEmpty
		tip.free()
		if err == nil {
			return id, wasEmpty, nil
		}
		if !changeRetryable(err) {
			return nil, false, lost(attempt, err)
		}
		if attempt == changeMaxAttempts {
			return nil, false, errs.Conflict("branch " + t.Target() + " kept changing while committing; try again")
		}
		if err := changeBackoff(ctx, attempt); err != nil {
			return nil, false, err
		}
	}
}

// changeCommitOnTip is one attempt of changeCommit.
func changeCommitOnTip(w commitWriter, repo *git.Repository, tip *changeTip, target string, author, committer *git.Signature, msg string,
	build func(base *git.Tree) (*git.Oid, error), race func(attempt int), attempt int) (*git.Oid, error) {
	treeID, err := build(tip.tree)
	if err != nil {
		return nil, err
	}
	var parents []*git.Oid
	if tip.commit != nil {
		parents = append(parents, tip.commit.Id())
	}
	// No ref is named here: the ref moves below, under a compare-and-swap.
	id, err := w.write(repo, "", author, committer, msg, treeID, parents...)
	if err != nil {
		return nil, fmt.Errorf("libgit2: create commit: %w", err)
	}
	if race != nil {
		race(attempt)
	}
	var moved *git.Reference
	if tip.ref != nil {
		// Matches the ref's old value under its lock (GIT_EMODIFIED otherwise).
		moved, err = tip.ref.SetTarget(id, "")
	} else {
		// Refuses a branch that appeared meanwhile (GIT_EEXISTS).
		moved, err = repo.References.Create(target, id, false, "")
	}
	if err != nil {
		if changeRetryable(err) {
			return nil, err
		}
		return nil, fmt.Errorf("libgit2: update %s: %w", target, err)
	}
	moved.Free()
	return id, nil
}
