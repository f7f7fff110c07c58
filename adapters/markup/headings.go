package markup

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// headingIDPrefix keeps the ids of a document's anchors apart from the
// page's own, as Gitea's and GitHub's "user-content-" does.
const headingIDPrefix = "user-content-"

// headingIDs makes a document's heading ids: GitHub's slug of the heading's
// text (lower case, spaces to '-', punctuation dropped), prefixed, with -1,
// -2… for repeats (parser.IDs).
type headingIDs struct {
	used map[string]bool
}

func newHeadingIDs() parser.IDs { return &headingIDs{used: map[string]bool{}} }

// Generate returns a fresh id for a heading reading value.
func (h *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	base := headingSlug(string(value))
	if base == "" {
		base = "heading"
	}
	id := base
	for n := 1; h.used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	h.used[id] = true
	return []byte(headingIDPrefix + id)
}

// Put records an id given explicitly ({#id}).
func (h *headingIDs) Put(value []byte) {
	h.used[strings.TrimPrefix(string(value), headingIDPrefix)] = true
}

// maxSlugRunes bounds an anchor's length.
const maxSlugRunes = 100

func headingSlug(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		default:
			continue
		}
		if n++; n >= maxSlugRunes {
			break
		}
	}
	return b.String()
}
