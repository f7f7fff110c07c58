package issue

import (
	"strings"
	"unicode"
)

// MaxSearchTerms bounds the words of one keyword search, so a pasted
// paragraph cannot make a query of unbounded cost.
const MaxSearchTerms = 10

// maxTermLength bounds one word (in characters); longer ones are cut, and
// still match as prefixes.
const maxTermLength = 64

// SearchTerms splits a search keyword into the lower-cased words the
// full-text index holds: runs of letters and digits, everything else
// separating them, as both backends' indexes tokenise titles and bodies.
// Every term must match (as a word prefix) for an issue to match.
func SearchTerms(keyword string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(keyword), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if r := []rune(w); len(r) > maxTermLength {
			w = string(r[:maxTermLength])
		}
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == MaxSearchTerms {
			break
		}
	}
	return out
}
