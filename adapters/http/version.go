package http

import (
	"net/http"
	"strconv"
)

// versionRoutes is the row of GET /version (catalogue 4.1); its handler,
// getVersion, answers the kernel's constant version body.
func (s *kernel) versionRoutes() []route {
	return []route{
		{"GET", "/version", nil, "-", s.getVersion},
	}
}

// getVersion answers GET /version.
func (s *kernel) getVersion(q *request) error {
	h := q.w.Header()
	h.Set("Content-Type", "application/json;charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(s.versionBody)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(s.versionBody) // a failed write means the client left: nobody to answer
	return nil
}
