package http

import (
	"net/url"
	"strconv"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
)

// trackedTimeDTO is Gitea's TrackedTime.
type trackedTimeDTO struct {
	ID       int64     `json:"id"`
	Created  time.Time `json:"created"`
	Time     int64     `json:"time"`
	UserID   int64     `json:"user_id"`
	UserName string    `json:"user_name"`
	IssueID  int64     `json:"issue_id"`
	Issue    *issueDTO `json:"issue"`
}

// stopwatchDTO is Gitea's StopWatch.
type stopwatchDTO struct {
	Created       time.Time `json:"created"`
	Seconds       int64     `json:"seconds"`
	Duration      string    `json:"duration"`
	IssueIndex    int64     `json:"issue_index"`
	IssueTitle    string    `json:"issue_title"`
	RepoOwnerName string    `json:"repo_owner_name"`
	RepoName      string    `json:"repo_name"`
}

// issueWatchDTO is Gitea's WatchInfo for an issue subscription.
type issueWatchDTO struct {
	Subscribed    bool      `json:"subscribed"`
	Ignored       bool      `json:"ignored"`
	Reason        any       `json:"reason"`
	CreatedAt     time.Time `json:"created_at"`
	URL           string    `json:"url"`
	RepositoryURL string    `json:"repository_url"`
}

// issueDeadlineDTO is Gitea's IssueDeadline.
type issueDeadlineDTO struct {
	Deadline *time.Time `json:"due_date"`
}

// pinsAllowedDTO is Gitea's NewIssuePinsAllowed.
type pinsAllowedDTO struct {
	Issues       bool `json:"issues"`
	PullRequests bool `json:"pull_requests"`
}

// issueTemplateDTO is Gitea's IssueTemplate; body is null for a Markdown
// template, which clients use to tell forms apart.
type issueTemplateDTO struct {
	Name      string          `json:"name"`
	Title     string          `json:"title"`
	About     string          `json:"about"`
	Labels    []string        `json:"labels"`
	Assignees []string        `json:"assignees"`
	Ref       string          `json:"ref"`
	Content   string          `json:"content"`
	Fields    []*formFieldDTO `json:"body"`
	FileName  string          `json:"file_name"`
}

// formFieldDTO is Gitea's IssueFormField.
type formFieldDTO struct {
	Type        string         `json:"type"`
	ID          string         `json:"id"`
	Attributes  map[string]any `json:"attributes"`
	Validations map[string]any `json:"validations"`
	Visible     []string       `json:"visible,omitempty"`
}

// issueConfigDTO is Gitea's IssueConfig.
type issueConfigDTO struct {
	BlankIssuesEnabled bool             `json:"blank_issues_enabled"`
	ContactLinks       []contactLinkDTO `json:"contact_links"`
}

type contactLinkDTO struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	About string `json:"about"`
}

// issueConfigValidationDTO is Gitea's IssueConfigValidation.
type issueConfigValidationDTO struct {
	Valid   bool   `json:"valid"`
	Message string `json:"message"`
}

func toIssueTemplates(list []*issue.Template) []issueTemplateDTO {
	out := make([]issueTemplateDTO, 0, len(list))
	for _, t := range list {
		d := issueTemplateDTO{Name: t.Name, Title: t.Title, About: t.About, Labels: t.Labels, Assignees: t.Assignees,
			Ref: t.Ref, Content: t.Content, FileName: t.FileName}
		if t.Fields != nil {
			d.Fields = make([]*formFieldDTO, len(t.Fields))
			for i, f := range t.Fields {
				d.Fields[i] = &formFieldDTO{Type: f.Type, ID: f.ID, Attributes: f.Attributes, Validations: f.Validations, Visible: f.Visible}
			}
		}
		out = append(out, d)
	}
	return out
}

func toIssueConfig(c issue.TemplateConfig) issueConfigDTO {
	d := issueConfigDTO{BlankIssuesEnabled: c.BlankIssuesEnabled, ContactLinks: make([]contactLinkDTO, 0, len(c.ContactLinks))}
	for _, l := range c.ContactLinks {
		d.ContactLinks = append(d.ContactLinks, contactLinkDTO{Name: l.Name, URL: l.URL, About: l.About})
	}
	return d
}

// issueAPIURL is the API address of issue index of r.
func (s *kernel) issueAPIURL(r *repository.Repository, index int64) string {
	return s.baseURL + apiPrefix + "/repos/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name) +
		"/issues/" + strconv.FormatInt(index, 10)
}
