package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/docs"
)

// apiDocsPath serves docs/api.md, the page every error's url names. An
// interactive API reference is not served yet; until it is, the url points
// at a page that exists rather than at a dead link.
const apiDocsPath = "/api/docs"

// serveAPIDocs answers docs/api.md as plain UTF-8 text, which every browser
// and terminal shows as it is.
func (s *kernel) serveAPIDocs(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(docs.API)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(docs.API)
	}
}
