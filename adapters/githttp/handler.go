// Package githttp is the smart HTTP adapter of Git's wire protocol: it
// answers info/refs, git-upload-pack and git-receive-pack under
// /{owner}/{repo}(.git) by running git's own pack services on the bare
// repository, streaming both ways, after the transport use cases have
// admitted the caller. It also serves the loopback endpoint the push hooks
// call back into, and the `depot hook` client those hooks run.
package githttp

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/ports"
)

// RepoDirs says where a repository lives on disk.
type RepoDirs interface {
	Dir(p ports.RepoPath) (string, error)
}

// Handler serves Git over HTTP.
type Handler struct {
	auth   *auth.Authenticator
	svc    *transport.Service
	dirs   RepoDirs
	runner *Runner
	// refs lists refs for ls-refs answered in process (ls_refs.go).
	refs ports.GitWireRefs
	// v2 keeps git's protocol-v2 advertisement per repository
	// (capability_advertisement.go).
	v2 *v2Cache
	// packs keeps answers to whole-history fetches (pack_cache.go); nil
	// when off.
	packs *PackCache
	log   *slog.Logger
	// realm names the site in WWW-Authenticate.
	realm string
}

// NewHandler builds the Git HTTP handler.
func NewHandler(a *auth.Authenticator, svc *transport.Service, dirs RepoDirs, refs ports.GitWireRefs, runner *Runner,
	packs *PackCache, log *slog.Logger) *Handler {
	return &Handler{auth: a, svc: svc, dirs: dirs, refs: refs, runner: runner, v2: newV2Cache(runner.siteFiles()),
		packs: packs, log: log, realm: `Basic realm="Depot"`}
}

// The actions of the smart protocol, as the last path segments.
const (
	actionInfoRefs    = "info/refs"
	actionUploadPack  = "git-upload-pack"
	actionReceivePack = "git-receive-pack"
)

// target is a parsed Git path.
type target struct {
	owner, name string
	dotGit      bool
	// wiki is set for the repository's wiki, "<name>.wiki.git".
	wiki   bool
	action string
}

// parsePath recognises /{owner}/{repo}[.git]/{action}.
func parsePath(p string) (target, bool) {
	var t target
	rest, ok := strings.CutPrefix(p, "/")
	if !ok {
		return t, false
	}
	switch {
	case strings.HasSuffix(rest, "/"+actionInfoRefs):
		t.action, rest = actionInfoRefs, rest[:len(rest)-len(actionInfoRefs)-1]
	case strings.HasSuffix(rest, "/"+actionUploadPack):
		t.action, rest = actionUploadPack, rest[:len(rest)-len(actionUploadPack)-1]
	case strings.HasSuffix(rest, "/"+actionReceivePack):
		t.action, rest = actionReceivePack, rest[:len(rest)-len(actionReceivePack)-1]
	default:
		return t, false
	}
	owner, name, ok := strings.Cut(rest, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return t, false
	}
	if n, ok := strings.CutSuffix(name, ".git"); ok {
		name, t.dotGit = n, true
	}
	if n, ok := strings.CutSuffix(name, ".wiki"); ok {
		// "<name>.wiki[.git]" is the wiki; repository names never end in ".wiki".
		name, t.wiki = n, true
	}
	if name == "" || strings.ContainsAny(owner+name, "\x00\\") {
		return t, false
	}
	t.owner, t.name = owner, name
	return t, true
}

// Handles reports whether a request path is the Git handler's: a Git
// action under a repository, or the hooks' internal endpoint.
func (h *Handler) Handles(path string) bool {
	if strings.HasPrefix(path, internalPrefix) {
		return true
	}
	_, ok := parsePath(path)
	return ok
}

// ServeHTTP serves a Git request or a hook call.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &httpkit.StatusWriter{ResponseWriter: w}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.log.Error("panic serving git request", "path", r.URL.Path, "panic", p)
			if sw.Status == 0 {
				plain(sw, http.StatusInternalServerError, "internal server error")
			}
		}
		h.log.LogAttrs(r.Context(), slog.LevelInfo, "git request", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.Int("status", sw.Status), slog.Duration("duration", time.Since(start)))
	}()
	if strings.HasPrefix(r.URL.Path, internalPrefix) {
		h.serveHook(sw, r)
		return
	}
	t, ok := parsePath(r.URL.Path)
	if !ok || r.URL.RawPath != "" {
		// Escapes in a Git path (%2F and the like) are never needed: names are plain.
		plain(sw, http.StatusNotFound, "not found")
		return
	}
	switch t.action {
	case actionInfoRefs:
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			sw.Header().Set("Allow", "GET, HEAD")
			plain(sw, http.StatusMethodNotAllowed, "method not allowed")
			return
		}
		h.infoRefs(sw, r, t)
	default:
		if r.Method != http.MethodPost {
			sw.Header().Set("Allow", "POST")
			plain(sw, http.StatusMethodNotAllowed, "method not allowed")
			return
		}
		h.rpc(sw, r, t)
	}
}

// plain answers a short text message; git shows text/plain bodies to the user.
func plain(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Del("Content-Encoding")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

// writeError answers err: a redirect for a renamed repository, the
// category's status with its message, or a logged 500.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, t target, err error) {
	var moved *repos.RenamedError
	if errors.As(err, &moved) {
		h.redirect(w, r, t, moved.NewOwner, moved.NewName)
		return
	}
	if status, msg, ok := httpkit.StatusOf(err); ok {
		// Git clients know no 422 or 423: a refused body is a bad request,
		// an archived repository a refusal.
		switch status {
		case http.StatusUnprocessableEntity:
			status = http.StatusBadRequest
		case http.StatusLocked:
			status = http.StatusForbidden
		case http.StatusUnauthorized:
			w.Header().Set("WWW-Authenticate", h.realm)
		}
		plain(w, status, msg)
		return
	}
	if httpkit.ClientGone(r, err) {
		h.log.Debug("git client went away", "method", r.Method, "path", r.URL.Path, "err", err)
		w.WriteHeader(httpkit.StatusClientClosedRequest)
		return
	}
	h.log.Error("git request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	plain(w, http.StatusInternalServerError, "internal server error")
}

// redirect sends the client to the same action on the repository's new
// name; git follows it for the initial info/refs request.
func (h *Handler) redirect(w http.ResponseWriter, r *http.Request, t target, owner, name string) {
	p := "/" + url.PathEscape(owner) + "/" + url.PathEscape(name)
	if t.wiki {
		p += ".wiki"
	}
	if t.dotGit {
		p += ".git"
	}
	p += "/" + t.action
	if r.URL.RawQuery != "" {
		p += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", p)
	w.WriteHeader(http.StatusTemporaryRedirect)
}
