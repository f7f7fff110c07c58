package libgit2

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// The statuses of a RangeFile, in Gitea's words (its ToChangedFile):
// a modified file that adds and deletes no line (a mode change, a binary
// file) is "unchanged".
const (
	rangeAdded     = "added"
	rangeDeleted   = "deleted"
	rangeRenamed   = "renamed"
	rangeCopied    = "copied"
	rangeChanged   = "changed"
	rangeUnchanged = "unchanged"
)

// WriteRangeDiff writes the changes from the merge base of baseID and
// headID to headID as a unified diff or a series of mbox mails
// (ports.GitPulls). It writes file by file and commit by commit: only one
// file's patch is held at a time.
func (s *Storage) WriteRangeDiff(ctx context.Context, p ports.RepoPath, baseID, headID string, format ports.CommitDiffFormat, w io.Writer) error {
	if format != ports.CommitDiffUnified && format != ports.CommitDiffMbox {
		return errs.NotFound("unknown diff format " + string(format))
	}
	return s.withRange(ctx, p, baseID, headID, func(repo *git.Repository, from, head *git.Commit) error {
		bw := bufio.NewWriterSize(w, 32<<10)
		var err error
		if format == ports.CommitDiffUnified {
			err = writeRangeUnified(ctx, repo, from, head, bw)
		} else {
			err = writeRangeMbox(ctx, repo, from, head, bw)
		}
		if err != nil {
			return err
		}
		return bw.Flush()
	})
}

// RangeFiles returns one page of the files changed from the merge base of
// baseID and headID to headID, sorted by path, and their count
// (ports.GitPulls). Lines are counted for the page's files only.
func (s *Storage) RangeFiles(ctx context.Context, p ports.RepoPath, baseID, headID string, q ports.RangeFileQuery) ([]ports.RangeFile, int, error) {
	var (
		out   []ports.RangeFile
		total int
	)
	err := s.withRange(ctx, p, baseID, headID, func(repo *git.Repository, from, head *git.Commit) error {
		diff, err := diffCommitTrees(repo, from, head, whitespaceFlags(q.Whitespace))
		if err != nil {
			return err
		}
		defer diff.Free()
		if err := findRenames(diff); err != nil {
			return err
		}
		files, err := rangeFileList(diff)
		if err != nil {
			return err
		}
		files = skipTo(files, q.SkipTo)
		total = len(files)
		files = pageOf(files, q.Page)
		out = make([]ports.RangeFile, 0, len(files))
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := countRangeLines(diff, &f); err != nil {
				return err
			}
			out = append(out, f.RangeFile)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// withRange opens p's repository and runs fn with the commit a range's
// changes start from and its head: the merge base of baseID and headID,
// or baseID itself when their histories share no commit (as Gitea compares
// unrelated branches). Both ids must name commits, or nothing is done and
// the answer is not found.
func (s *Storage) withRange(ctx context.Context, p ports.RepoPath, baseID, headID string,
	fn func(repo *git.Repository, from, head *git.Commit) error) error {
	return s.withRepo(ctx, p, func(repo *git.Repository) error {
		base, err := lookupCommit(repo, baseID)
		if err != nil {
			return err
		}
		defer base.Free()
		head, err := lookupCommit(repo, headID)
		if err != nil {
			return err
		}
		defer head.Free()
		mb, err := repo.MergeBase(base.Id(), head.Id())
		switch {
		case err == nil:
			if mb.Equal(base.Id()) {
				return fn(repo, base, head)
			}
			from, err := repo.LookupCommit(mb)
			if err != nil {
				return fmt.Errorf("libgit2: look up merge base %s: %w", mb, err)
			}
			defer from.Free()
			return fn(repo, from, head)
		case git.IsErrorCode(err, git.ErrorCodeNotFound):
			return fn(repo, base, head)
		default:
			return fmt.Errorf("libgit2: merge base: %w", err)
		}
	})
}

// diffCommitTrees diffs from's tree against to's tree.
func diffCommitTrees(repo *git.Repository, from, to *git.Commit, flags git.DiffOptionsFlag) (*git.Diff, error) {
	fromTree, err := from.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree of %s: %w", from.Id(), err)
	}
	defer fromTree.Free()
	toTree, err := to.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree of %s: %w", to.Id(), err)
	}
	defer toTree.Free()
	return diffTrees(repo, fromTree, toTree, flags)
}

// writeRangeUnified writes from→head as git diff <from> <head> prints it:
// renames detected, binary files named but not shown.
func writeRangeUnified(ctx context.Context, repo *git.Repository, from, head *git.Commit, w io.Writer) error {
	diff, err := diffCommitTrees(repo, from, head, 0)
	if err != nil {
		return err
	}
	defer diff.Free()
	if err := findRenames(diff); err != nil {
		return err
	}
	return writePatches(ctx, w, repo, diff)
}

// writeRangeMbox writes one mail per commit of from..head, oldest first and
// merges left out, as git format-patch --no-signature --stdout does: the
// mails numbered when there are more than one, a blank line between them.
func writeRangeMbox(ctx context.Context, repo *git.Repository, from, head *git.Commit, w *bufio.Writer) error {
	ids, err := rangeCommits(ctx, repo, from.Id(), head.Id())
	if err != nil {
		return err
	}
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i > 0 {
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
		if err := writeMail(ctx, repo, id, seriesTag(i+1, len(ids)), w); err != nil {
			return err
		}
	}
	return nil
}

// writeMail writes commit id as one mbox mail with a binary-capable patch.
func writeMail(ctx context.Context, repo *git.Repository, id git.Oid, tag string, w *bufio.Writer) error {
	c, err := repo.LookupCommit(&id)
	if err != nil {
		return fmt.Errorf("libgit2: look up commit %s: %w", id.String(), err)
	}
	defer c.Free()
	diff, err := diffWithParent(repo, c, git.DiffShowBinary)
	if err != nil {
		return err
	}
	defer diff.Free()
	if err := findRenames(diff); err != nil {
		return err
	}
	if err := writeMboxHeader(w, repo, c, diff, tag); err != nil {
		return err
	}
	return writePatches(ctx, w, repo, diff)
}

// seriesTag is the subject tag of mail n of total, as git format-patch
// numbers a series: "[PATCH]" alone, "[PATCH 03/12]" in a series (the
// number padded to the total's width).
func seriesTag(n, total int) string {
	if total <= 1 {
		return "[PATCH]"
	}
	width := len(strconv.Itoa(total))
	return fmt.Sprintf("[PATCH %0*d/%d]", width, n, total)
}

// rangeCommits lists the commits reachable from head and not from from,
// merges left out, oldest first: git log's order (committer date, ties in
// the order found) reversed, as git format-patch lists them.
func rangeCommits(ctx context.Context, repo *git.Repository, from, head *git.Oid) ([]git.Oid, error) {
	allowed, err := reachable(repo, head, from)
	if err != nil {
		return nil, err
	}
	if len(allowed) == 0 {
		return nil, nil
	}
	w := newCommitWalker(repo, walkFilter{}, allowed)
	defer w.free()
	if err := w.push(head); err != nil {
		return nil, err
	}
	ids := make([]git.Oid, 0, len(allowed))
	for i := 0; ; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		c, err := w.next()
		if err != nil {
			return nil, err
		}
		if c == nil {
			break
		}
		if c.ParentCount() <= 1 {
			ids = append(ids, *c.Id())
		}
		c.Free()
	}
	slices.Reverse(ids)
	return ids, nil
}

// rangeFile is a RangeFile and the index of its delta in the diff.
type rangeFile struct {
	ports.RangeFile
	delta int
}

// rangeFileList lists diff's files, sorted by path, without line counts.
// A modified file is "changed" until countRangeLines has seen its lines.
func rangeFileList(diff *git.Diff) ([]rangeFile, error) {
	n, err := diff.NumDeltas()
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff deltas: %w", err)
	}
	files := make([]rangeFile, 0, n)
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return nil, fmt.Errorf("libgit2: diff delta: %w", err)
		}
		f := rangeFile{RangeFile: ports.RangeFile{Path: d.NewFile.Path, Status: rangeChanged}, delta: i}
		switch d.Status {
		case git.DeltaAdded:
			f.Status = rangeAdded
		case git.DeltaDeleted:
			f.Path, f.Status = d.OldFile.Path, rangeDeleted
		case git.DeltaRenamed:
			f.Status, f.PreviousPath = rangeRenamed, d.OldFile.Path
		case git.DeltaCopied:
			f.Status, f.PreviousPath = rangeCopied, d.OldFile.Path
		}
		files = append(files, f)
	}
	// A type change is a deletion and an addition of one path, as git diff
	// prints it: the deletion first.
	slices.SortStableFunc(files, func(a, b rangeFile) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// whitespaceFlags are the diff options of a whitespace mode.
func whitespaceFlags(w ports.DiffWhitespace) git.DiffOptionsFlag {
	switch w {
	case ports.DiffIgnoreAllWhitespace:
		return git.DiffIgnoreWhitespace
	case ports.DiffIgnoreWhitespaceChange:
		return git.DiffIgnoreWhitespaceChange
	case ports.DiffIgnoreWhitespaceEOL:
		return git.DiffIgnoreWhitespaceEOL
	}
	return 0
}

// skipTo drops the files before the one whose path is path (all of them
// when none has it); "" keeps every file.
func skipTo(files []rangeFile, path string) []rangeFile {
	if path == "" {
		return files
	}
	for i, f := range files {
		if f.Path == path {
			return files[i:]
		}
	}
	return nil
}

// pageOf returns page's part of files (all of them for a limit of 0 or less).
func pageOf(files []rangeFile, page ports.ListOptions) []rangeFile {
	limit := page.Clamped().Limit
	if limit <= 0 {
		return files
	}
	off := page.Offset()
	if off >= len(files) {
		return nil
	}
	return files[off:min(off+limit, len(files))]
}

// countRangeLines fills f's line counts and binary flag from its delta's
// patch, and says "unchanged" for a modified file that changes no line.
func countRangeLines(diff *git.Diff, f *rangeFile) error {
	err := withPatchText(diff, f.delta, func(text []byte) error {
		f.Additions, f.Deletions, f.Binary = patchLineStats(text)
		return nil
	})
	if err != nil {
		return err
	}
	if f.Status == rangeChanged && f.Additions == 0 && f.Deletions == 0 {
		f.Status = rangeUnchanged
	}
	return nil
}

// patchLineStats counts the lines one file's patch text adds and deletes,
// and says whether git called the file binary. Header lines come before
// the first hunk ("@@"); after it every line is a hunk line.
func patchLineStats(text []byte) (additions, deletions int, binary bool) {
	inHunks := false
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		switch {
		case inHunks && len(line) > 0 && line[0] == '+':
			additions++
		case inHunks && len(line) > 0 && line[0] == '-':
			deletions++
		case bytes.HasPrefix(line, []byte("@@")):
			inHunks = true
		case !inHunks && (bytes.HasPrefix(line, []byte("Binary files ")) || string(line) == "GIT binary patch"):
			binary = true
		}
	}
	return additions, deletions, binary
}
