package http

import (
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/gorilla/mux"
	"golang.org/x/mod/module"
)

// goRegistryRoutes serves Go modules as Gitea does under
// /api/packages/{owner}/go: a module zip's upload, and the GOPROXY
// protocol the go command reads (…/{module}/@v/list, …/@v/{version}.info,
// .mod, .zip and …/{module}/@latest), module paths and versions
// case-encoded ("!" before an upper-case letter's lower case).
func (s *kernel) goRegistryRoutes(sub *mux.Router) {
	sub.HandleFunc("/go/upload", s.registry(true, writePlain, s.goUpload)).Methods(http.MethodPut)
	sub.PathPrefix("/go/").HandlerFunc(s.serveGoProxy).Methods(http.MethodGet, http.MethodHead)
}

// goRequest is one GOPROXY request: the module, and what of it is asked
// (list, latest, or a version's info, mod or zip).
type goRequest struct {
	path, version, what string
}

// parseGoProxyPath reads a GOPROXY path (after …/go/): the module path
// and version are case-decoded and checked; ok is false for a path that
// is no GOPROXY request or names an invalid module or version.
func parseGoProxyPath(rest string) (goRequest, bool) {
	if esc, ok := strings.CutSuffix(rest, "/@latest"); ok {
		p, err := module.UnescapePath(esc)
		return goRequest{path: p, what: "latest"}, err == nil
	}
	esc, tail, ok := strings.Cut(rest, "/@v/")
	if !ok {
		return goRequest{}, false
	}
	p, err := module.UnescapePath(esc)
	if err != nil {
		return goRequest{}, false
	}
	if tail == "list" {
		return goRequest{path: p, what: "list"}, true
	}
	dot := strings.LastIndexByte(tail, '.')
	if dot <= 0 {
		return goRequest{}, false
	}
	what := tail[dot+1:]
	if what != "info" && what != "mod" && what != "zip" {
		return goRequest{}, false
	}
	v, err := module.UnescapeVersion(tail[:dot])
	if err != nil || strings.ContainsAny(v, "/\\") {
		return goRequest{}, false
	}
	return goRequest{path: p, version: v, what: what}, true
}

// serveGoProxy dispatches a GOPROXY read; a path that is none is 404, as
// the go command expects of what a proxy does not have.
func (s *kernel) serveGoProxy(w http.ResponseWriter, r *http.Request) {
	esc := r.URL.EscapedPath()
	i := strings.Index(esc, "/go/")
	rest, err := url.PathUnescape(esc[i+len("/go/"):])
	if err != nil || strings.IndexByte(rest, 0) >= 0 {
		writePlain(w, http.StatusBadRequest, "malformed path")
		return
	}
	req, ok := parseGoProxyPath(rest)
	if !ok {
		writePlain(w, http.StatusNotFound, "route not found")
		return
	}
	s.registry(false, writePlain, func(c *registryCall) error { return s.goProxy(c, req) })(w, r)
}

// goProxy answers one GOPROXY read.
func (s *kernel) goProxy(c *registryCall, req goRequest) error {
	ctx := c.r.Context()
	switch req.what {
	case "list":
		vs, err := s.packages.GoVersions(ctx, c.owner, req.path)
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, v := range vs {
			b.WriteString(v.Version + "\n")
		}
		c.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = c.w.Write([]byte(b.String()))
	case "latest", "info":
		version := req.version
		if req.what == "latest" {
			version = "latest"
		}
		v, err := s.packages.GoVersion(ctx, c.owner, req.path, version)
		if err != nil {
			return err
		}
		writeJSON(c.w, http.StatusOK, struct {
			Version string    `json:"Version"`
			Time    time.Time `json:"Time"`
		}{v.Version.Version, v.Version.CreatedAt.UTC()})
	case "mod":
		gomod, err := s.packages.GoMod(ctx, c.owner, req.path, req.version)
		if err != nil {
			return err
		}
		c.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = c.w.Write([]byte(gomod))
	case "zip":
		f, body, err := s.packages.OpenGoZip(ctx, c.owner, req.path, req.version)
		if err != nil {
			return err
		}
		defer body.Close()
		h := c.w.Header()
		h.Set("Content-Type", "application/zip")
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
		h.Set("ETag", `"`+f.Blob.SHA256+`"`)
		http.ServeContent(c.w, c.r, "", f.CreatedAt, body)
	}
	return nil
}

// goUpload answers PUT …/go/upload with a module zip as its body: 201; 400
// for what is not a valid module zip; 409 for a version uploaded already;
// 413 over the size limit.
func (s *kernel) goUpload(c *registryCall) error {
	if c.r.ContentLength == 0 {
		return errs.BadRequest("package has invalid structure")
	}
	if _, err := s.packages.PublishGoModule(c.r.Context(), c.owner, c.caller.User, registryBody(c)); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusCreated)
	return nil
}
