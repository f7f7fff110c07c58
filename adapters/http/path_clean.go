package http

import (
	"net/http"
	"path"
)

// answerUncleanPath answers a request whose path is not in canonical form
// (an empty "//", "." or ".." segment) and reports whether it did. GET and
// HEAD are redirected (301) to the cleaned path, as gorilla/mux would, but
// with the path's escapes kept: mux put the escaped path where the decoded
// one belongs, so "a%20b" came back as "a%2520b". Any other method is
// answered 404: mux redirected writes too, and a client that follows a 301
// turns a write into a GET (or, with some clients, replays the body to a
// route the caller never named). Gitea routes such paths as they are, where
// a ".." matches no route (404).
func (s *kernel) answerUncleanPath(w http.ResponseWriter, r *http.Request) bool {
	// The escaped form is what mux cleans: an escaped slash or dot inside a
	// segment ("a%2F..%2Fb") is data, not structure.
	p := r.URL.EscapedPath()
	clean := canonicalPath(p)
	if p == clean {
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.writeMessage(w, http.StatusNotFound, uncleanWriteMessage)
		return true
	}
	if r.URL.RawQuery != "" {
		clean += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", clean)
	w.WriteHeader(http.StatusMovedPermanently)
	return true
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
