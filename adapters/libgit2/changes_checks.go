package libgit2

import (
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// changeLookup returns the entry at p in base, or nil when there is none.
func changeLookup(base *git.Tree, p string) (*git.TreeEntry, error) {
	if base == nil {
		return nil, nil
	}
	e, err := base.EntryByPath(p)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return nil, nil
		}
		return nil, fmt.Errorf("libgit2: look up %s: %w", p, err)
	}
	return e, nil
}

// changeKind names what an entry is, for messages.
func changeKind(e *git.TreeEntry) string {
	switch {
	case e.Type == git.ObjectTree:
		return "a directory"
	case e.Filemode == git.FilemodeLink:
		return "a symbolic link"
	case e.Filemode == git.FilemodeCommit:
		return "a submodule"
	}
	return "a file"
}

// changeIsRegularFile reports whether e is a plain or executable file.
func changeIsRegularFile(e *git.TreeEntry) bool {
	return e.Type == git.ObjectBlob && (e.Filemode == git.FilemodeBlob || e.Filemode == git.FilemodeBlobExecutable)
}

// changePlanFiles checks the changes against base as Gitea does and returns the
// tree edits that make them, and what each change leaves at its path.
func changePlanFiles(repo *git.Repository, base *git.Tree, changes []repository.FileChange, blobs []*git.Oid) ([]changeEdit, []changeWritten, error) {
	edits := make([]changeEdit, 0, len(changes)+1)
	written := make([]changeWritten, len(changes))
	for i, c := range changes {
		src, err := changeCheckSource(base, c)
		if err != nil {
			return nil, nil, err
		}
		if !c.Writes() {
			edits = append(edits, changeEdit{path: c.Path, remove: true})
			continue
		}
		old, err := changeCheckTarget(repo, base, c)
		if err != nil {
			return nil, nil, err
		}
		w := changeWritten{id: blobs[i], mode: git.FilemodeBlob, content: c.Content}
		if src != nil {
			w.mode = src.Filemode // an update keeps the executable bit
		} else if old != nil {
			w.mode = old.Filemode
		}
		if w.id == nil { // a rename that keeps the content
			blob, err := repo.LookupBlob(src.Id)
			if err != nil {
				return nil, nil, fmt.Errorf("libgit2: read %s: %w", c.FromPath, err)
			}
			w.id, w.content = src.Id, append([]byte(nil), blob.Contents()...)
			blob.Free()
		}
		w.changed = old == nil || !old.Id.Equal(w.id) || old.Filemode != w.mode
		written[i] = w
		if c.Moves() {
			edits = append(edits, changeEdit{path: c.FromPath, remove: true})
		}
		edits = append(edits, changeEdit{path: c.Path, id: w.id, mode: w.mode})
	}
	return edits, written, nil
}

// changeCheckSource finds the file a change reads (update, rename, delete, and
// upload over an existing file) and checks its SHA. It returns nil when the
// change reads nothing.
func changeCheckSource(base *git.Tree, c repository.FileChange) (*git.TreeEntry, error) {
	if c.Operation == repository.FileCreate {
		return nil, nil
	}
	field := "TreePath"
	if c.Moves() {
		field = "FromPath"
	}
	src, err := changeLookup(base, c.Source())
	if err != nil {
		return nil, err
	}
	if src == nil {
		if c.Operation != repository.FileUpload {
			return nil, errs.NotFound("repository file does not exist [path: " + c.Source() + "]")
		}
		if c.SHA != "" {
			return nil, errs.Invalid("sha does not match [given: "+c.SHA+", expected: ]", "SHA")
		}
		return nil, nil
	}
	switch {
	case src.Type == git.ObjectTree:
		return nil, errs.Invalid("a directory exists where a file is expected [path: "+c.Source()+"]", field)
	case c.Writes() && !changeIsRegularFile(src):
		return nil, errs.Invalid(changeKind(src)+" exists where a file is expected [path: "+c.Source()+"]", field)
	case c.SHA != "" && src.Id.String() != c.SHA:
		return nil, errs.Invalid("sha does not match [given: "+c.SHA+", expected: "+src.Id.String()+"]", "SHA")
	}
	if c.Operation == repository.FileUpload {
		return nil, nil // its mode is kept through the target
	}
	return src, nil
}

// changeCheckTarget checks that a file may be written at c.Path: every parent
// is a directory (or absent), and the path itself is absent or, when the
// change replaces it in place, a file. It returns the entry found there.
// The parents are walked down one tree at a time: looking each prefix up
// from the root cost the square of the path's depth, seconds for one file
// 2,000 directories deep.
func changeCheckTarget(repo *git.Repository, base *git.Tree, c repository.FileChange) (*git.TreeEntry, error) {
	if base == nil {
		return nil, nil
	}
	dir, name := "", c.Path
	if i := strings.LastIndexByte(c.Path, '/'); i >= 0 {
		dir, name = c.Path[:i], c.Path[i+1:]
	}
	tree, err := changeWalkParents(repo, base, dir)
	if err != nil || tree == nil {
		return nil, err
	}
	if tree != base {
		defer tree.Free()
	}
	e := tree.EntryByName(name)
	if e == nil {
		return nil, nil
	}
	switch {
	case !changeIsRegularFile(e):
		return nil, errs.Invalid(changeKind(e)+" exists where you're trying to create a file [path: "+c.Path+"]", "TreePath")
	case c.Operation == repository.FileCreate || c.Moves():
		return nil, errs.Invalid("repository file already exists [path: "+c.Path+"]", "TreePath")
	}
	return e, nil
}

// changeWalkParents returns the tree at dir ("" for base itself), or nil when
// some directory on the way is absent; an entry on the way that is not a
// directory is the error Gitea gives. The tree returned, when not base, is
// the caller's to free.
func changeWalkParents(repo *git.Repository, base *git.Tree, dir string) (*git.Tree, error) {
	tree := base
	free := func() {
		if tree != base {
			tree.Free()
		}
	}
	for end := 0; dir != "" && end < len(dir); {
		next := strings.IndexByte(dir[end:], '/')
		if next < 0 {
			next = len(dir)
		} else {
			next += end
		}
		e := tree.EntryByName(dir[end:next])
		if e == nil {
			free()
			return nil, nil
		}
		if e.Type != git.ObjectTree {
			free()
			return nil, errs.Invalid(changeKind(e)+" exists where you're trying to create a subdirectory [path: "+dir[:next]+"]", "TreePath")
		}
		sub, err := repo.LookupTree(e.Id)
		free()
		if err != nil {
			return nil, fmt.Errorf("libgit2: read tree %s: %w", dir[:next], err)
		}
		tree = sub
		end = next + 1
	}
	return tree, nil
}
