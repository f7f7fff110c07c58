package http

import (
	"net/http"
	"strconv"
)

// siteVersion serves the version Depot reports (catalogue 4.1).
type siteVersion struct{ *kernel }

// versionRoutes is the row of GET /version; its handler answers the
// kernel's constant version body.
func (s *kernel) versionRoutes() []route {
	h := siteVersion{s}
	return []route{
		{"GET", "/version", nil, "-", h.getVersion},
	}
}

// getVersion answers GET /version.
func (s siteVersion) getVersion(q *request) error {
	h := q.w.Header()
	h.Set("Content-Type", "application/json;charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(s.versionBody)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(s.versionBody) // a failed write means the client left: nobody to answer
	return nil
}
