package http

import (
	"net/http"
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
// text, one row a line led by its time, as Gitea's log files hold it,
// streamed (from its compressed file once the job finished); a job no
// runner took yet has an empty log.
func (s actionJobs) logs(q *request) error {
	id, err := pathID(q, "job_id")
	if err != nil {
		return err
	}
	log, err := s.actions.JobLog(q.r.Context(), q.repo.Repo.ID, id)
	if err != nil {
		return err
	}
	q.w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	q.w.WriteHeader(http.StatusOK)
	if err := log.WriteTo(q.r.Context(), q.w); err != nil {
		// The status is sent: the client sees a cut answer.
		s.log.WarnContext(q.r.Context(), "streaming a job log", "job", id, "error", err)
	}
	return nil
}
