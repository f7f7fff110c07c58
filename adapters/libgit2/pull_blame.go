package libgit2

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// LineBlame returns the id of the commit that last changed line (1-based)
// of path as it is at commitID (ports.GitPulls); a path that is not a
// file there, or a file with fewer lines, is errs.ErrNotFound.
func (s *Storage) LineBlame(ctx context.Context, p ports.RepoPath, commitID, path string, line int64) (string, error) {
	if line <= 0 || path == "" || strings.HasPrefix(path, "/") {
		return "", errs.NotFound("no such line")
	}
	var out string
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := lookupCommit(repo, commitID)
		if err != nil {
			return err
		}
		defer c.Free()
		tree, err := c.Tree()
		if err != nil {
			return fmt.Errorf("libgit2: tree: %w", err)
		}
		defer tree.Free()
		entry, err := tree.EntryByPath(path)
		if err != nil || entry.Type != git.ObjectBlob {
			return errs.NotFound("no such path " + path)
		}
		blob, err := repo.LookupBlob(entry.Id)
		if err != nil {
			return fmt.Errorf("libgit2: blob: %w", err)
		}
		n := lineCount(blob.Contents())
		blob.Free()
		if line > int64(n) {
			return errs.NotFound(fmt.Sprintf("%s has only %d lines", path, n))
		}
		opts, err := git.DefaultBlameOptions()
		if err != nil {
			return fmt.Errorf("libgit2: blame options: %w", err)
		}
		opts.NewestCommit = c.Id()
		opts.MinLine, opts.MaxLine = uint32(line), uint32(line)
		b, err := repo.BlameFile(path, &opts)
		if err != nil {
			return fmt.Errorf("libgit2: blame: %w", err)
		}
		defer b.Free()
		h, err := b.HunkByLine(int(line))
		if err != nil {
			return errs.NotFound(fmt.Sprintf("line %d of %s has no blame", line, path))
		}
		out = h.FinalCommitId.String()
		return nil
	})
	return out, err
}

// lineCount counts a text's lines as git does: a last line without a
// newline counts.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
