package http

import (
	"time"

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
