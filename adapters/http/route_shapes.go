package http

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
)

// pathShape is a cheap first test of whether a request's path can match a
// route's pattern, run before mux's regular expression: the pattern's
// literal segments must be the path's, in place, and the segment counts
// must agree. mux tries a group's routes one by one, and its regular
// expressions were a tenth of a comment list's cost; the shape refuses
// most routes in a few string comparisons. It never refuses a path the
// pattern matches: a segment holding a variable matches any text, and from
// a variable with its own regular expression (which may span slashes,
// {ref:.*}) on nothing more is checked. The API's router and the groups of
// routes in it are shapes too (prefixShape), not mux path prefixes, whose
// regular expressions every route below them would run again (a route
// inherits its router's matchers).
type pathShape struct {
	// segs are the pattern's segments after its leading slash: the literal
	// text, or "" for a segment holding a variable.
	segs []string
	// tail is what may follow the last of segs.
	tail shapeTail
}

// shapeTail is what a shape lets follow its segments.
type shapeTail int

const (
	// tailNone: nothing; the path ends with the last segment.
	tailNone shapeTail = iota
	// tailSome: one segment or more (a variable that may span slashes,
	// {ref:.*}, comes next).
	tailSome
	// tailAny: anything, nothing included (a group's prefix).
	tailAny
)

// newPathShape reads a mux path template ("/api/v1/repos/{owner}/{repo}/pulls").
func newPathShape(template string) pathShape {
	var sh pathShape
	for _, seg := range splitTemplate(strings.TrimPrefix(template, "/")) {
		switch {
		case !strings.Contains(seg, "{"):
			sh.segs = append(sh.segs, seg)
		case strings.Contains(seg, ":"): // a variable with its own expression
			sh.tail = tailSome
			return sh
		default:
			sh.segs = append(sh.segs, "")
		}
	}
	return sh
}

// prefixShape is the shape of the paths under template's segments: a
// group of routes.
func prefixShape(template string) pathShape {
	sh := newPathShape(template)
	sh.tail = tailAny
	return sh
}

// splitTemplate splits a template at the slashes outside braces.
func splitTemplate(t string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '/':
			if depth == 0 {
				out = append(out, t[start:i])
				start = i + 1
			}
		}
	}
	return append(out, t[start:])
}

// match is the shape's test on path, as mux sees it (escaped).
func (sh pathShape) match(path string) bool {
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return false
	}
	if len(sh.segs) == 0 {
		return sh.tail == tailAny || (sh.tail == tailSome) == (rest != "")
	}
	for k, want := range sh.segs {
		seg, tail, more := strings.Cut(rest, "/")
		if want != "" && seg != want {
			return false
		}
		if k < len(sh.segs)-1 {
			if !more {
				return false
			}
			rest = tail
			continue
		}
		switch sh.tail {
		case tailSome:
			return more
		case tailAny:
			return true
		}
		return !more
	}
	return false
}

// matcher is the shape as a mux matcher; mux reads the escaped path when
// the router uses encoded paths, as Depot's does (server.go).
func (sh pathShape) matcher() mux.MatcherFunc {
	return func(r *http.Request, _ *mux.RouteMatch) bool { return sh.match(r.URL.EscapedPath()) }
}
