package repository

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// A wiki page has three names, as in Gitea (services/wiki/wiki_path.go):
//
//   - its title, what readers see: "Home Page", "100% Free", "2000-01-02 meeting";
//   - its web path, the name in URLs and the API's sub_url: "Home-Page",
//     "100%25+Free", "2000-01-02+meeting.-" (a segment ending in the dash
//     marker ".-" keeps its dashes, which otherwise stand for spaces);
//   - its file, the blob in the wiki repository: "Home-Page.md",
//     "100%25 Free.md", "2000-01-02 meeting.-.md".
//
// A title is escaped as one segment, so "/" and ".." in a title never name
// another directory; a web path from a URL has its slashes escaped too.

// WikiHome is the page a wiki opens on, and the default of revisions.
const WikiHome = "Home"

// The pages shown beside every page.
const (
	WikiSidebar = "_Sidebar"
	WikiFooter  = "_Footer"
)

// wikiDashMarker ends a segment whose dashes are dashes, not spaces.
const wikiDashMarker = ".-"

// wikiReserved are the names the wiki's own pages use (Gitea's
// reservedWikiNames).
var wikiReserved = []string{"_pages", "_new", "_edit", "raw"}

// errWikiReserved refuses a page name the wiki keeps for itself.
func errWikiReserved(name string) error {
	return errs.BadRequest("wiki title is reserved: " + name)
}

// wikiUnescapeSegment turns one web path segment into its title.
func wikiUnescapeSegment(s string) (string, error) {
	if t, ok := strings.CutSuffix(s, wikiDashMarker); ok {
		s = t
	} else {
		s = strings.ReplaceAll(s, "-", " ")
	}
	u, err := url.QueryUnescape(s)
	if err != nil {
		return s, err
	}
	return u, nil
}

// wikiEscapeSegment turns a title into one web path segment.
func wikiEscapeSegment(s string, marked bool) string {
	if marked || strings.Contains(s, "-") || strings.HasSuffix(s, ".md") {
		s += wikiDashMarker
	} else {
		s = strings.ReplaceAll(s, " ", "-")
	}
	return url.QueryEscape(s)
}

// relClean cleans a slash-separated path as relative to a root it cannot
// leave: "" stays "", a path that resolves to the root is ".".
func relClean(s string) string {
	if s == "" {
		return ""
	}
	p := path.Clean("/" + strings.ReplaceAll(s, `\`, "/"))
	if p == "/" {
		return "."
	}
	return p[1:]
}

// WikiTitleToWebPath is the web path of a page titled title: one segment,
// "unnamed" for a title that is empty or only dots and slashes.
func WikiTitleToWebPath(title string) string {
	p := relClean(wikiEscapeSegment(strings.TrimSpace(title), false))
	if p == "" || p == "." {
		return "unnamed"
	}
	return p
}

// WikiWebPathFromRequest is the web path a URL's page name segment (still
// escaped) names: cleaned inside the wiki, slashes kept as %2F.
func WikiWebPathFromRequest(raw string) string {
	return strings.ReplaceAll(relClean(raw), "/", "%2F")
}

// WikiWebPathToFile is the file that holds the page at web path web. A web
// path ending in ".md" names its file directly.
func WikiWebPathToFile(web string) string {
	if strings.HasSuffix(web, ".md") {
		p, err := url.PathUnescape(web)
		if err != nil {
			p = web
		}
		return relClean(p)
	}
	segs := strings.Split(web, "/")
	for i, s := range segs {
		marked := strings.HasSuffix(s, wikiDashMarker)
		t, _ := wikiUnescapeSegment(s)
		t = wikiEscapeSegment(t, marked)
		t = strings.ReplaceAll(t, "%20", " ")
		segs[i] = strings.ReplaceAll(t, "+", " ")
	}
	return strings.Join(segs, "/") + ".md"
}

// WikiFileToWebPath is the web path of the page in file; a file that is not
// a page (no ".md" suffix, or an undecodable name) reports false.
func WikiFileToWebPath(file string) (string, bool) {
	s, ok := strings.CutSuffix(file, ".md")
	if !ok {
		return "", false
	}
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		marked := strings.HasSuffix(seg, wikiDashMarker)
		t, err := wikiUnescapeSegment(seg)
		if err != nil {
			return "", false
		}
		segs[i] = wikiEscapeSegment(t, marked)
	}
	return strings.Join(segs, "/"), true
}

// WikiWebPathToTitle is the title readers see for web path web (its last segment).
func WikiWebPathToTitle(web string) string {
	display := path.Base(web)
	if t, ok := strings.CutSuffix(display, ".md"); ok {
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
		display = t
	}
	display, _ = wikiUnescapeSegment(display)
	return display
}

// CheckWikiWebPath refuses a web path one of whose segments is a reserved
// name (400, as Gitea's ErrWikiReservedName).
func CheckWikiWebPath(web string) error {
	for _, s := range strings.Split(web, "/") {
		t, _ := wikiUnescapeSegment(s)
		if slices.Contains(wikiReserved, t) {
			return errWikiReserved(t)
		}
	}
	return nil
}

// WikiFileSafe reports whether file may be read or written in a wiki
// repository: relative, clean, no empty, "." or ".." segment, no NUL and no
// ".git" directory.
func WikiFileSafe(file string) bool {
	if file == "" || strings.ContainsAny(file, "\x00\\") || strings.HasPrefix(file, "/") {
		return false
	}
	for _, s := range strings.Split(file, "/") {
		if s == "" || s == "." || s == ".." || strings.EqualFold(s, ".git") {
			return false
		}
	}
	return true
}
