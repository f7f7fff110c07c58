package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
)

// labelDTO is Gitea's Label. Color is answered without '#', as Gitea's
// clients expect.
type labelDTO struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// toLabelDTO answers l; api is the API address of its repository or
// organisation, without a trailing slash.
func toLabelDTO(l *issue.Label, api string) labelDTO {
	return labelDTO{ID: l.ID, Name: l.Name, Exclusive: l.Exclusive, IsArchived: l.ArchivedAt != nil,
		Color: l.Color, Description: l.Description, URL: api + "/labels/" + itoa(l.ID)}
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

// orgAPIURL is the API address of the organisation called name.
func (s *kernel) orgAPIURL(name string) string {
	return s.baseURL + apiPrefix + "/orgs/" + url.PathEscape(name)
}

// labelDTOs answers labels usable in a's repository: each one's url is
// its repository's or, for an organisation's label, the organisation's
// (the repository's owner), as Gitea's convert.ToLabelList does.
func (s *kernel) labelDTOs(a *repos.Access, labels []*issue.Label) []labelDTO {
	repoAPI := s.repoAPIURL(a)
	out := make([]labelDTO, len(labels))
	for i, l := range labels {
		api := repoAPI
		if l.OrgID != 0 {
			api = s.orgAPIURL(a.Repo.Owner.Name)
		}
		out[i] = toLabelDTO(l, api)
	}
	return out
}

// milestoneDTOs answers milestones.
func milestoneDTOs(ms []*issue.Milestone) []*milestoneDTO {
	out := make([]*milestoneDTO, len(ms))
	for i, m := range ms {
		out[i] = toMilestoneDTO(m)
	}
	return out
}
