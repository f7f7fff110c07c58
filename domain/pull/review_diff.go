package pull

import (
	"fmt"
	"strconv"
	"strings"
)

// CodeCommentLines is how many lines of the diff a line comment keeps, the
// commented line last (Gitea's default UI.CodeCommentLines).
const CodeCommentLines = 4

// CutDiffAroundLine finds, in a unified diff as git writes it, the line a
// comment points at and returns the patch Gitea keeps with the comment:
// the file's header lines, then a hunk of at most CodeCommentLines lines
// that ends on the commented line, its header counting them. ok is false
// when the diff does not show that line of that path (the comment would
// point outside the diff). Only the side the line names counts: a new line
// is a context or added line, an old line a context or removed one.
func CutDiffAroundLine(diff string, at DiffLine) (patch string, ok bool) {
	if at.Path == "" || (at.Old <= 0 && at.New <= 0) {
		return "", false
	}
	lines := strings.Split(diff, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "diff --git ") {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "diff --git ") {
			end++
		}
		if p, ok := cutFile(lines[i:end], at); ok {
			return p, true
		}
		i = end - 1
	}
	return "", false
}

// cutFile looks for the line in one file's section of the diff.
func cutFile(section []string, at DiffLine) (string, bool) {
	var header []string
	oldPath, newPath := "", ""
	body := len(section)
	for j, l := range section {
		if strings.HasPrefix(l, "@@") {
			body = j
			break
		}
		header = append(header, l)
		switch {
		case strings.HasPrefix(l, "--- "):
			oldPath = diffPath(l[4:], "a/")
		case strings.HasPrefix(l, "+++ "):
			newPath = diffPath(l[4:], "b/")
		}
	}
	if at.New > 0 && newPath != at.Path {
		return "", false
	}
	if at.Old > 0 && oldPath != at.Path && newPath != at.Path {
		return "", false
	}
	var oldNo, newNo int64
	var hunk []hunkLine
	for _, l := range section[body:] {
		if strings.HasPrefix(l, "@@") {
			o, n, ok := parseHunkHeader(l)
			if !ok {
				return "", false
			}
			oldNo, newNo, hunk = o, n, hunk[:0]
			continue
		}
		if l == "" || l[0] == '\\' {
			continue
		}
		hl := hunkLine{text: l, old: oldNo, new: newNo}
		switch l[0] {
		case ' ':
			oldNo++
			newNo++
		case '-':
			hl.new = 0
			oldNo++
		case '+':
			hl.old = 0
			newNo++
		default:
			continue
		}
		hunk = append(hunk, hl)
		if (at.New > 0 && hl.new == at.New) || (at.Old > 0 && hl.old == at.Old) {
			return renderCut(header, hunk), true
		}
	}
	return "", false
}

// hunkLine is one line of a hunk with its numbers on each side (0 on the
// side it is absent from).
type hunkLine struct {
	text     string
	old, new int64
}

// renderCut writes the header and the last CodeCommentLines lines of hunk.
func renderCut(header []string, hunk []hunkLine) string {
	if len(hunk) > CodeCommentLines {
		hunk = hunk[len(hunk)-CodeCommentLines:]
	}
	var oldStart, newStart, oldCount, newCount int64
	for _, l := range hunk {
		if l.old > 0 {
			if oldStart == 0 {
				oldStart = l.old
			}
			oldCount++
		}
		if l.new > 0 {
			if newStart == 0 {
				newStart = l.new
			}
			newCount++
		}
	}
	var b strings.Builder
	for _, h := range header {
		b.WriteString(h)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@", oldStart, oldCount, newStart, newCount)
	for _, l := range hunk {
		b.WriteByte('\n')
		b.WriteString(l.text)
	}
	return b.String()
}

// DiffHunk is the part of a kept patch the API shows as a comment's
// diff_hunk: from its hunk header on ("" when it has none), as Gitea's
// patch2diff.
func DiffHunk(patch string) string {
	if _, after, ok := strings.Cut(patch, "\n@@"); ok {
		return "@@" + after
	}
	return ""
}

// diffPath reads a path of a ---/+++ line: "" for /dev/null, the prefix
// (a/ or b/) dropped, a quoted path unquoted.
func diffPath(s, prefix string) string {
	s = strings.TrimRight(s, "\t")
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return strings.TrimPrefix(s, prefix)
}

// parseHunkHeader reads "@@ -o[,c] +n[,c] @@…" into the first old and new
// line numbers.
func parseHunkHeader(l string) (oldStart, newStart int64, ok bool) {
	rest, found := strings.CutPrefix(l, "@@ -")
	if !found {
		return 0, 0, false
	}
	oldPart, rest, found := strings.Cut(rest, " +")
	if !found {
		return 0, 0, false
	}
	newPart, _, found := strings.Cut(rest, " @@")
	if !found {
		return 0, 0, false
	}
	o, ok1 := hunkStart(oldPart)
	n, ok2 := hunkStart(newPart)
	return o, n, ok1 && ok2
}

// hunkStart reads "start[,count]".
func hunkStart(s string) (int64, bool) {
	start, _, _ := strings.Cut(s, ",")
	n, err := strconv.ParseInt(start, 10, 64)
	return n, err == nil && n >= 0
}
