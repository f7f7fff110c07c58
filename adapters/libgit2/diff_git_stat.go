package libgit2

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	git "github.com/libgit2/git2go/v34"
)

// This file writes what git format-patch puts between "---" and the diff:
// the diffstat and the summary, as git lays them out (libgit2's own stat
// pads and quotes otherwise and leaves renames out of the summary), and
// git's similarity score of a rename, which libgit2 measures otherwise.

// mailStatWidth is the width of git format-patch's diffstat.
const mailStatWidth = 72

// statFile is one file of a diffstat.
type statFile struct {
	delta          git.DiffDelta
	added, deleted int // lines, or sizes in bytes of a binary file
	binary         bool
	similarity     int // percent, for a rename or copy
}

// gitDiffStat returns git's --stat --summary text for diff (renames
// detected), each line opened by a space, the totals line last but the
// summary lines after it.
func gitDiffStat(repo *git.Repository, diff *git.Diff) (string, error) {
	files, err := statFiles(repo, diff)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writeStatLines(&b, files)
	adds, dels := 0, 0
	for _, f := range files {
		if !f.binary {
			adds, dels = adds+f.added, dels+f.deleted
		}
	}
	b.WriteString(statTotals(len(files), adds, dels))
	for _, f := range files {
		b.WriteString(statSummary(f))
	}
	return b.String(), nil
}

// statFiles counts each file's lines from its patch, in the diff's
// order, and the similarity of renames from their contents.
func statFiles(repo *git.Repository, diff *git.Diff) ([]statFile, error) {
	n, err := diff.NumDeltas()
	if err != nil {
		return nil, fmt.Errorf("libgit2: diff deltas: %w", err)
	}
	files := make([]statFile, 0, n)
	for i := 0; i < n; i++ {
		var f statFile
		err := withPatchText(diff, i, func(text []byte) error {
			f.added, f.deleted, f.binary = patchLineStats(text)
			return nil
		})
		if err != nil {
			return nil, err
		}
		// Asked after the patch: libgit2 learns a file's size when it
		// loads it.
		d, err := diff.Delta(i)
		if err != nil {
			return nil, fmt.Errorf("libgit2: diff delta: %w", err)
		}
		f.delta = d
		if f.binary {
			// git counts a binary file's bytes, old and new.
			f.added, f.deleted = int(d.NewFile.Size), int(d.OldFile.Size)
		}
		if d.Status == git.DeltaRenamed || d.Status == git.DeltaCopied {
			if f.similarity, err = gitSimilarity(repo, d); err != nil {
				return nil, err
			}
		}
		files = append(files, f)
	}
	return files, nil
}

// statName is how git names f in a diffstat: quoted when needed, a
// rename as "dir/{old => new}".
func statName(f statFile) string {
	d := f.delta
	switch d.Status {
	case git.DeltaRenamed, git.DeltaCopied:
		return renameName(d.OldFile.Path, d.NewFile.Path)
	case git.DeltaDeleted:
		return gitQuoted(d.OldFile.Path)
	}
	return gitQuoted(d.NewFile.Path)
}

// renameName writes a rename as git does: the common leading directories
// and trailing part outside braces.
func renameName(a, b string) string {
	if gitQuoted(a) != a || gitQuoted(b) != b {
		return gitQuoted(a) + " => " + gitQuoted(b)
	}
	pfx := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pfx = i + 1
		}
	}
	sfx := 0
	adjust := 0
	if pfx > 0 {
		adjust = 1
	}
	for i, j := len(a), len(b); i >= pfx-adjust && j >= pfx-adjust; i, j = i-1, j-1 {
		ca, cb := byteAt(a, i), byteAt(b, j)
		if ca != cb {
			break
		}
		if ca == '/' {
			sfx = len(a) - i
		}
	}
	amid, bmid := max(len(a)-pfx-sfx, 0), max(len(b)-pfx-sfx, 0)
	if pfx+sfx == 0 {
		return a[pfx:pfx+amid] + " => " + b[pfx:pfx+bmid]
	}
	return a[:pfx] + "{" + a[pfx:pfx+amid] + " => " + b[pfx:pfx+bmid] + "}" + a[len(a)-sfx:]
}

// byteAt is s[i], or 0 at len(s) (C's terminating NUL).
func byteAt(s string, i int) byte {
	if i >= len(s) {
		return 0
	}
	return s[i]
}

// writeStatLines writes one line per file, as git's show_stats does for a
// width of mailStatWidth columns.
func writeStatLines(b *strings.Builder, files []statFile) {
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = statName(f)
		maxLen = max(maxLen, displayWidth(names[i]))
		if f.binary {
			binWidth = max(binWidth, 14+decimalWidth(f.added)+decimalWidth(f.deleted))
			numberWidth = 3
			continue
		}
		maxChange = max(maxChange, f.added+f.deleted)
	}
	numberWidth = max(numberWidth, decimalWidth(maxChange))
	width := max(mailStatWidth, 16+6+numberWidth)
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameWidth := maxLen
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = max(width*3/8-numberWidth-6, 6)
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	for i, f := range files {
		name, prefix, room := names[i], "", nameWidth
		if w := displayWidth(name); nameWidth < w {
			prefix, room = "...", max(nameWidth-3, 0)
			for w > room {
				name, w = dropFirstChar(name, w)
			}
			if slash := strings.IndexByte(name, '/'); slash >= 0 {
				name = name[slash:]
			}
		}
		pad := strings.Repeat(" ", max(room-displayWidth(name), 0))
		if f.binary {
			fmt.Fprintf(b, " %s%s%s | %*s", prefix, name, pad, numberWidth, "Bin")
			if f.added == 0 && f.deleted == 0 {
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(b, " %d -> %d bytes\n", f.deleted, f.added)
			continue
		}
		add, del := f.added, f.deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		sep := ""
		if f.added+f.deleted > 0 {
			sep = " "
		}
		fmt.Fprintf(b, " %s%s%s | %*d%s%s%s\n", prefix, name, pad, numberWidth, f.added+f.deleted, sep,
			strings.Repeat("+", add), strings.Repeat("-", del))
	}
}

// scaleLinear scales it of maxChange to width columns, at least one.
func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

// decimalWidth is the number of digits of n.
func decimalWidth(n int) int { return len(strconv.Itoa(n)) }

// displayWidth is the columns s takes: one per character (git counts
// East Asian wide characters as two; so does this for the common ranges).
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// runeWidth is 2 for the East Asian wide and full-width ranges, else 1.
func runeWidth(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf && r != 0x303f,
		r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// dropFirstChar drops the first character of s, of width w in all.
func dropFirstChar(s string, w int) (string, int) {
	for i := range s {
		if i > 0 {
			return s[i:], w - displayWidth(s[:i])
		}
	}
	return "", 0
}

// statTotals is git's totals line.
func statTotals(files, adds, dels int) string {
	if files == 0 {
		return " 0 files changed\n"
	}
	s := fmt.Sprintf(" %d file%s changed", files, plural(files))
	if adds > 0 || dels == 0 {
		s += fmt.Sprintf(", %d insertion%s(+)", adds, plural(adds))
	}
	if dels > 0 || adds == 0 {
		s += fmt.Sprintf(", %d deletion%s(-)", dels, plural(dels))
	}
	return s + "\n"
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// statSummary is git's --summary line for f, if any.
func statSummary(f statFile) string {
	d := f.delta
	modeChange := func(name string) string {
		if d.OldFile.Mode == 0 || d.NewFile.Mode == 0 || d.OldFile.Mode == d.NewFile.Mode {
			return ""
		}
		if name != "" {
			name = " " + name
		}
		return fmt.Sprintf(" mode change %06o => %06o%s\n", d.OldFile.Mode, d.NewFile.Mode, name)
	}
	switch d.Status {
	case git.DeltaDeleted:
		return fmt.Sprintf(" delete mode %06o %s\n", d.OldFile.Mode, gitQuoted(d.OldFile.Path))
	case git.DeltaAdded:
		return fmt.Sprintf(" create mode %06o %s\n", d.NewFile.Mode, gitQuoted(d.NewFile.Path))
	case git.DeltaRenamed, git.DeltaCopied:
		verb := "rename"
		if d.Status == git.DeltaCopied {
			verb = "copy"
		}
		return fmt.Sprintf(" %s %s (%d%%)\n", verb, renameName(d.OldFile.Path, d.NewFile.Path), f.similarity) + modeChange("")
	}
	return modeChange(gitQuoted(d.NewFile.Path))
}

// gitQuoted quotes a path as git's quote_c_style does with core.quotePath
// on: in double quotes, with C escapes and octal bytes, when it holds a
// control character, a quote, a backslash or a byte past ASCII.
func gitQuoted(s string) string {
	need := false
	for i := 0; i < len(s) && !need; i++ {
		c := s[i]
		need = c < 0x20 || c == '"' || c == '\\' || c >= 0x7f
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// gitSimilarity is git's similarity index of a rename or copy, in percent:
// the bytes of the new file found in the old one, counted in spans of up
// to 64 bytes ending at a newline (diffcore-delta), over the larger size.
func gitSimilarity(repo *git.Repository, d git.DiffDelta) (int, error) {
	if d.OldFile.Oid.Equal(d.NewFile.Oid) {
		return 100, nil
	}
	src, oldSize, err := blobSpans(repo, d.OldFile.Oid)
	if err != nil {
		return 0, err
	}
	dst, newSize, err := blobSpans(repo, d.NewFile.Oid)
	if err != nil {
		return 0, err
	}
	maxSize := max(oldSize, newSize)
	if maxSize == 0 {
		return 0, nil
	}
	copied := 0
	for h, n := range dst {
		copied += min(n, src[h])
	}
	const maxScore = 60000
	score := copied * maxScore / maxSize
	return score * 100 / maxScore, nil
}

// blobSpans reads a blob and returns its spanCounts and its size.
func blobSpans(repo *git.Repository, id *git.Oid) (map[uint32]int, int, error) {
	blob, err := repo.LookupBlob(id)
	if err != nil {
		return nil, 0, fmt.Errorf("libgit2: look up blob %s: %w", id, err)
	}
	defer blob.Free()
	content := blob.Contents()
	return spanCounts(content), len(content), nil
}

// spanCounts hashes buf's spans as git's diffcore-delta does and counts
// the bytes of each hash. A text file's CR before LF is skipped.
func spanCounts(buf []byte) map[uint32]int {
	const hashBase = 107927
	text := bytes.IndexByte(buf[:min(len(buf), 8000)], 0) < 0
	counts := map[uint32]int{}
	var acc1, acc2 uint32
	n := 0
	for i := 0; i < len(buf); i++ {
		c := uint32(buf[i])
		if text && c == '\r' && i+1 < len(buf) && buf[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = (acc1 << 7) ^ (acc2 >> 25)
		acc2 = (acc2 << 7) ^ (old1 >> 25)
		acc1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(acc1+acc2*0x61)%hashBase] += n
		n, acc1, acc2 = 0, 0, 0
	}
	if n > 0 {
		counts[(acc1+acc2*0x61)%hashBase] += n
	}
	return counts
}

// gitSimilarityLine puts git's similarity index in a rename's patch text.
func gitSimilarityLine(text string, percent int) string {
	const key = "\nsimilarity index "
	i := strings.Index(text, key)
	if i < 0 {
		return text
	}
	start := i + len(key)
	end := strings.IndexByte(text[start:], '%')
	if end < 0 {
		return text
	}
	return text[:start] + strconv.Itoa(percent) + text[start+end:]
}
