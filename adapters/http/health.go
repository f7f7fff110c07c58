package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/health"
)

// healthPath is where load balancers poll, as Gitea serves it: no
// credentials, no route table (it is no API resource).
const healthPath = "/api/healthz"

// healthDTO is Gitea's answer, after the IETF health-check draft.
type healthDTO struct {
	Status      health.Status                   `json:"status"`
	Description string                          `json:"description"`
	Checks      map[string][]healthComponentDTO `json:"checks"`
}

type healthComponentDTO struct {
	Status health.Status `json:"status"`
	Time   string        `json:"time"`
	// Output says why a check failed; absent when it passed.
	Output string `json:"output,omitempty"`
}

// serveHealth answers 200 when every check passes and 424 (Gitea's Failed
// Dependency) when one fails, never cached.
func (s *kernel) serveHealth(w http.ResponseWriter, r *http.Request) {
	report := s.health.Run(r.Context())
	out := healthDTO{Status: report.Status, Description: "Depot: Git hosting", Checks: map[string][]healthComponentDTO{}}
	for name, c := range report.Checks {
		d := healthComponentDTO{Status: c.Status, Time: c.Time.UTC().Format(time.RFC3339)}
		if c.Err != nil {
			d.Output = c.Err.Error()
			s.log.Warn("health check failed", "check", name, "err", c.Err)
		}
		out.Checks[name] = []healthComponentDTO{d}
	}
	status := http.StatusOK
	if report.Status != health.Pass {
		status = http.StatusFailedDependency
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, out)
}
