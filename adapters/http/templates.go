package http

import (
	"net/http"
	"net/url"
	"strings"
)

// templates serves the templates a new repository may start from:
// .gitignore files, licences and label sets (catalogue 4.1).
type templates struct{ *kernel }

// templateRoutes are the rows of templates.
func (s *kernel) templateRoutes() []route {
	h := templates{s}
	return []route{
		{"GET", "/gitignore/templates", nil, "-", h.listGitignores},
		{"GET", "/gitignore/templates/{name}", nil, "-", h.getGitignore},
		{"GET", "/licenses", nil, "-", h.listLicenses},
		{"GET", "/licenses/{name}", nil, "-", h.getLicense},
		{"GET", "/label/templates", nil, "-", h.listLabelTemplates},
		{"GET", "/label/templates/{name}", nil, "-", h.getLabelTemplate},
	}
}

// listGitignores answers GET /gitignore/templates.
func (s templates) listGitignores(q *request) error {
	q.json(http.StatusOK, s.repos.Templates().Gitignores())
	return nil
}

// getGitignore answers GET /gitignore/templates/{name}.
func (s templates) getGitignore(q *request) error {
	name := q.var_("name")
	text, err := s.repos.Templates().Gitignore(name)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, map[string]string{"name": name, "source": text})
	return nil
}

type licenseEntryDTO struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// listLicenses answers GET /licenses.
func (s templates) listLicenses(q *request) error {
	list := s.repos.Templates().Licenses()
	out := make([]licenseEntryDTO, len(list))
	for i, l := range list {
		out[i] = licenseEntryDTO{Key: l.Key, Name: l.Name, URL: s.baseURL + apiPrefix + "/licenses/" + url.PathEscape(l.Key)}
	}
	q.json(http.StatusOK, out)
	return nil
}

// getLicense answers GET /licenses/{name}.
func (s templates) getLicense(q *request) error {
	l, err := s.repos.Templates().License(q.var_("name"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, map[string]string{
		"key": l.Key, "name": l.Name, "url": s.baseURL + apiPrefix + "/licenses/" + url.PathEscape(l.Key),
		"implementation": "Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file",
		"body":           l.Body,
	})
	return nil
}

// listLabelTemplates answers GET /label/templates.
func (s templates) listLabelTemplates(q *request) error {
	q.json(http.StatusOK, s.repos.Templates().LabelSets())
	return nil
}

type labelTemplateDTO struct {
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	Color       string `json:"color"`
	Description string `json:"description"`
}

// getLabelTemplate answers GET /label/templates/{name}.
func (s templates) getLabelTemplate(q *request) error {
	set, err := s.repos.Templates().LabelSet(q.var_("name"))
	if err != nil {
		return err
	}
	out := make([]labelTemplateDTO, len(set))
	for i, l := range set {
		out[i] = labelTemplateDTO{Name: l.Name, Exclusive: l.Exclusive, Color: strings.TrimPrefix(l.Color, "#"), Description: l.Description}
	}
	q.json(http.StatusOK, out)
	return nil
}
