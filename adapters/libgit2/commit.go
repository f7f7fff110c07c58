package libgit2

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// CommitFiles writes c as a commit on c.Branch and returns its id. The tree
// holds exactly c.Files; when the branch exists its tip becomes the parent
// (the new tree replaces the old one). Objects go straight into the object
// database: there is no working tree.
func (s *Storage) CommitFiles(ctx context.Context, p ports.RepoPath, c ports.GitCommit) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	ref, err := branchRef(c.Branch)
	if err != nil {
		return "", err
	}
	root, err := buildTree(c.Files)
	if err != nil {
		return "", err
	}
	author, committer, err := signatures(c)
	if err != nil {
		return "", err
	}
	var out string
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		treeID, err := writeTree(repo, root)
		if err != nil {
			return err
		}
		var parents []*git.Oid
		tip, err := repo.References.Lookup(ref)
		switch {
		case err == nil:
			resolved, rerr := tip.Resolve()
			tip.Free()
			if rerr != nil {
				return fmt.Errorf("libgit2: resolve %s: %w", ref, rerr)
			}
			parents = append(parents, resolved.Target())
			resolved.Free()
		case git.IsErrorCode(err, git.ErrorCodeNotFound):
		default:
			return fmt.Errorf("libgit2: look up %s: %w", ref, err)
		}
		// libgit2 updates the ref only if it still points at the first parent
		// (or is still absent), so a concurrent push is never overwritten.
		id, err := s.commits().write(repo, ref, author, committer, message(c.Message), treeID, parents...)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeModified) {
				return errs.Conflict("branch " + c.Branch + " changed while committing")
			}
			return fmt.Errorf("libgit2: create commit: %w", err)
		}
		out = id.String()
		return nil
	})
	return out, err
}

// message ends a non-empty commit message with a newline, as git commit does.
func message(m string) string {
	if m != "" && !strings.HasSuffix(m, "\n") {
		return m + "\n"
	}
	return m
}

// signatures returns c's author and committer; the committer defaults to the
// author and a zero time to now.
func signatures(c ports.GitCommit) (author, committer *git.Signature, err error) {
	if c.Author.Name == "" {
		return nil, nil, errs.Invalid("author name is required", "author")
	}
	author, committer = gitSignatures(c.Author, c.Committer)
	return author, committer, nil
}

// gitSignatures turns an author and a committer into libgit2 signatures: a
// zero time is now, and a committer with neither name nor address is the
// author. Callers check what they require of the author first.
func gitSignatures(a, c ports.GitSignature) (author, committer *git.Signature) {
	now := time.Now()
	sig := func(g ports.GitSignature) *git.Signature {
		when := g.When
		if when.IsZero() {
			when = now
		}
		return &git.Signature{Name: g.Name, Email: g.Email, When: when}
	}
	author = sig(a)
	if c.Name == "" && c.Email == "" {
		same := *author
		return author, &same
	}
	return author, sig(c)
}

// treeNode is a directory of the tree being written.
type treeNode struct {
	files map[string]ports.GitFile
	dirs  map[string]*treeNode
}

func newTreeNode() *treeNode {
	return &treeNode{files: map[string]ports.GitFile{}, dirs: map[string]*treeNode{}}
}

// buildTree arranges files into directories, refusing paths that are not
// plain relative paths inside the tree, and duplicates.
func buildTree(files []ports.GitFile) (*treeNode, error) {
	root := newTreeNode()
	for _, f := range files {
		segs, err := splitPath(f.Path)
		if err != nil {
			return nil, errs.Invalid(fmt.Sprintf("path %q %s", f.Path, err), "files")
		}
		node := root
		for _, seg := range segs[:len(segs)-1] {
			if _, ok := node.files[seg]; ok {
				return nil, errs.Invalid(fmt.Sprintf("path %q runs through a file", f.Path), "files")
			}
			next, ok := node.dirs[seg]
			if !ok {
				next = newTreeNode()
				node.dirs[seg] = next
			}
			node = next
		}
		leaf := segs[len(segs)-1]
		if _, ok := node.files[leaf]; ok {
			return nil, errs.Invalid(fmt.Sprintf("path %q appears twice", f.Path), "files")
		}
		if _, ok := node.dirs[leaf]; ok {
			return nil, errs.Invalid(fmt.Sprintf("path %q is also a directory", f.Path), "files")
		}
		node.files[leaf] = f
	}
	return root, nil
}

// splitPath splits a slash path into segments, or says why it is refused.
func splitPath(p string) ([]string, error) {
	if p == "" {
		return nil, fmt.Errorf("is empty")
	}
	if strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("is absolute")
	}
	if strings.ContainsAny(p, "\\\x00") {
		return nil, fmt.Errorf("contains a backslash or NUL")
	}
	segs := strings.Split(p, "/")
	for _, seg := range segs {
		switch {
		case seg == "":
			return nil, fmt.Errorf("has an empty segment")
		case seg == "." || seg == "..":
			return nil, fmt.Errorf("has a relative segment")
		case strings.EqualFold(seg, ".git"):
			return nil, fmt.Errorf("has a .git segment")
		}
	}
	return segs, nil
}

// writeTree writes the blobs and trees of node into repo and returns the
// root tree's id.
func writeTree(repo *git.Repository, node *treeNode) (*git.Oid, error) {
	tb, err := repo.TreeBuilder()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree builder: %w", err)
	}
	defer tb.Free()
	// Sorted for deterministic error messages; the builder sorts entries itself.
	names := make([]string, 0, len(node.files))
	for name := range node.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := node.files[name]
		id, err := repo.CreateBlobFromBuffer(f.Content)
		if err != nil {
			return nil, fmt.Errorf("libgit2: write blob %s: %w", f.Path, err)
		}
		mode := git.FilemodeBlob
		if f.Executable {
			mode = git.FilemodeBlobExecutable
		}
		if err := tb.Insert(name, id, mode); err != nil {
			return nil, fmt.Errorf("libgit2: tree entry %s: %w", f.Path, err)
		}
	}
	dirs := make([]string, 0, len(node.dirs))
	for name := range node.dirs {
		dirs = append(dirs, name)
	}
	sort.Strings(dirs)
	for _, name := range dirs {
		id, err := writeTree(repo, node.dirs[name])
		if err != nil {
			return nil, err
		}
		if err := tb.Insert(name, id, git.FilemodeTree); err != nil {
			return nil, fmt.Errorf("libgit2: tree entry %s: %w", name, err)
		}
	}
	id, err := tb.Write()
	if err != nil {
		return nil, fmt.Errorf("libgit2: write tree: %w", err)
	}
	return id, nil
}
