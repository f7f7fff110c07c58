package markup

import (
	"regexp"

	"github.com/microcosm-cc/bluemonday"
)

// Classes the renderer writes, and chroma's token classes (one to three
// letters); nothing else may style a user's document with the page's CSS.
// Patterns over Unicode classes repeat with "+", not with a count: a count
// compiles into that many copies of the class (anchorID's {1,120} took
// 2.5 MB of heap for the life of the process), and an attribute's length is
// bounded by the document's anyway.
var (
	codeClass  = regexp.MustCompile(`^(code-block-container|code-overflow-scroll|code-block|chroma|display|nohighlight|language-[A-Za-z0-9+#_.-]{1,40})( (code-overflow-scroll|chroma|display|language-[A-Za-z0-9+#_.-]{1,40}))*$`)
	spanClass  = regexp.MustCompile(`^(emoji|line|cl|[a-z]{1,3})$`)
	linkClass  = regexp.MustCompile(`^(mention|ref-issue|commit|footnote-ref|footnote-backref)$`)
	anchorID   = regexp.MustCompile(`^user-content-[\p{L}\p{N}_:.-]+$`)
	listClass  = regexp.MustCompile(`^(task-list-item|contains-task-list)$`)
	blockClass = regexp.MustCompile(`^(footnotes|footnote-list)$`)
)

// newPolicy is what survives of the rendered HTML: the elements of user
// content that cannot run script (no script, style, forms, frames, SVG or
// event handlers; links and images only to http, https and mailto), the
// classes above, ids only with the user-content- prefix (a document cannot
// take over the page's own elements), task list checkboxes, table
// alignment, emoji labels, and rel="nofollow" on every link.
func newPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span", "section",
		"blockquote", "pre", "code", "kbd", "samp", "var", "em", "strong", "b", "i", "u", "s", "del", "ins",
		"strike", "mark", "small", "sub", "sup", "abbr", "dfn", "cite", "q", "details", "summary",
		"dl", "dt", "dd", "figure", "figcaption", "ruby", "rp", "rt", "wbr")
	p.AllowAttrs("dir").Matching(bluemonday.Direction).Globally()
	p.AllowAttrs("lang").Matching(regexp.MustCompile(`^[a-zA-Z]{2,20}(-[a-zA-Z0-9]{1,8})*$`)).Globally()
	p.AllowAttrs("title").Matching(bluemonday.Paragraph).Globally()
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^(|open)$`)).OnElements("details")
	p.AllowAttrs("cite").OnElements("blockquote", "q", "del", "ins")
	p.AllowStandardURLs()
	p.AllowAttrs("href").OnElements("a")
	p.AllowLists()
	p.AllowTables()
	p.AllowImages()
	p.AllowElements("input")
	p.AllowAttrs("class").Matching(codeClass).OnElements("div", "pre", "code")
	p.AllowAttrs("class").Matching(spanClass).OnElements("span")
	p.AllowAttrs("class").Matching(linkClass).OnElements("a", "sup")
	p.AllowAttrs("class").Matching(listClass).OnElements("ul", "ol", "li")
	p.AllowAttrs("class").Matching(blockClass).OnElements("div", "section", "ol")
	p.AllowAttrs("aria-label").Matching(regexp.MustCompile(`^[\p{L}\p{N} _:.,'&()-]+$`)).OnElements("span")
	p.AllowAttrs("id").Matching(anchorID).Globally()
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^(|checked|disabled)$`)).OnElements("input")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^doc-(noteref|backlink|endnotes)$`)).OnElements("a", "div", "section")
	p.RequireNoFollowOnLinks(true)
	p.AllowURLSchemes("http", "https", "mailto")
	return p
}
