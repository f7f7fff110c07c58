package http

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/app/content"
)

// archiveRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *kernel) archiveRoutes() []route {
	return []route{
		{"GET", R + "/archive/{archive:.*}", scopes(catRepo), "RR(code)", s.getArchive},
		// The regexp keeps the row from shadowing any other R/<word>/… route.
		{"GET", R + "/{ball_type:tarball|zipball|bundle}/{ref:.*}", scopes(catRepo), "RR(code)", s.getBall},
		{"GET", R + "/languages", scopes(catRepo), "RR(code)", s.getLanguages},
		{"GET", R + "/licenses", scopes(catRepo), "RR(code)", s.getRepoLicenses},
		{"GET", R + "/editorconfig/{filename:.*}", scopes(catRepo), "RR(code)", s.getEditorconfig},
	}
}

// getArchive answers GET R/archive/{ref}.{zip|tar.gz|bundle}.
func (s *kernel) getArchive(q *request) error {
	ref, format, err := content.SplitArchiveName(q.var_("archive"))
	if err != nil {
		return err
	}
	a, err := s.content.OpenArchive(q.r.Context(), q.repo, ref, format)
	if err != nil {
		return err
	}
	defer func() { _ = a.Close() }()
	return s.streamArchive(q, a)
}

// getBall answers GET R/{tarball|zipball|bundle}/{ref}.
func (s *kernel) getBall(q *request) error {
	format, err := content.BallFormat(q.var_("ball_type"))
	if err != nil {
		return err
	}
	a, err := s.content.OpenArchive(q.r.Context(), q.repo, q.var_("ref"), format)
	if err != nil {
		return err
	}
	defer func() { _ = a.Close() }()
	return s.streamArchive(q, a)
}

// streamArchive sends the archive as it is generated. The headers go out
// with the first byte, so a failure before it is still answered as an error;
// a failure after it aborts the connection, so the client sees a broken
// transfer rather than a complete-looking corrupt file.
func (s *kernel) streamArchive(q *request, a *content.Archive) error {
	rev := a.Revision()
	dw := &downloadWriter{w: q.w, start: func(h http.Header) {
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Content-Disposition", attachmentDisposition(a.FileName))
		// Nix's tarball fetcher locks to this address (Gitea sends it too).
		h.Add("Link", "<"+s.repoAPIURL(q.repo)+"/archive/"+rev.CommitID+"."+string(a.Format)+"?rev="+rev.CommitID+
			`>; rel="immutable"`)
		if exposed := h.Get("Access-Control-Expose-Headers"); exposed != "" {
			h.Set("Access-Control-Expose-Headers", exposed+", Content-Disposition")
		}
	}}
	err := a.Stream(q.r.Context(), dw)
	if !dw.started {
		if err != nil {
			return err
		}
		dw.begin()
		return nil
	}
	// A client that went away (cancelled request, failed write) is no
	// server failure: there is no one left to tell.
	if err != nil && q.r.Context().Err() == nil && dw.writeErr == nil {
		s.log.Error("archive stream failed", "path", q.r.URL.Path, "request_id", requestID(q.w), "err", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}

// downloadWriter sends the status and headers with the first write.
type downloadWriter struct {
	w       http.ResponseWriter
	start   func(http.Header)
	started bool
	// writeErr is the first error writing to the client.
	writeErr error
}

func (d *downloadWriter) begin() {
	d.started = true
	d.start(d.w.Header())
	d.w.WriteHeader(http.StatusOK)
}

// Write sends p, after the headers on the first call.
func (d *downloadWriter) Write(p []byte) (int, error) {
	if !d.started {
		d.begin()
	}
	n, err := d.w.Write(p)
	if err != nil && d.writeErr == nil {
		d.writeErr = err
	}
	return n, err
}

// attachmentDisposition is Gitea's Content-Disposition for a download: the
// quoted name with '\' and '"' escaped, and the RFC 5987 form for non-ASCII
// names.
func attachmentDisposition(name string) string {
	quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name)
	return `attachment; filename="` + quoted + `"; filename*=UTF-8''` + url.PathEscape(name)
}

// getLanguages answers GET R/languages: bytes per language on the default
// branch.
func (s *kernel) getLanguages(q *request) error {
	langs, err := s.content.Languages(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, langs)
	return nil
}

// getRepoLicenses answers GET R/licenses: the SPDX ids of the licence files
// at the root of the default branch.
func (s *kernel) getRepoLicenses(q *request) error {
	ids, err := s.content.Licenses(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, ids)
	return nil
}

// getEditorconfig answers GET R/editorconfig/{filename}?ref=: the
// editorconfig properties that apply to the file.
func (s *kernel) getEditorconfig(q *request) error {
	props, err := s.content.EditorConfig(q.r.Context(), q.repo, q.r.URL.Query().Get("ref"), q.var_("filename"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, props)
	return nil
}
