package issue

import (
	"strconv"
	"strings"
)

// IssueReference is one mention of an issue in a text: "#12" (Owner and
// Repo empty: the text's own repository), "owner/repo#3", or "!12" for a
// pull request (Pull set).
type IssueReference struct {
	Owner, Repo string
	Index       int64
	Pull        bool
}

// References are what a text points at: issues and users ("@name"), each
// once, in the order they first appear.
type References struct {
	Issues   []IssueReference
	Mentions []string
}

// MaxReferences bounds the distinct issue references, and apart the
// distinct mentions, one text records: every issue referenced is looked up
// and given a timeline event in the write's transaction, so a body of
// "#1 #2 #3 ..." cost a query per four bytes. References past the bound
// are left as plain text.
const MaxReferences = 100

// FindReferences finds the issue references and mentions of a comment or
// issue text (at most MaxReferences of each), as Gitea's patterns do: a reference stands alone, after a
// space, "(" or "[" (or the start) and before a space, ")", "]",
// punctuation followed by a space, or the end; text in code spans and
// fenced code blocks does not count.
func FindReferences(text string) References {
	text = blankCode(text)
	var out References
	seenIssue := map[IssueReference]bool{}
	seenUser := map[string]bool{}
	for i := 0; i < len(text) && (len(out.Issues) < MaxReferences || len(out.Mentions) < MaxReferences); i++ {
		switch text[i] {
		case '#', '!':
			if len(out.Issues) == MaxReferences {
				continue
			}
			ref, ok := issueRefAt(text, i)
			if !ok {
				continue
			}
			key := IssueReference{Owner: strings.ToLower(ref.Owner), Repo: strings.ToLower(ref.Repo), Index: ref.Index, Pull: ref.Pull}
			if !seenIssue[key] {
				seenIssue[key] = true
				out.Issues = append(out.Issues, ref)
			}
		case '@':
			if len(out.Mentions) == MaxReferences {
				continue
			}
			name, ok := mentionAt(text, i)
			if !ok {
				continue
			}
			if key := strings.ToLower(name); !seenUser[key] {
				seenUser[key] = true
				out.Mentions = append(out.Mentions, name)
			}
		}
	}
	return out
}

// issueRefAt reads the reference whose '#' or '!' is at i.
func issueRefAt(text string, i int) (IssueReference, bool) {
	j := i + 1
	for j < len(text) && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	if j == i+1 || j-i-1 > 18 || !refEnds(text, j) {
		return IssueReference{}, false
	}
	index, err := strconv.ParseInt(text[i+1:j], 10, 64)
	if err != nil || index <= 0 {
		return IssueReference{}, false
	}
	k := i
	for k > 0 && (isRefNameChar(text[k-1]) || text[k-1] == '/') {
		k--
	}
	if !refStarts(text, k) {
		return IssueReference{}, false
	}
	ref := IssueReference{Index: index, Pull: text[i] == '!'}
	if prefix := text[k:i]; prefix != "" {
		owner, repo, ok := strings.Cut(prefix, "/")
		if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
			return IssueReference{}, false
		}
		ref.Owner, ref.Repo = owner, repo
	}
	return ref, true
}

// mentionAt reads the user name mentioned by the '@' at i.
func mentionAt(text string, i int) (string, bool) {
	if !refStarts(text, i) {
		return "", false
	}
	j := i + 1
	for j < len(text) && isRefNameChar(text[j]) {
		j++
	}
	name := strings.TrimRight(text[i+1:j], ".")
	if name == "" || name[0] == '.' {
		return "", false
	}
	end := i + 1 + len(name)
	if end < len(text) && text[end] == '\'' {
		return name, true
	}
	return name, refEnds(text, end)
}

// refStarts reports whether a reference may begin at k.
func refStarts(text string, k int) bool {
	if k == 0 {
		return true
	}
	c := text[k-1]
	return isSpace(c) || c == '(' || c == '['
}

// refEnds reports whether a reference may end just before j.
func refEnds(text string, j int) bool {
	if j >= len(text) {
		return true
	}
	c := text[j]
	if isSpace(c) || c == ')' || c == ']' {
		return true
	}
	if strings.IndexByte(":;,.?!", c) >= 0 {
		return j+1 == len(text) || isSpace(text[j+1])
	}
	return false
}

func isRefNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// blankCode replaces fenced code blocks and inline code spans with spaces,
// so that what they quote is neither a reference nor a mention.
func blankCode(text string) string {
	if !strings.ContainsAny(text, "`~") {
		return text
	}
	b := []byte(text)
	lines := strings.SplitAfter(text, "\n")
	pos := 0
	fence := ""
	for _, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			blank(b, pos, pos+len(line))
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			blank(b, pos, pos+len(line))
		default:
			blankInline(b, pos, pos+len(line))
		}
		pos += len(line)
	}
	return string(b)
}

// blankInline blanks the code spans of one line: a run of backticks opens
// a span that the next run of the same length closes.
func blankInline(b []byte, from, to int) {
	for i := from; i < to; {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < to && b[i+n] == '`' {
			n++
		}
		closeAt := -1
		for j := i + n; j < to; {
			if b[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < to && b[j+m] == '`' {
				m++
			}
			if m == n {
				closeAt = j + m
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n
			continue
		}
		blank(b, i, closeAt)
		i = closeAt
	}
}

func blank(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}

// AddedMentions is the users an edit of a text from before to after newly
// mentions: those after names and before did not (names compare without
// case), in the order after first names them.
func AddedMentions(before, after string) []string {
	now := FindReferences(after).Mentions
	if len(now) == 0 {
		return nil
	}
	had := map[string]bool{}
	for _, name := range FindReferences(before).Mentions {
		had[strings.ToLower(name)] = true
	}
	var out []string
	for _, name := range now {
		if !had[strings.ToLower(name)] {
			out = append(out, name)
		}
	}
	return out
}
