package http

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/app/content"
)

// repoArchives serves a repository's downloads: archives of a ref and Git
// bundles (catalogue 4.5).
type repoArchives struct{ *kernel }

// archiveRoutes are the rows of repoArchives.
func (s *kernel) archiveRoutes() []route {
	h := repoArchives{s}
	return []route{
		{"GET", R + "/archive/{archive:.*}", scopes(catRepo), "RR(code)", h.getArchive},
		// The regexp keeps the row from shadowing any other R/<word>/… route.
		{"GET", R + "/{ball_type:tarball|zipball|bundle}/{ref:.*}", scopes(catRepo), "RR(code)", h.getBall},
	}
}

// getArchive answers GET R/archive/{ref}.{zip|tar.gz|bundle}.
func (s repoArchives) getArchive(q *request) error {
	ref, format, err := content.SplitArchiveName(q.var_("archive"))
	if err != nil {
		return err
	}
	a, err := s.content.Archives().Open(q.r.Context(), q.repo, ref, format)
	if err != nil {
		return err
	}
	defer func() { _ = a.Close() }()
	return s.streamArchive(q, a)
}

// getBall answers GET R/{tarball|zipball|bundle}/{ref}.
func (s repoArchives) getBall(q *request) error {
	format, err := content.BallFormat(q.var_("ball_type"))
	if err != nil {
		return err
	}
	a, err := s.content.Archives().Open(q.r.Context(), q.repo, q.var_("ref"), format)
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
func (s repoArchives) streamArchive(q *request, a *content.Archive) error {
	rev := a.Revision()
	dw := &downloadWriter{w: q.w, start: func(h http.Header) {
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Content-Disposition", attachmentDisposition(a.FileName))
		// Nix's tarball fetcher locks to this address (Gitea sends it too).
		h.Add("Link", "<"+s.repoAPIURL(q.repo.Repo)+"/archive/"+rev.CommitID+"."+string(a.Format)+"?rev="+rev.CommitID+
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
