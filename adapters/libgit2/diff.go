package libgit2

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// WriteCommitDiff writes a commit's changes as a unified diff or an mbox
// patch (ports.GitHistory).
func (s *Storage) WriteCommitDiff(ctx context.Context, p ports.RepoPath, ref string, format ports.CommitDiffFormat, w io.Writer) error {
	if format != ports.CommitDiffUnified && format != ports.CommitDiffMbox {
		return errs.NotFound("unknown diff format " + string(format))
	}
	return s.withCommit(ctx, p, ref, func(repo *git.Repository, c *git.Commit) error {
		// Binary patches (with full blob ids) so that git apply and git am can
		// apply binary changes too, as git format-patch writes them.
		diff, err := diffWithParent(repo, c, git.DiffShowBinary)
		if err != nil {
			return err
		}
		defer diff.Free()
		if err := findRenames(diff); err != nil {
			return err
		}
		bw := bufio.NewWriterSize(w, 32<<10)
		if format == ports.CommitDiffMbox {
			if err := writeMboxHeader(bw, repo, c, diff, "[PATCH]"); err != nil {
				return err
			}
		}
		if err := writePatches(ctx, bw, repo, diff); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// diffWithParent diffs c's first parent's tree (the empty tree for a root
// commit) against c's tree.
func diffWithParent(repo *git.Repository, c *git.Commit, flags git.DiffOptionsFlag) (*git.Diff, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("libgit2: tree of %s: %w", c.Id(), err)
	}
	defer tree.Free()
	var parentTree *git.Tree
	if c.ParentCount() > 0 {
		parent, err := repo.LookupCommit(c.ParentId(0))
		if err != nil {
			return nil, fmt.Errorf("libgit2: parent of %s: %w", c.Id(), err)
		}
		defer parent.Free()
		if parentTree, err = parent.Tree(); err != nil {
			return nil, fmt.Errorf("libgit2: tree of %s: %w", parent.Id(), err)
		}
		defer parentTree.Free()
	}
	return diffTrees(repo, parentTree, tree, flags)
}

// diffTrees diffs two trees (nil is the empty tree).
func diffTrees(repo *git.Repository, from, to *git.Tree, flags git.DiffOptionsFlag) (*git.Diff, error) {
	opts, err := git.DefaultDiffOptions()
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff options: %w", err)
	}
	opts.Flags |= flags
	diff, err := repo.DiffTreeToTree(from, to, &opts)
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff: %w", err)
	}
	return diff, nil
}

// changedFilesBetween lists the files that differ between two commits' trees.
func changedFilesBetween(repo *git.Repository, from, to *git.Commit) ([]ports.CommitFileChange, error) {
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
	diff, err := diffTrees(repo, fromTree, toTree, 0)
	if err != nil {
		return nil, err
	}
	defer diff.Free()
	return changedFiles(diff)
}

// changedFiles lists a diff's files, sorted by path, before renames are
// detected. libgit2 reports a type change (a file becoming a symbolic link)
// as a deletion and an addition of the same path: that is a modification.
func changedFiles(diff *git.Diff) ([]ports.CommitFileChange, error) {
	n, err := diff.NumDeltas()
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff deltas: %w", err)
	}
	status := make(map[string]ports.CommitFileStatus, n)
	for i := 0; i < n; i++ {
		d, err := diff.Delta(i)
		if err != nil {
			return nil, fmt.Errorf("libgit2: diff delta: %w", err)
		}
		var path string
		var st ports.CommitFileStatus
		switch d.Status {
		case git.DeltaAdded:
			path, st = d.NewFile.Path, ports.CommitFileAdded
		case git.DeltaDeleted:
			path, st = d.OldFile.Path, ports.CommitFileRemoved
		default:
			path, st = d.NewFile.Path, ports.CommitFileModified
		}
		if prev, ok := status[path]; ok && prev != st {
			st = ports.CommitFileModified
		}
		status[path] = st
	}
	out := make([]ports.CommitFileChange, 0, len(status))
	for path, st := range status {
		out = append(out, ports.CommitFileChange{Path: path, Status: st})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// findRenames detects renames in diff, as git diff -M does.
func findRenames(diff *git.Diff) error {
	opts, err := git.DefaultDiffFindOptions()
	if err != nil {
		return fmt.Errorf("libgit2: diff find options: %w", err)
	}
	opts.Flags = git.DiffFindRenames
	if err := diff.FindSimilar(&opts); err != nil {
		return fmt.Errorf("libgit2: find renames: %w", err)
	}
	return nil
}

// diffStats counts the lines diff adds and deletes, renames detected (a
// pure rename changes no line). It detects renames in diff.
func diffStats(diff *git.Diff) (ports.CommitDiffStats, error) {
	if err := findRenames(diff); err != nil {
		return ports.CommitDiffStats{}, err
	}
	st, err := diff.Stats()
	if err != nil {
		return ports.CommitDiffStats{}, fmt.Errorf("libgit2: diff stats: %w", err)
	}
	defer st.Free()
	return ports.CommitDiffStats{Additions: st.Insertions(), Deletions: st.Deletions()}, nil
}

// writePatches streams diff file by file, with the similarity of renames
// and the labels of names with spaces as git writes them.
func writePatches(ctx context.Context, w io.Writer, repo *git.Repository, diff *git.Diff) error {
	n, err := diff.NumDeltas()
	if err != nil {
		return fmt.Errorf("libgit2: diff deltas: %w", err)
	}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, err := diff.Delta(i)
		if err != nil {
			return fmt.Errorf("libgit2: diff delta: %w", err)
		}
		percent := -1
		if d.Status == git.DeltaRenamed || d.Status == git.DeltaCopied {
			if percent, err = gitSimilarity(repo, d); err != nil {
				return err
			}
		}
		err = withPatchText(diff, i, func(text []byte) error {
			// Only the header (up to the first hunk) is respelled as git
			// spells it; the hunks go out as libgit2 wrote them.
			end := patchHeaderEnd(text)
			header := string(text[:end])
			if percent >= 0 {
				header = gitSimilarityLine(header, percent)
			}
			if _, err := io.WriteString(w, gitFileLabels(header)); err != nil {
				return err
			}
			_, err := w.Write(text[end:])
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// patchHeaderEnd is where one file's patch text leaves its header for
// its hunks or its binary patch (the text's end when it has neither).
func patchHeaderEnd(text []byte) int {
	end := len(text)
	for _, mark := range [][]byte{[]byte("\n@@"), []byte("\nGIT binary patch\n")} {
		if j := bytes.Index(text[:end], mark); j >= 0 {
			end = j + 1
		}
	}
	return end
}

// mboxDate is the date layout of git format-patch (RFC 2822).
const mboxDate = "Mon, 2 Jan 2006 15:04:05 -0700"

// writeMboxHeader writes what git format-patch --no-signature --stdout
// writes before the diff: the mbox From line, the mail headers, the
// message body, then "---", the diffstat and a blank line. tag opens the
// subject: "[PATCH]", or "[PATCH 2/5]" in a series.
func writeMboxHeader(w *bufio.Writer, repo *git.Repository, c *git.Commit, diff *git.Diff, tag string) error {
	author := c.Author()
	subject, body := splitMessage(c.Message())
	stat, err := gitDiffStat(repo, diff)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "From %s Mon Sep 17 00:00:00 2001\n", c.Id())
	fmt.Fprintf(w, "From: %s <%s>\n", mailName(author.Name), author.Email)
	fmt.Fprintf(w, "Date: %s\n", author.When.Format(mboxDate))
	fmt.Fprintf(w, "Subject: %s %s\n", tag, mailSubject(len("Subject: "+tag+" "), subject))
	if !isASCII(subject) || !isASCII(body) {
		w.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n")
	}
	w.WriteString("\n")
	w.WriteString(body)
	w.WriteString("---\n")
	w.WriteString(stat)
	if !strings.HasSuffix(stat, "\n") {
		w.WriteString("\n")
	}
	w.WriteString("\n")
	return nil
}

// splitMessage splits a commit message as git format-patch does: the first
// paragraph, unfolded into one line, is the subject; the rest is the body
// (with its trailing newline, if any).
func splitMessage(msg string) (subject, body string) {
	msg = strings.TrimLeft(msg, "\n")
	lines := strings.Split(msg, "\n")
	i := 0
	var subj []string
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		subj = append(subj, strings.TrimSpace(lines[i]))
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	rest := strings.TrimRight(strings.Join(lines[i:], "\n"), "\n")
	if rest != "" {
		rest += "\n"
	}
	return strings.Join(subj, " "), rest
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mailSubject is a subject as git format-patch writes it after a header
// prefix of used bytes: encoded when it needs to be.
func mailSubject(used int, subject string) string {
	if mailNeedsEncoding(subject) {
		return mailEncoded(subject, used, false)
	}
	return mailFolded(subject, used)
}

// mailName is a display name for a From header: encoded when not ASCII,
// quoted when it holds characters special in addresses.
func mailName(name string) string {
	if mailNeedsEncoding(name) {
		return mailEncoded(name, len("From: "), true)
	}
	if strings.ContainsAny(name, "()<>[]:;@\\,.\"") {
		name = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name) + `"`
	}
	return mailFolded(name, len("From: "))
}
