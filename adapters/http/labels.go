package http

import (
	"net/http"
	"net/url"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

// repoLabels serves a repository's labels (catalogue 4.6).
type repoLabels struct{ *kernel }

// labelRoutes are the rows of repoLabels. They carry IssuesOrPulls (404
// when the tracker is off or unreadable; on the write rows it stands after T
// and RW, where the use cases used to check it).
func (s *kernel) labelRoutes() []route {
	const rw = "T,RW(issues and pulls)"
	h := repoLabels{s}
	return []route{
		{"GET", R + "/labels", scopes(catIssue), "IssuesOrPulls", h.listRepoLabels},
		{"POST", R + "/labels", scopes(catIssue), rw + ",IssuesOrPulls", h.createRepoLabel},
		{"GET", R + "/labels/{id}", scopes(catIssue), "IssuesOrPulls", h.getRepoLabel},
		{"PATCH", R + "/labels/{id}", scopes(catIssue), rw + ",IssuesOrPulls", h.editRepoLabel},
		{"DELETE", R + "/labels/{id}", scopes(catIssue), rw + ",IssuesOrPulls", h.deleteRepoLabel},
	}
}

// createLabelBody is Gitea's CreateLabelOption.
type createLabelBody struct {
	Name        *string `json:"name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
	Exclusive   bool    `json:"exclusive"`
	IsArchived  bool    `json:"is_archived"`
}

// editLabelBody is Gitea's EditLabelOption: absent or null fields are kept
// (is_archived too, where Gitea would unarchive).
type editLabelBody struct {
	Name        *string `json:"name"`
	Color       *string `json:"color"`
	Description *string `json:"description"`
	Exclusive   *bool   `json:"exclusive"`
	IsArchived  *bool   `json:"is_archived"`
}

func decodeCreateLabel(q *request) (issue.LabelInput, error) {
	var b createLabelBody
	if err := decodeJSON(q.r, &b); err != nil {
		return issue.LabelInput{}, err
	}
	return issue.LabelInput{Name: b.Name, Color: b.Color, Description: b.Description, Exclusive: &b.Exclusive,
		IsArchived: &b.IsArchived}, nil
}

func decodeEditLabel(q *request) (issue.LabelInput, error) {
	var b editLabelBody
	if err := decodeJSON(q.r, &b); err != nil {
		return issue.LabelInput{}, err
	}
	return issue.LabelInput{Name: b.Name, Color: b.Color, Description: b.Description, Exclusive: b.Exclusive,
		IsArchived: b.IsArchived}, nil
}

// pathLabelID reads the {id} of a label write: anything but a positive
// integer names no label (404).
func pathLabelID(q *request) (int64, error) {
	id, err := parsePositive(q.var_("id"))
	if err != nil {
		return 0, errs.NotFound("label does not exist")
	}
	return id, nil
}

// listRepoLabels answers GET R/labels.
func (s repoLabels) listRepoLabels(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.Labels().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.labelDTOs(q.repo, list))
	return nil
}

// getRepoLabel answers GET R/labels/{id}; {id} may be a label's name.
func (s repoLabels) getRepoLabel(q *request) error {
	l, err := s.issues.Labels().Get(q.r.Context(), q.repo, q.var_("id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.repoAPIURL(q.repo.Repo)))
	return nil
}

// createRepoLabel answers POST R/labels with 201.
func (s repoLabels) createRepoLabel(q *request) error {
	in, err := decodeCreateLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.Labels().Create(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toLabelDTO(l, s.repoAPIURL(q.repo.Repo)))
	return nil
}

// editRepoLabel answers PATCH R/labels/{id}.
func (s repoLabels) editRepoLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	in, err := decodeEditLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.Labels().Edit(q.r.Context(), q.repo, id, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.repoAPIURL(q.repo.Repo)))
	return nil
}

// deleteRepoLabel answers DELETE R/labels/{id} with 204.
func (s repoLabels) deleteRepoLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.Labels().Delete(q.r.Context(), q.repo, id))
}

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

// orgAPIURL is the API address of the organisation called name.
func (s *kernel) orgAPIURL(name string) string {
	return s.baseURL + apiPrefix + "/orgs/" + url.PathEscape(name)
}

// labelDTOs answers labels usable in a's repository: each one's url is
// its repository's or, for an organisation's label, the organisation's
// (the repository's owner), as Gitea's convert.ToLabelList does.
func (s *kernel) labelDTOs(a *repos.Access, labels []*issue.Label) []labelDTO {
	repoAPI := s.repoAPIURL(a.Repo)
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
