package libgit2

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.GitTrees = (*Storage)(nil)

// symlinkTargetMax is how much of a symbolic link's blob is its target, as
// Gitea reads it.
const symlinkTargetMax = 1024

// ReadPath resolves q's ref and reads q.Path at it (ports.GitTrees).
func (s *Storage) ReadPath(ctx context.Context, p ports.RepoPath, q ports.GitPathQuery) (ports.GitPathResult, error) {
	var res ports.GitPathResult
	err := s.withReadRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		res, err = s.readPath(ctx, repo, q)
		return err
	})
	return res, err
}

// readPath implements ReadPath on an open repository.
func (s *Storage) readPath(ctx context.Context, repo *git.Repository, q ports.GitPathQuery) (ports.GitPathResult, error) {
	at, err := openPath(repo, q)
	if err != nil {
		return ports.GitPathResult{}, err
	}
	defer at.free()
	r := &pathReader{repo: repo, commit: at.commit, blobs: &s.reads.blobs}
	defer r.free()

	res := ports.GitPathResult{Revision: at.rev}
	if res.Entry, err = r.entry(at.path, at.entry, q.Content, q.MaxContent); err != nil {
		return ports.GitPathResult{}, err
	}
	if q.List && res.Entry.Type == ports.EntryDir {
		if res.Entries, err = r.list(at.path, at.tree); err != nil {
			return ports.GitPathResult{}, err
		}
	}
	if q.LastCommit {
		if err := s.fillLastCommits(ctx, repo, at.commit, &res); err != nil {
			return ports.GitPathResult{}, err
		}
	}
	return res, nil
}

// openedPath is a path looked up at a resolved revision; free releases it.
type openedPath struct {
	rev    ports.GitRevision
	commit *git.Commit
	// path is the clean path read, "" for the root.
	path  string
	entry *git.TreeEntry // nil for the root
	// tree is the directory's tree when the path is the root or a directory.
	tree *git.Tree
}

func (o *openedPath) free() {
	if o.tree != nil {
		o.tree.Free()
	}
	o.commit.Free()
}

// openPath resolves q's ref and looks up q's path in the commit's tree.
func openPath(repo *git.Repository, q ports.GitPathQuery) (*openedPath, error) {
	rev, treePath, err := resolvePathQuery(repo, q)
	if err != nil {
		return nil, err
	}
	if err := checkTreePath(treePath); err != nil {
		return nil, err
	}
	commit, err := lookupCommit(repo, rev.CommitID)
	if err != nil {
		return nil, err
	}
	o := &openedPath{rev: rev, commit: commit, path: treePath}
	root, err := commit.Tree()
	if err != nil {
		commit.Free()
		return nil, fmt.Errorf("libgit2: read tree of %s: %w", rev.CommitID, err)
	}
	if treePath == "" {
		o.tree = root
		return o, nil
	}
	defer root.Free()
	e, err := root.EntryByPath(treePath)
	if err != nil {
		commit.Free()
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return nil, errNoPath(treePath, rev)
		}
		return nil, fmt.Errorf("libgit2: look up %s: %w", treePath, err)
	}
	o.entry = e
	if e.Type == git.ObjectTree {
		if o.tree, err = repo.LookupTree(e.Id); err != nil {
			commit.Free()
			return nil, fmt.Errorf("libgit2: read tree %s: %w", treePath, err)
		}
	}
	return o, nil
}

// resolvePathQuery resolves q's ref and returns the path to read at it.
func resolvePathQuery(repo *git.Repository, q ports.GitPathQuery) (ports.GitRevision, string, error) {
	if !q.RefInPath {
		rev, err := resolve(repo, q.Ref)
		return rev, q.Path, err
	}
	rev, rest, err := resolvePrefix(repo, q.Path)
	if err == nil {
		return rev, rest, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return ports.GitRevision{}, "", err
	}
	// No leading part names a ref: the whole path at q.Ref (the default
	// branch), as Gitea's raw route reads "raw/README.md".
	rev, err = resolve(repo, q.Ref)
	return rev, q.Path, err
}

// checkTreePath refuses paths no tree can hold, so that libgit2 never sees
// them: "." and ".." segments, empty segments, a leading slash, NUL.
func checkTreePath(p string) error {
	if p == "" {
		return nil
	}
	if strings.IndexByte(p, 0) >= 0 {
		return errs.NotFound("path does not exist")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return errs.NotFound("path " + p + " does not exist")
		}
	}
	return nil
}

// errNoPath is the answer to a path absent at rev.
func errNoPath(p string, rev ports.GitRevision) error {
	ref := rev.Name
	if ref == "" {
		ref = rev.CommitID
	}
	return &ports.MissingPathError{Path: p, Rev: ref}
}

// pathReader reads entries of one commit; it loads the commit's .gitmodules
// once, when a submodule needs its URL.
type pathReader struct {
	repo   *git.Repository
	commit *git.Commit
	blobs  *blobCache
	odb    *git.Odb
	// modules maps submodule paths to URLs once .gitmodules is read.
	modules map[string]string
}

func (r *pathReader) free() {
	if r.odb != nil {
		r.odb.Free()
	}
}

// objects returns the repository's object database, opened once.
func (r *pathReader) objects() (*git.Odb, error) {
	if r.odb == nil {
		odb, err := r.repo.Odb()
		if err != nil {
			return nil, fmt.Errorf("libgit2: open object database: %w", err)
		}
		r.odb = odb
	}
	return r.odb, nil
}

// blobData returns a blob's size and, when wantData and it is at most
// maxData bytes, its bytes (shared through the blob cache: not to be
// modified).
func (r *pathReader) blobData(id *git.Oid, wantData bool, maxData int64) (int64, []byte, error) {
	odb, err := r.objects()
	if err != nil {
		return 0, nil, err
	}
	return r.blobs.blobData(odb, id, wantData, maxData)
}

// entry describes p (e is nil for the root, whose tree is in the caller's
// hands): its type, mode, size, a symbolic link's target, a submodule's URL,
// and a file's bytes when withContent and it is at most maxContent bytes.
func (r *pathReader) entry(p string, e *git.TreeEntry, withContent bool, maxContent int64) (ports.GitEntry, error) {
	if e == nil {
		tree, err := r.commit.Tree()
		if err != nil {
			return ports.GitEntry{}, fmt.Errorf("libgit2: read root tree: %w", err)
		}
		defer tree.Free()
		return ports.GitEntry{Type: ports.EntryDir, Mode: int(git.FilemodeTree), ID: tree.Id().String()}, nil
	}
	out := ports.GitEntry{Path: p, Name: path.Base(p), Mode: int(e.Filemode), ID: e.Id.String()}
	switch e.Filemode {
	case git.FilemodeTree:
		out.Type = ports.EntryDir
		return out, nil
	case git.FilemodeCommit:
		out.Type = ports.EntrySubmodule
		url, err := r.submoduleURL(p)
		out.SubmoduleURL = url
		return out, err
	case git.FilemodeLink:
		out.Type = ports.EntrySymlink
		size, target, err := r.blobData(e.Id, true, symlinkTargetMax)
		if err != nil {
			return ports.GitEntry{}, err
		}
		if target == nil && size > 0 {
			// A target longer than Gitea reads: its first bytes.
			blob, err := r.repo.LookupBlob(e.Id)
			if err != nil {
				return ports.GitEntry{}, fmt.Errorf("libgit2: read link %s: %w", p, err)
			}
			defer blob.Free()
			target = blob.Contents()[:symlinkTargetMax]
		}
		out.Size, out.Target = size, string(target)
		return out, nil
	}
	out.Type = ports.EntryFile
	size, data, err := r.blobData(e.Id, withContent, maxContent)
	if err != nil {
		return ports.GitEntry{}, err
	}
	out.Size = size
	if withContent && size <= maxContent {
		out.Content = data
		if out.Content == nil {
			out.Content = []byte{} // nil means "not read"
		}
	}
	return out, nil
}

// list describes the entries of the directory dir (its tree), in tree order.
func (r *pathReader) list(dir string, tree *git.Tree) ([]ports.GitEntry, error) {
	n := tree.EntryCount()
	out := make([]ports.GitEntry, 0, n)
	for i := uint64(0); i < n; i++ {
		e := tree.EntryByIndex(i)
		ge, err := r.entry(path.Join(dir, e.Name), e, false, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, ge)
	}
	return out, nil
}

// submoduleURL returns the URL .gitmodules gives the submodule at p in the
// commit, or "" when it names none.
func (r *pathReader) submoduleURL(p string) (string, error) {
	if r.modules == nil {
		r.modules = map[string]string{}
		tree, err := r.commit.Tree()
		if err != nil {
			return "", fmt.Errorf("libgit2: read root tree: %w", err)
		}
		defer tree.Free()
		e := tree.EntryByName(".gitmodules")
		if e == nil || e.Type != git.ObjectBlob {
			return "", nil
		}
		blob, err := r.repo.LookupBlob(e.Id)
		if err != nil {
			return "", fmt.Errorf("libgit2: read .gitmodules: %w", err)
		}
		defer blob.Free()
		r.modules = parseGitmodules(blob.Contents())
	}
	return r.modules[p], nil
}

// parseGitmodules reads the path and url of each [submodule "name"] section
// of a .gitmodules file (git-config syntax) into a map from path to URL.
func parseGitmodules(data []byte) map[string]string {
	type module struct{ path, url string }
	var mods []*module
	var cur *module
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			cur = nil
			head := strings.TrimSpace(strings.Trim(line, "[]"))
			if name, ok := strings.CutPrefix(head, "submodule"); ok && (name == "" || name[0] == ' ' || name[0] == '\t' || name[0] == '"') {
				cur = &module{}
				mods = append(mods, cur)
			}
			continue
		}
		if cur == nil {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = configValue(strings.TrimSpace(value))
		switch key {
		case "path":
			cur.path = value
		case "url":
			cur.url = value
		}
	}
	out := make(map[string]string, len(mods))
	for _, m := range mods {
		if m.path != "" {
			out[strings.TrimSuffix(m.path, "/")] = m.url
		}
	}
	return out
}

// configValue unquotes a git-config value and drops a trailing comment.
func configValue(v string) string {
	if strings.HasPrefix(v, `"`) {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
		if i := strings.LastIndexByte(v, '"'); i > 0 {
			return v[1:i]
		}
	}
	if i := strings.IndexAny(v, "#;"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// Tree lists one page of the tree q.Rev names (ports.GitTrees).
func (s *Storage) Tree(ctx context.Context, p ports.RepoPath, q ports.GitTreeQuery) (ports.GitTreePage, error) {
	var page ports.GitTreePage
	err := s.withReadRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		page, err = listTree(ctx, repo, &s.reads.blobs, q)
		return err
	})
	return page, err
}

// listTree implements Tree on an open repository.
func listTree(ctx context.Context, repo *git.Repository, blobs *blobCache, q ports.GitTreeQuery) (ports.GitTreePage, error) {
	tree, err := lookupTreeish(repo, q.Rev)
	if err != nil {
		return ports.GitTreePage{}, err
	}
	defer tree.Free()
	r := &pathReader{repo: repo, blobs: blobs}
	defer r.free()

	page := ports.GitTreePage{ID: tree.Id().String()}
	end := q.Offset + q.Limit
	if q.Limit <= 0 || end < q.Offset {
		end = q.Offset
	}
	// Every entry is counted, but only the page's are described, so a page
	// of a huge tree reads the headers of its own blobs only.
	add := func(dir string, e *git.TreeEntry) error {
		i := page.Total
		page.Total++
		if i < q.Offset || i >= end {
			return nil
		}
		te := ports.GitTreeEntry{Path: dir + e.Name, Mode: int(e.Filemode), ID: e.Id.String()}
		switch e.Type {
		case git.ObjectTree:
			te.Type = "tree"
		case git.ObjectCommit:
			te.Type = "commit"
		default:
			te.Type = "blob"
			size, _, err := r.blobData(e.Id, false, 0)
			if err != nil {
				return err
			}
			te.Size = size
		}
		page.Entries = append(page.Entries, te)
		return nil
	}
	if q.Recursive {
		err = tree.Walk(func(dir string, e *git.TreeEntry) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return add(dir, e)
		})
	} else {
		n := tree.EntryCount()
		for i := uint64(0); i < n && err == nil; i++ {
			err = add("", tree.EntryByIndex(i))
		}
	}
	if err != nil {
		return ports.GitTreePage{}, err
	}
	return page, nil
}

// lookupTreeish finds the tree rev names: a tree, commit or tag by full id,
// or a branch, tag or abbreviated commit id.
func lookupTreeish(repo *git.Repository, rev string) (*git.Tree, error) {
	notFound := errs.NotFound("sha not found [" + rev + "]")
	if rev == "" || strings.IndexByte(rev, 0) >= 0 {
		return nil, notFound
	}
	if len(rev) == 40 && repository.IsHex(rev) {
		oid, err := git.NewOid(strings.ToLower(rev))
		if err != nil {
			return nil, notFound
		}
		obj, err := repo.Lookup(oid)
		if err == nil {
			defer obj.Free()
			peeled, err := obj.Peel(git.ObjectTree)
			if err != nil {
				return nil, notFound
			}
			defer peeled.Free()
			t, err := peeled.AsTree()
			if err != nil {
				return nil, notFound
			}
			return t, nil
		}
	}
	r, err := resolve(repo, rev)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, notFound
		}
		return nil, err
	}
	return commitTree(repo, r.CommitID)
}
