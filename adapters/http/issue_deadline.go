package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// issueDeadlines serves issues' deadlines (catalogue 4.6).
type issueDeadlines struct{ *kernel }

// issueDeadlineRoutes are the rows of issueDeadlines.
func (s *kernel) issueDeadlineRoutes() []route {
	h := issueDeadlines{s}
	return []route{
		{"POST", R + "/issues/{index}/deadline", scopes(catIssue), "IssuesOrPulls,T", h.setIssueDeadline},
	}
}

// setIssueDeadline answers POST R/issues/{index}/deadline with 201 and the
// stored deadline. due_date is a date-time or a bare date; null or absent
// removes the deadline.
func (s issueDeadlines) setIssueDeadline(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b struct {
		DueDate *string `json:"due_date"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	var due *time.Time
	if b.DueDate != nil && *b.DueDate != "" {
		t, err := time.Parse(time.RFC3339, *b.DueDate)
		if err != nil {
			if t, err = time.Parse(time.DateOnly, *b.DueDate); err != nil {
				return errs.Invalid("must be an RFC 3339 date and time or a date (YYYY-MM-DD)", "DueDate")
			}
		}
		due = &t
	}
	d, err := s.issues.Deadlines().Set(q.r.Context(), q.repo, index, due)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, issueDeadlineDTO{Deadline: d})
	return nil
}

// issueDeadlineDTO is Gitea's IssueDeadline.
type issueDeadlineDTO struct {
	Deadline *time.Time `json:"due_date"`
}
