package http

import (
	"net/http"
	"path"
)

// uncleanWrite reports whether r is a request other than GET or HEAD whose
// path is not in canonical form: an empty ("//"), "." or ".." segment.
// gorilla/mux answers such paths with a 301 to the cleaned path whatever
// the method; a client that follows it turns a write into a GET (or, with
// some clients, replays the body to a route the caller never named), so a
// write there is refused instead. Gitea routes such paths as they are: a
// ".." matches no route (404). Reads keep mux's redirect.
func uncleanWrite(r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return false
	}
	// The escaped form is what mux cleans: an escaped slash or dot inside a
	// segment ("a%2F..%2Fb") is data, not structure.
	p := r.URL.EscapedPath()
	return p != canonicalPath(p)
}

// canonicalPath is p as mux would redirect to it: rooted, with empty, "."
// and ".." segments resolved and a trailing slash kept.
func canonicalPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// uncleanWriteMessage is the 404's message.
const uncleanWriteMessage = "route not found: the path has an empty, '.' or '..' segment"
