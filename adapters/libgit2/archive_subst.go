package libgit2

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/repository"
)

// maxSubstSize bounds what an export-subst file may hold, before and after
// expansion: such a file is read whole (git does the same), and a larger
// one is archived as stored. It is the default_max_blob_size setting.
const maxSubstSize = 10 << 20

// substituted returns data with its $Format:…$ placeholders expanded for the
// archived commit, reading the commit's facts on the first call.
func (w *archiveWalker) substituted(data []byte) ([]byte, error) {
	if len(data) > maxSubstSize || !strings.Contains(string(data), "$Format:") {
		return data, nil
	}
	if w.substCommit == nil {
		sc, err := substCommitOf(w.repo, w.dir, w.commit)
		if err != nil {
			return nil, err
		}
		w.substCommit = sc
	}
	return repository.ExpandExportSubst(data, w.substCommit, maxSubstSize), nil
}

// substCommitOf gathers what the pretty formats can say about c.
func substCommitOf(repo *git.Repository, dir string, c *git.Commit) (*repository.SubstCommit, error) {
	abbrev := abbrevLen(dir)
	short := func(o *git.Object) (string, error) {
		s, err := o.ShortId()
		if err != nil {
			return "", fmt.Errorf("libgit2: abbreviate %s: %w", o.Id(), err)
		}
		if full := o.Id().String(); len(s) < abbrev {
			s = full[:abbrev]
		}
		return s, nil
	}
	author, committer := c.Author(), c.Committer()
	sc := &repository.SubstCommit{
		ID: c.Id().String(), TreeID: c.TreeId().String(),
		AuthorName: author.Name, AuthorEmail: author.Email, AuthorWhen: author.When,
		CommitterName: committer.Name, CommitterEmail: committer.Email, CommitterWhen: committer.When,
		RawMessage: c.RawMessage(),
	}
	var err error
	if sc.ShortID, err = short(&c.Object); err != nil {
		return nil, err
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: read tree of %s: %w", c.Id(), err)
	}
	sc.ShortTreeID, err = short(&tree.Object)
	tree.Free()
	if err != nil {
		return nil, err
	}
	for i := uint(0); i < c.ParentCount(); i++ {
		p := c.Parent(i)
		if p == nil {
			return nil, fmt.Errorf("libgit2: read parent %d of %s", i, c.Id())
		}
		sp, err := short(&p.Object)
		sc.ParentIDs = append(sc.ParentIDs, p.Id().String())
		p.Free()
		if err != nil {
			return nil, err
		}
		sc.ShortParentIDs = append(sc.ShortParentIDs, sp)
	}
	if sc.Decorations, err = decorationsOf(repo, c.Id()); err != nil {
		return nil, err
	}
	return sc, nil
}

// abbrevLen is the length git gives abbreviated ids by default in the
// repository in dir: half the bits of its packed object count, rounded up,
// and at least 7.
func abbrevLen(dir string) int {
	idxs, _ := filepath.Glob(filepath.Join(dir, "objects", "pack", "*.idx"))
	var count uint64
	for _, idx := range idxs {
		count += packIndexCount(idx)
	}
	n := (bits.Len64(count) + 1) / 2
	return max(n, 7)
}

// packIndexCount reads how many objects a version 2 pack index lists (the
// last entry of its fan-out table); 0 when it cannot.
func packIndexCount(path string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var b [4]byte
	const lastFanout = 8 + 255*4 // magic and version, then 256 counts
	if _, err := f.ReadAt(b[:], lastFanout); err != nil {
		return 0
	}
	return uint64(binary.BigEndian.Uint32(b[:]))
}

// decorationsOf lists the refs pointing at the commit id as git log's %d
// shows them: HEAD first, then the refs in reverse order of their names.
func decorationsOf(repo *git.Repository, id *git.Oid) ([]repository.Decoration, error) {
	it, err := repo.NewReferenceIterator()
	if err != nil {
		return nil, fmt.Errorf("libgit2: list refs: %w", err)
	}
	defer it.Free()
	var names []string
	for {
		ref, err := it.Next()
		if git.IsErrorCode(err, git.ErrorCodeIterOver) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("libgit2: list refs: %w", err)
		}
		name := ref.Name()
		obj, perr := ref.Peel(git.ObjectCommit)
		ref.Free()
		if perr != nil {
			continue // a ref to a tree or blob, or broken
		}
		if obj.Id().Equal(id) && !strings.HasPrefix(name, "refs/replace/") {
			names = append(names, name)
		}
		obj.Free()
	}
	slices.Sort(names)
	slices.Reverse(names)
	out := make([]repository.Decoration, 0, len(names)+1)
	if head, err := repo.Head(); err == nil {
		if head.Target() != nil && head.Target().Equal(id) {
			d := repository.Decoration{Name: "HEAD"}
			if target, err := repo.References.Lookup("HEAD"); err == nil {
				branch := target.SymbolicTarget()
				target.Free()
				if strings.HasPrefix(branch, "refs/heads/") && slices.Contains(names, branch) {
					d.HeadTarget = strings.TrimPrefix(branch, "refs/heads/")
				}
			}
			out = append(out, d)
		}
		head.Free()
	}
	for _, name := range names {
		d := repository.Decoration{Name: name}
		switch {
		case strings.HasPrefix(name, "refs/heads/"):
			d.Name = strings.TrimPrefix(name, "refs/heads/")
			d.Skip = len(out) > 0 && out[0].HeadTarget == d.Name
		case strings.HasPrefix(name, "refs/tags/"):
			d.Name, d.Tag = strings.TrimPrefix(name, "refs/tags/"), true
		case strings.HasPrefix(name, "refs/remotes/"):
			d.Name = strings.TrimPrefix(name, "refs/remotes/")
		}
		out = append(out, d)
	}
	return out, nil
}
