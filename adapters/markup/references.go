package markup

import (
	"strconv"
)

// refKind is what a reference in prose points at.
type refKind int

const (
	refMention refKind = iota // @name
	refIssue                  // #N or owner/repo#N
	refPull                   // !N or owner/repo!N
	refCommit                 // 7 to 40 lower-case hex digits
)

// textRef is one reference found in a run of text: text[start:end].
type textRef struct {
	start, end  int
	kind        refKind
	owner, repo string // set for owner/repo#N
	index       int64
	name        string // the mention's account, or the commit id as written
}

// refScan says which references a scan looks for.
type refScan struct {
	mentions, fullIssues, shortIssues, commits bool
}

func (o refScan) any() bool { return o.mentions || o.fullIssues || o.shortIssues || o.commits }

// maxRefsPerRun bounds the references taken from one run of text, so a
// document's links grow with it and the lookups stay few.
const maxRefsPerRun = 200

// findRefs finds the references in s as Gitea recognises them: each starts
// at the beginning of s or after a space or an opening bracket, and ends at
// the end of s, before a space or a closing bracket, or before punctuation
// that ends the sentence.
func findRefs(s []byte, o refScan) []textRef {
	var out []textRef
	for i := 0; i < len(s) && len(out) < maxRefsPerRun; i++ {
		if i > 0 && !opensRef(s[i-1]) {
			continue
		}
		if r, ok := refAt(s, i, o); ok {
			out = append(out, r)
			i = r.end - 1
		}
	}
	return out
}

// refAt reads the reference starting at s[i], if there is one.
func refAt(s []byte, i int, o refScan) (textRef, bool) {
	c := s[i]
	switch {
	case c == '@' && o.mentions:
		end := i + 1
		for end < len(s) && nameByte(s[end]) {
			end++
		}
		name := s[i+1 : end]
		// A name starts with a letter, digit, '_' or '-' and does not end
		// with '.'; "@org/team" is a team, which is not linked here.
		for len(name) > 0 && name[len(name)-1] == '.' {
			name = name[:len(name)-1]
			end--
		}
		if len(name) == 0 || name[0] == '.' || end < len(s) && s[end] == '/' || !closesRef(s, end) {
			return textRef{}, false
		}
		return textRef{start: i, end: end, kind: refMention, name: string(name)}, true
	case (c == '#' || c == '!') && o.shortIssues:
		n, end, ok := refIndex(s, i+1)
		if !ok || !closesRef(s, end) {
			return textRef{}, false
		}
		return textRef{start: i, end: end, kind: issueOrPull(c), index: n}, true
	}
	if o.fullIssues && nameByte(c) {
		if r, ok := fullRefAt(s, i); ok {
			return r, true
		}
	}
	if o.commits && hexByte(c) {
		end := i
		for end < len(s) && hexByte(s[end]) {
			end++
		}
		if n := end - i; n >= 7 && n <= 40 && closesRef(s, end) {
			return textRef{start: i, end: end, kind: refCommit, name: string(s[i:end])}, true
		}
	}
	return textRef{}, false
}

// fullRefAt reads owner/repo#N or owner/repo!N at s[i].
func fullRefAt(s []byte, i int) (textRef, bool) {
	slash := i
	for slash < len(s) && nameByte(s[slash]) {
		slash++
	}
	if slash == i || slash >= len(s) || s[slash] != '/' {
		return textRef{}, false
	}
	mark := slash + 1
	for mark < len(s) && nameByte(s[mark]) {
		mark++
	}
	if mark == slash+1 || mark >= len(s) || s[mark] != '#' && s[mark] != '!' {
		return textRef{}, false
	}
	n, end, ok := refIndex(s, mark+1)
	if !ok || !closesRef(s, end) {
		return textRef{}, false
	}
	return textRef{start: i, end: end, kind: issueOrPull(s[mark]), owner: string(s[i:slash]),
		repo: string(s[slash+1 : mark]), index: n}, true
}

// refIndex reads the decimal index at s[i:], a positive int64.
func refIndex(s []byte, i int) (int64, int, bool) {
	end := i
	for end < len(s) && s[end] >= '0' && s[end] <= '9' && end-i < 19 {
		end++
	}
	if end == i || end < len(s) && s[end] >= '0' && s[end] <= '9' {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(string(s[i:end]), 10, 64)
	if err != nil || n <= 0 {
		return 0, 0, false
	}
	return n, end, true
}

func issueOrPull(mark byte) refKind {
	if mark == '!' {
		return refPull
	}
	return refIssue
}

// opensRef reports whether a reference may start after b.
func opensRef(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '(' || b == '['
}

// closesRef reports whether a reference may end at s[end]: the end of the
// text, a space, a closing bracket or a quote, or sentence punctuation
// followed by the end or a space.
func closesRef(s []byte, end int) bool {
	if end >= len(s) {
		return true
	}
	switch s[end] {
	case ' ', '\t', '\n', '\r', ')', ']', '\'', '"':
		return true
	case '.', ',', ':', ';', '?', '!':
		return end+1 >= len(s) || opensRef(s[end+1])
	}
	return false
}

// nameByte reports whether b may appear in an account or repository name.
func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.'
}

func hexByte(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' }
