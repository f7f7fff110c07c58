package http

import (
	"net/http"
	"strings"
)

// actionJobs serves the jobs of a repository's workflow runs (catalogue
// 4.5): for now the log a runner wrote for one.
type actionJobs struct{ *kernel }

// actionJobRoutes are the rows of actionJobs.
func (s *kernel) actionJobRoutes() []route {
	h := actionJobs{s}
	return []route{
		{"GET", R + "/actions/jobs/{job_id}/logs", scopes(catRepo), "RR(actions),T", actionsUnit(h.logs)},
	}
}

// logs answers GET …/actions/jobs/{job_id}/logs with the job's log as plain
// text, one row a line led by its time, as Gitea's log files hold it; a job
// no runner took yet has an empty log.
func (s actionJobs) logs(q *request) error {
	id, err := pathID(q, "job_id")
	if err != nil {
		return err
	}
	rows, err := s.actions.JobLogs(q.r.Context(), q.repo.Repo.ID, id)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Time.UTC().Format("2006-01-02T15:04:05.0000000Z07:00"))
		b.WriteByte(' ')
		b.WriteString(r.Content)
		b.WriteByte('\n')
	}
	q.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write([]byte(b.String()))
	return nil
}
