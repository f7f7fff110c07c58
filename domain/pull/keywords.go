package pull

import (
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/issue"
)

// closeKeywords are Gitea's default CLOSE_KEYWORDS: a reference right
// after one of them ("fixes #3", "Closes: owner/repo#4") is closed when the
// pull request carrying it is merged.
var closeKeywords = map[string]bool{
	"close": true, "closes": true, "closed": true,
	"fix": true, "fixes": true, "fixed": true,
	"resolve": true, "resolves": true, "resolved": true,
}

// MaxClosingReferences bounds the issues one merge closes.
const MaxClosingReferences = 50

// ClosingReferences finds the issues a text says it closes: "#N" or
// "owner/repo#N" right after a closing keyword (with an optional colon),
// each once, in order, at most MaxClosingReferences.
func ClosingReferences(text string) []issue.IssueReference {
	words := strings.Fields(text)
	var out []issue.IssueReference
	seen := map[issue.IssueReference]bool{}
	for n := 0; n+1 < len(words) && len(out) < MaxClosingReferences; n++ {
		kw := strings.ToLower(strings.TrimSuffix(words[n], ":"))
		if !closeKeywords[kw] {
			continue
		}
		ref, ok := parseClosingRef(words[n+1])
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		out = append(out, ref)
	}
	return out
}

// parseClosingRef reads "#N" or "owner/repo#N", with trailing punctuation
// (",", ".", ")", ";") allowed.
func parseClosingRef(w string) (issue.IssueReference, bool) {
	w = strings.TrimRight(w, ",.;:!?)]")
	repo, num, ok := strings.Cut(w, "#")
	if !ok {
		return issue.IssueReference{}, false
	}
	index, err := strconv.ParseInt(num, 10, 64)
	if err != nil || index <= 0 {
		return issue.IssueReference{}, false
	}
	ref := issue.IssueReference{Index: index}
	if repo != "" {
		owner, name, ok := strings.Cut(repo, "/")
		if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
			return issue.IssueReference{}, false
		}
		ref.Owner, ref.Repo = owner, name
	}
	return ref, true
}
