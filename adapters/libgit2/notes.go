package libgit2

import (
	"context"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// notesRef is where git notes keeps the notes of commits by default.
const notesRef = "refs/notes/commits"

// errNoNote is the answer to a commit without a note.
func errNoNote(id string) error { return errs.NotFound("commit " + id + " has no note") }

// Note returns a commit's note and the notes commit that last changed it
// (ports.GitRefs).
func (s *Storage) Note(ctx context.Context, p ports.RepoPath, commitID string) (ports.GitNote, error) {
	if len(commitID) != 40 || !repository.IsHex(commitID) {
		return ports.GitNote{}, errNoNote(commitID)
	}
	commitID = strings.ToLower(commitID)
	var out ports.GitNote
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		ref, err := repo.References.Lookup(notesRef)
		if err != nil {
			if refMissing(err) {
				return errNoNote(commitID)
			}
			return fmt.Errorf("libgit2: look up %s: %w", notesRef, err)
		}
		defer ref.Free()
		obj, err := ref.Peel(git.ObjectCommit)
		if err != nil {
			return errNoNote(commitID)
		}
		defer obj.Free()
		tip, err := obj.AsCommit()
		if err != nil {
			return errNoNote(commitID)
		}
		defer tip.Free()
		tree, err := tip.Tree()
		if err != nil {
			return fmt.Errorf("libgit2: read notes tree: %w", err)
		}
		defer tree.Free()
		path, blobID, ok := noteFind(repo, tree, commitID)
		if !ok {
			return errNoNote(commitID)
		}
		blob, err := repo.LookupBlob(blobID)
		if err != nil {
			return fmt.Errorf("libgit2: read note of %s: %w", commitID, err)
		}
		note := ports.GitNote{CommitID: commitID, Message: string(blob.Contents())}
		blob.Free()

		last, err := noteLastChange(repo, tip, path, blobID)
		if err != nil {
			return err
		}
		defer last.Free()
		note.Commit = commitInfo(last)
		if err := noteChanges(repo, last, &note); err != nil {
			return err
		}
		out = note
		return nil
	})
	return out, err
}

// noteFind finds the note of id in a notes tree, whose files may sit under
// any depth of two-digit fan-out directories (ab/cdef…), and returns its
// path and blob id.
func noteFind(repo *git.Repository, tree *git.Tree, id string) (string, *git.Oid, bool) {
	var opened []*git.Tree
	defer func() {
		for _, t := range opened {
			t.Free()
		}
	}()
	prefix, rest, cur := "", id, tree
	for len(rest) > 2 {
		if e := cur.EntryByName(rest); e != nil && e.Type == git.ObjectBlob {
			return prefix + rest, e.Id, true
		}
		e := cur.EntryByName(rest[:2])
		if e == nil || e.Type != git.ObjectTree {
			return "", nil, false
		}
		sub, err := repo.LookupTree(e.Id)
		if err != nil {
			return "", nil, false
		}
		opened = append(opened, sub)
		cur, prefix, rest = sub, prefix+rest[:2]+"/", rest[2:]
	}
	return "", nil, false
}

// noteLastChange walks the first-parent history of the notes from tip back
// to the commit that gave path its current content (blob), which the
// caller frees.
func noteLastChange(repo *git.Repository, tip *git.Commit, path string, blob *git.Oid) (*git.Commit, error) {
	cur, err := repo.LookupCommit(tip.Id())
	if err != nil {
		return nil, fmt.Errorf("libgit2: read notes commit: %w", err)
	}
	for cur.ParentCount() > 0 {
		parent := cur.Parent(0)
		if parent == nil {
			break
		}
		same := false
		if pt, err := parent.Tree(); err == nil {
			if e, err := pt.EntryByPath(path); err == nil && e.Id.Equal(blob) {
				same = true
			}
			pt.Free()
		}
		if !same {
			parent.Free()
			break
		}
		cur.Free()
		cur = parent
	}
	return cur, nil
}

// noteChanges records which files c changed against its first parent, and
// the lines it added and removed.
func noteChanges(repo *git.Repository, c *git.Commit, note *ports.GitNote) error {
	newTree, err := c.Tree()
	if err != nil {
		return fmt.Errorf("libgit2: read notes tree: %w", err)
	}
	defer newTree.Free()
	var oldTree *git.Tree
	if c.ParentCount() > 0 {
		if parent := c.Parent(0); parent != nil {
			oldTree, err = parent.Tree()
			parent.Free()
			if err != nil {
				return fmt.Errorf("libgit2: read notes tree: %w", err)
			}
			defer oldTree.Free()
		}
	}
	diff, err := repo.DiffTreeToTree(oldTree, newTree, nil)
	if err != nil {
		return fmt.Errorf("libgit2: diff notes commit: %w", err)
	}
	defer func() { _ = diff.Free() }()
	n, err := diff.NumDeltas()
	if err != nil {
		return fmt.Errorf("libgit2: diff notes commit: %w", err)
	}
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return fmt.Errorf("libgit2: diff notes commit: %w", err)
		}
		switch d.Status {
		case git.DeltaAdded:
			note.Changes = append(note.Changes, ports.GitNoteChange{Path: d.NewFile.Path, Status: "added"})
		case git.DeltaDeleted:
			note.Changes = append(note.Changes, ports.GitNoteChange{Path: d.OldFile.Path, Status: "removed"})
		default:
			note.Changes = append(note.Changes, ports.GitNoteChange{Path: d.NewFile.Path, Status: "modified"})
		}
	}
	stats, err := diff.Stats()
	if err != nil {
		return fmt.Errorf("libgit2: diff stats of notes commit: %w", err)
	}
	note.Additions, note.Deletions = stats.Insertions(), stats.Deletions()
	_ = stats.Free()
	return nil
}
