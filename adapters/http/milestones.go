package http

import (
	"net/http"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// milestones serves a repository's milestones (catalogue 4.6).
type milestones struct{ *kernel }

// milestoneRoutes are the rows of milestones. They carry IssuesOrPulls (404
// when the tracker is off or unreadable; on the write rows it stands after T
// and RW, where the use cases used to check it).
func (s *kernel) milestoneRoutes() []route {
	const rw = "T,RW(issues and pulls)"
	h := milestones{s}
	return []route{
		{"GET", R + "/milestones", scopes(catIssue), "IssuesOrPulls", h.listMilestones},
		{"POST", R + "/milestones", scopes(catIssue), rw + ",IssuesOrPulls", h.createMilestone},
		{"GET", R + "/milestones/{id}", scopes(catIssue), "IssuesOrPulls", h.getMilestone},
		{"PATCH", R + "/milestones/{id}", scopes(catIssue), rw + ",IssuesOrPulls", h.editMilestone},
		{"DELETE", R + "/milestones/{id}", scopes(catIssue), rw + ",IssuesOrPulls", h.deleteMilestone},
	}
}

// createMilestoneBody is Gitea's CreateMilestoneOption. due_on is read as
// text so that a malformed date is a 422 naming it.
type createMilestoneBody struct {
	Title       *string `json:"title"`
	Description *string `json:"description"`
	State       string  `json:"state"`
	DueOn       *string `json:"due_on"`
}

// editMilestoneBody is Gitea's EditMilestoneOption: an empty title or a
// null or zero due_on keeps the current value, as in Gitea.
type editMilestoneBody struct {
	Title       string  `json:"title"`
	Description *string `json:"description"`
	State       *string `json:"state"`
	DueOn       *string `json:"due_on"`
}

// parseMilestoneDue reads an RFC 3339 due date; nil or the zero time is none.
func parseMilestoneDue(v *string) (*time.Time, error) {
	if v == nil || strings.TrimSpace(*v) == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(*v))
	if err != nil {
		return nil, errs.Invalid("must be an RFC 3339 date-time", "DueOn")
	}
	if t.IsZero() {
		return nil, nil
	}
	return &t, nil
}

// listMilestones answers GET R/milestones (?state=open|closed|all, ?name=).
func (s milestones) listMilestones(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	list, total, err := s.issues.Milestones().List(q.r.Context(), q.repo,
		ports.MilestoneQuery{State: strings.ToLower(v.Get("state")), Name: v.Get("name"), ListOptions: opts})
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, milestoneDTOs(list))
	return nil
}

// getMilestone answers GET R/milestones/{id}; {id} may be a title.
func (s milestones) getMilestone(q *request) error {
	m, err := s.issues.Milestones().Get(q.r.Context(), q.repo, q.var_("id"))
	if err != nil {
		return err
	}
	q.lastModified(m.UpdatedAt)
	q.json(http.StatusOK, toMilestoneDTO(m))
	return nil
}

// createMilestone answers POST R/milestones with 201.
func (s milestones) createMilestone(q *request) error {
	var b createMilestoneBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	due, err := parseMilestoneDue(b.DueOn)
	if err != nil {
		return err
	}
	in := issue.MilestoneInput{Title: b.Title, Description: b.Description, DueAt: due}
	if b.State != "" {
		in.State = &b.State
	}
	m, err := s.issues.Milestones().Create(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toMilestoneDTO(m))
	return nil
}

// editMilestone answers PATCH R/milestones/{id}; {id} may be a title.
func (s milestones) editMilestone(q *request) error {
	var b editMilestoneBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	due, err := parseMilestoneDue(b.DueOn)
	if err != nil {
		return err
	}
	in := issue.MilestoneInput{Description: b.Description, DueAt: due, State: b.State}
	if strings.TrimSpace(b.Title) != "" {
		in.Title = &b.Title
	}
	m, err := s.issues.Milestones().Edit(q.r.Context(), q.repo, q.var_("id"), in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toMilestoneDTO(m))
	return nil
}

// deleteMilestone answers DELETE R/milestones/{id} with 204.
func (s milestones) deleteMilestone(q *request) error {
	return noContent(q, s.issues.Milestones().Delete(q.r.Context(), q.repo, q.var_("id")))
}

// milestoneDTO is Gitea's Milestone.
type milestoneDTO struct {
	ID           int64      `json:"id"`
	Title        string     `json:"title"`
	Description  string     `json:"description"`
	State        string     `json:"state"`
	OpenIssues   int        `json:"open_issues"`
	ClosedIssues int        `json:"closed_issues"`
	Created      time.Time  `json:"created_at"`
	Updated      *time.Time `json:"updated_at"`
	Closed       *time.Time `json:"closed_at"`
	Deadline     *time.Time `json:"due_on"`
}

// toMilestoneDTO answers m.
func toMilestoneDTO(m *issue.Milestone) *milestoneDTO {
	updated := m.UpdatedAt
	return &milestoneDTO{ID: m.ID, Title: m.Title, Description: m.Description, State: string(m.State()),
		OpenIssues: m.NumIssues - m.NumClosedIssues, ClosedIssues: m.NumClosedIssues,
		Created: m.CreatedAt, Updated: &updated, Closed: m.ClosedAt, Deadline: m.DueAt}
}

// milestoneDTOs answers milestones.
func milestoneDTOs(ms []*issue.Milestone) []*milestoneDTO {
	out := make([]*milestoneDTO, len(ms))
	for i, m := range ms {
		out[i] = toMilestoneDTO(m)
	}
	return out
}
