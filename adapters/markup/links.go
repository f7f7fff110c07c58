package markup

import (
	"bytes"
	"context"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/depothq/depot/ports"
)

// wikiPageAttr marks a link the wiki parser made: its destination is a
// page name, resolved against the repository once the document is known.
var wikiPageAttr = []byte("data-wiki-page")

// linkDocument rewrites a parsed document's links for where it lives:
// relative links and images against the repository, anchors to the
// prefixed heading ids, wiki pages into the wiki; and turns the mentions,
// issue and commit references of its prose into links, asking the
// resolver once for all of them.
func linkDocument(ctx context.Context, doc ports.MarkupDocument, root ast.Node, src []byte) error {
	scan := refScan{
		mentions:    doc.Mentions && doc.Resolve != nil,
		fullIssues:  doc.FullIssueRefs,
		shortIssues: doc.ShortIssueRefs && doc.RepoURL != "",
		commits:     doc.CommitRefs && doc.Resolve != nil && doc.RepoURL != "",
	}
	type found struct {
		node *ast.Text
		refs []textRef
	}
	var texts []found
	// rawLinks counts the <a> elements written as raw HTML that are open
	// at this point of the walk: their text is a link already.
	rawLinks := 0
	err := ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if _, ok := n.AttributeString(string(wikiPageAttr)); ok {
				n.RemoveAttributes()
				n.Destination = []byte(wikiPageURL(doc, string(n.Destination)))
			} else {
				n.Destination = []byte(resolveLink(doc, string(n.Destination), false))
			}
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			n.Destination = []byte(resolveLink(doc, string(n.Destination), true))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			rawLinks = max(0, rawLinks+rawLinkDepth(n, src))
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink, *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Paragraph:
			rawLinks = 0
		case *ast.Text:
			if scan.any() && rawLinks == 0 {
				if refs := findRefs(n.Segment.Value(src), scan); len(refs) > 0 {
					texts = append(texts, found{n, refs})
				}
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil || len(texts) == 0 {
		return err
	}
	known, err := resolveRefs(ctx, doc, func(yield func(textRef)) {
		for _, t := range texts {
			for _, r := range t.refs {
				yield(r)
			}
		}
	})
	if err != nil {
		return err
	}
	for _, t := range texts {
		linkText(doc, t.node, t.refs, known)
	}
	return nil
}

// rawLinkDepth is +1 for an inline raw <a …> tag, -1 for </a>, else 0.
func rawLinkDepth(n *ast.RawHTML, src []byte) int {
	var tag []byte
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		tag = append(tag, seg.Value(src)...)
	}
	lower := bytes.ToLower(bytes.TrimSpace(tag))
	switch {
	case bytes.HasPrefix(lower, []byte("</a")) && (len(lower) == 3 || !nameByte(lower[3])):
		return -1
	case bytes.HasPrefix(lower, []byte("<a")) && len(lower) > 2 && !nameByte(lower[2]):
		return 1
	}
	return 0
}

// resolvedRefs is what the resolver said exists.
type resolvedRefs struct {
	users   map[string]bool
	commits map[string]string
}

// resolveRefs asks the resolver, once each, which mentioned accounts and
// commit ids exist.
func resolveRefs(ctx context.Context, doc ports.MarkupDocument, each func(func(textRef))) (resolvedRefs, error) {
	var names, ids []string
	seenName, seenID := map[string]bool{}, map[string]bool{}
	each(func(r textRef) {
		switch r.kind {
		case refMention:
			if k := strings.ToLower(r.name); !seenName[k] {
				seenName[k] = true
				names = append(names, r.name)
			}
		case refCommit:
			if !seenID[r.name] {
				seenID[r.name] = true
				ids = append(ids, r.name)
			}
		}
	})
	var known resolvedRefs
	var err error
	if len(names) > 0 {
		if known.users, err = doc.Resolve.Mentionable(ctx, names); err != nil {
			return known, err
		}
	}
	if len(ids) > 0 {
		if known.commits, err = doc.Resolve.Commits(ctx, ids); err != nil {
			return known, err
		}
	}
	return known, nil
}

// linkText splits a text node around its references, each that exists
// becoming a link that keeps its text.
func linkText(doc ports.MarkupDocument, t *ast.Text, refs []textRef, known resolvedRefs) {
	parent := t.Parent()
	seg := t.Segment
	pos := 0
	for _, r := range refs {
		href, class, label := refLink(doc, r, known)
		if href == "" {
			continue
		}
		if r.start > pos {
			parent.InsertBefore(parent, t, ast.NewTextSegment(text.NewSegment(seg.Start+pos, seg.Start+r.start)))
		}
		link := ast.NewLink()
		link.Destination = []byte(href)
		link.SetAttributeString("class", []byte(class))
		inner := ast.NewTextSegment(text.NewSegment(seg.Start+r.start, seg.Start+r.start+label))
		if r.kind == refCommit {
			code := ast.NewCodeSpan()
			code.AppendChild(code, inner)
			link.AppendChild(link, code)
		} else {
			link.AppendChild(link, inner)
		}
		parent.InsertBefore(parent, t, link)
		pos = r.end
	}
	t.Segment = text.NewSegment(seg.Start+pos, seg.Stop)
}

// shortCommitLen is how much of a commit id a commit link shows.
const shortCommitLen = 10

// refLink is where a reference points, its link's class and how many of
// its bytes the link shows; "" when it points nowhere.
func refLink(doc ports.MarkupDocument, r textRef, known resolvedRefs) (string, string, int) {
	n := r.end - r.start
	switch r.kind {
	case refMention:
		if !known.users[strings.ToLower(r.name)] {
			return "", "", 0
		}
		return doc.AppURL + "/" + url.PathEscape(r.name), "mention", n
	case refCommit:
		id := known.commits[r.name]
		if id == "" {
			return "", "", 0
		}
		return doc.RepoURL + "/commit/" + id, "commit", min(n, shortCommitLen)
	}
	kind := "/issues/"
	if r.kind == refPull {
		kind = "/pulls/"
	}
	base := doc.RepoURL
	if r.owner != "" {
		base = doc.AppURL + "/" + url.PathEscape(r.owner) + "/" + url.PathEscape(r.repo)
	}
	return base + kind + strconv.FormatInt(r.index, 10), "ref-issue", n
}

// schemeRE matches a link that names its scheme (http:, mailto:, …).
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// resolveLink is where a link or image of the document points: absolute
// links as written, anchors to the prefixed heading ids, links from the
// site's root under the site, and relative links under the repository's
// file, media or wiki pages, never above them.
func resolveLink(doc ports.MarkupDocument, link string, image bool) string {
	switch {
	case link == "":
		return link
	case strings.HasPrefix(link, "#"):
		if strings.HasPrefix(link, "#"+headingIDPrefix) {
			return link
		}
		return "#" + headingIDPrefix + link[1:]
	case schemeRE.MatchString(link) || strings.HasPrefix(link, "//"):
		return link
	case strings.HasPrefix(link, "/"):
		return doc.AppURL + link
	case doc.RepoURL == "":
		return link
	}
	p, rest := link, ""
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p, rest = p[:i], p[i:]
		if rest[0] == '#' && !strings.HasPrefix(rest, "#"+headingIDPrefix) {
			rest = "#" + headingIDPrefix + rest[1:]
		}
	}
	base := doc.RepoURL
	switch {
	case doc.Wiki && image:
		base += "/wiki/raw"
	case doc.Wiki:
		base += "/wiki"
	case doc.RefPath != "" && image:
		base += "/media/" + doc.RefPath
		p = path.Join(doc.TreePath, p)
	case doc.RefPath != "":
		base += "/src/" + doc.RefPath
		p = path.Join(doc.TreePath, p)
	}
	return base + path.Clean("/"+p) + rest
}

// wikiPageURL is the address of a wiki page named in [[…]]: its name with
// spaces as dashes, as Gitea names the page's file.
func wikiPageURL(doc ports.MarkupDocument, page string) string {
	name := strings.ReplaceAll(strings.TrimSpace(page), " ", "-")
	if doc.RepoURL == "" {
		return url.PathEscape(name)
	}
	return doc.RepoURL + "/wiki/" + url.PathEscape(name)
}

// wikiLinkParser reads [[Page]] and [[Label|Page]] in wiki documents.
type wikiLinkParser struct{}

// Trigger is the byte that may start a wiki link.
func (wikiLinkParser) Trigger() []byte { return []byte{'['} }

// Parse makes a link to the page, marked for linkDocument to resolve.
func (wikiLinkParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("[[")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("]]"))
	if end <= 0 {
		return nil
	}
	inner := line[2 : 2+end]
	labelLen, page := len(inner), inner
	if i := bytes.IndexByte(inner, '|'); i >= 0 {
		labelLen, page = i, inner[i+1:]
	}
	if len(bytes.TrimSpace(page)) == 0 || labelLen == 0 || bytes.ContainsAny(inner, "[]") {
		return nil
	}
	block.Advance(end + 4)
	link := ast.NewLink()
	link.Destination = append([]byte(nil), page...)
	link.SetAttribute(wikiPageAttr, []byte("1"))
	link.AppendChild(link, ast.NewTextSegment(text.NewSegment(seg.Start+2, seg.Start+2+labelLen)))
	return link
}
