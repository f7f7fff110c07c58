package http

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/repository"
)

// apiError is Gitea's error body.
type apiError struct {
	Message string `json:"message"`
	URL     string `json:"url"`
}

// writeError answers err. Categorised errors carry their own message; anything
// else is a 500 that is logged with the request id and told to the client
// only as a failure.
func (s *kernel) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var renamed *users.RenamedError
	if errors.As(err, &renamed) {
		s.redirectRenamed(w, r, renamed)
		return
	}
	var moved *repos.RenamedError
	if errors.As(err, &moved) {
		s.redirectRepo(w, r, moved)
		return
	}
	var topics *repository.TopicsError
	if errors.As(err, &topics) {
		body := map[string]any{"message": topics.Error()}
		switch {
		case topics.Single && len(topics.Invalid) == 1:
			body["invalidTopics"] = topics.Invalid[0]
		case !topics.Single:
			body["invalidTopics"] = topics.Invalid
		}
		writeJSON(w, http.StatusUnprocessableEntity, body)
		return
	}
	if status, msg, ok := httpkit.StatusOf(err); ok {
		s.writeMessage(w, status, msg)
		return
	}
	if httpkit.ClientGone(r, err) {
		s.log.Debug("client went away", "method", r.Method, "path", r.URL.Path, "request_id", requestID(w), "err", err)
		w.WriteHeader(httpkit.StatusClientClosedRequest)
		return
	}
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "request_id", requestID(w), "err", err)
	s.writeMessage(w, http.StatusInternalServerError, "internal server error (request "+requestID(w)+")")
}

func (s *kernel) writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apiError{Message: msg, URL: s.apiDocsURL})
}

// redirectRenamed sends the caller to the same path with the old account name
// replaced: 301 for reads, 307 for writes, which keeps the method and body so
// that writes follow the rename too.
func (s *kernel) redirectRenamed(w http.ResponseWriter, r *http.Request, e *users.RenamedError) {
	segs := strings.Split(r.URL.EscapedPath(), "/")
	old := url.PathEscape(e.OldName)
	for i, seg := range segs {
		if strings.EqualFold(seg, old) {
			segs[i] = url.PathEscape(e.NewName)
			break
		}
	}
	s.redirectTo(w, r, segs)
}

// redirectRepo sends the caller to the same path under the repository's new
// owner and name: the two segments after "repos" (or "starred").
func (s *kernel) redirectRepo(w http.ResponseWriter, r *http.Request, e *repos.RenamedError) {
	segs := strings.Split(r.URL.EscapedPath(), "/")
	for i := 0; i+2 < len(segs); i++ {
		if (segs[i] == "repos" || segs[i] == "starred") && strings.EqualFold(segs[i+1], url.PathEscape(e.OldOwner)) &&
			strings.EqualFold(segs[i+2], url.PathEscape(e.OldName)) {
			segs[i+1], segs[i+2] = url.PathEscape(e.NewOwner), url.PathEscape(e.NewName)
			break
		}
	}
	s.redirectTo(w, r, segs)
}

// redirectTo answers 301 for reads and 307 for writes, which keeps the
// method and body so that writes follow the move too.
func (s *kernel) redirectTo(w http.ResponseWriter, r *http.Request, segs []string) {
	target := strings.Join(segs, "/")
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	status := http.StatusTemporaryRedirect
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		status = http.StatusMovedPermanently
	}
	http.Redirect(w, r, target, status)
}
