package http

import (
	"net/http"

	"github.com/depothq/depot/domain/issue"
)

// issueTemplates serves a repository's issue templates and their
// configuration (catalogue 4.5).
type issueTemplates struct{ *kernel }

// issueTemplateRoutes are the rows of issueTemplates.
func (s *kernel) issueTemplateRoutes() []route {
	h := issueTemplates{s}
	return []route{
		{"GET", R + "/issue_templates", scopes(catRepo), "-", h.listIssueTemplates},
		{"GET", R + "/issue_config", scopes(catRepo), "-", h.getIssueConfig},
		{"GET", R + "/issue_config/validate", scopes(catRepo), "-", h.validateIssueConfig},
	}
}

// listIssueTemplates answers GET R/issue_templates.
func (s issueTemplates) listIssueTemplates(q *request) error {
	list, err := s.issues.Templates().List(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toIssueTemplates(list))
	return nil
}

// getIssueConfig answers GET R/issue_config (the default config when the
// file is absent or broken).
func (s issueTemplates) getIssueConfig(q *request) error {
	c, _, err := s.issues.Templates().Config(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toIssueConfig(c))
	return nil
}

// validateIssueConfig answers GET R/issue_config/validate.
func (s issueTemplates) validateIssueConfig(q *request) error {
	_, problem, err := s.issues.Templates().Config(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, issueConfigValidationDTO{Valid: problem == "", Message: problem})
	return nil
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
