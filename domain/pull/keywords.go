package pull

import (
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/issue"
)

// KeywordAction is what a keyword right before an issue reference asks of
// that issue when the pull request carrying it merges.
type KeywordAction int

// The keyword actions, as Gitea's cross-reference actions "closes" and
// "reopens".
const (
	KeywordCloses KeywordAction = iota + 1
	KeywordReopens
)

// keywordActions are Gitea's default CLOSE_KEYWORDS and REOPEN_KEYWORDS
// (GitHub's closing words, and their reopening twins): a reference right
// after one of them ("fixes #3", "Closes: owner/repo#4", "reopens #5") is
// closed or reopened when the pull request carrying it is merged.
var keywordActions = map[string]KeywordAction{
	"close": KeywordCloses, "closes": KeywordCloses, "closed": KeywordCloses,
	"fix": KeywordCloses, "fixes": KeywordCloses, "fixed": KeywordCloses,
	"resolve": KeywordCloses, "resolves": KeywordCloses, "resolved": KeywordCloses,
	"reopen": KeywordReopens, "reopens": KeywordReopens, "reopened": KeywordReopens,
}

// KeywordReference is an issue a text names after a closing or reopening
// keyword, and what the keyword asks.
type KeywordReference struct {
	issue.IssueReference
	Action KeywordAction
}

// MaxKeywordReferences bounds the issues one merge closes or reopens.
const MaxKeywordReferences = 50

// KeywordReferences finds the issues a text closes or reopens: "#N" or
// "owner/repo#N" right after a keyword (case aside, with an optional
// colon). Each issue comes once, where first named, with the action of the
// last keyword naming it (as Gitea keeps one cross-reference per issue and
// a later keyword overrides); owner and repository are compared without
// case. At most MaxKeywordReferences.
func KeywordReferences(text string) []KeywordReference {
	words := strings.Fields(text)
	var out []KeywordReference
	at := map[issue.IssueReference]int{}
	for n := 0; n+1 < len(words); n++ {
		action := keywordActions[strings.ToLower(strings.TrimSuffix(words[n], ":"))]
		if action == 0 {
			continue
		}
		ref, ok := parseKeywordRef(words[n+1])
		if !ok {
			continue
		}
		key := issue.IssueReference{Owner: strings.ToLower(ref.Owner), Repo: strings.ToLower(ref.Repo), Index: ref.Index}
		if i, seen := at[key]; seen {
			out[i].Action = action
			continue
		}
		if len(out) == MaxKeywordReferences {
			continue
		}
		at[key] = len(out)
		out = append(out, KeywordReference{IssueReference: ref, Action: action})
	}
	return out
}

// parseKeywordRef reads "#N" or "owner/repo#N", with trailing punctuation
// (",", ".", ")", ";") allowed.
func parseKeywordRef(w string) (issue.IssueReference, bool) {
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
