package http

import (
	"net/http"
	"time"
)

// adminCron serves the site's periodic tasks: the list and a run asked for
// now (catalogue 4.9).
type adminCron struct{ *kernel }

// adminCronRoutes are the rows of adminCron.
func (s *kernel) adminCronRoutes() []route {
	h := adminCron{s}
	return []route{
		{"GET", "/admin/cron", scopes(catAdmin), "T,SA", h.adminListCron},
		{"POST", "/admin/cron/{task}", scopes(catAdmin), "T,SA", h.adminRunCron},
	}
}

// cronTaskDTO is Gitea's Cron: a task, its schedule, its next and last
// runs (zero times when it has none) and how many times it ran.
type cronTaskDTO struct {
	Name      string    `json:"name"`
	Schedule  string    `json:"schedule"`
	Next      time.Time `json:"next"`
	Prev      time.Time `json:"prev"`
	ExecTimes int64     `json:"exec_times"`
}

// adminListCron answers GET /admin/cron: one page of the tasks, by name.
func (s adminCron) adminListCron(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.cron.List(q.r.Context(), opts)
	if err != nil {
		return err
	}
	out := make([]cronTaskDTO, 0, len(list))
	for _, t := range list {
		out = append(out, cronTaskDTO{Name: t.Name, Schedule: t.Schedule, Next: t.Next.UTC(), Prev: t.Prev.UTC(),
			ExecTimes: t.ExecTimes})
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// adminRunCron answers POST /admin/cron/{task} with 204 once a run of the
// task is queued (404 for a task Depot does not have).
func (s adminCron) adminRunCron(q *request) error {
	if err := s.cron.Run(q.r.Context(), q.var_("task")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
