package http

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// labelRoutes are the label and milestone rows of the catalogue (4.6) with
// the issue label rows, and the organisation label rows (4.8). The
// repository's rows carry IssuesOrPulls (404 when the tracker is off or
// unreadable; on the write rows it stands after T and RW, where the use cases
// used to check it); writes on an issue's labels need write access to its
// unit (403 from the use case), as in Gitea.
func (s *kernel) labelRoutes() []route {
	const rw = "T,RW(issues and pulls)"
	return []route{
		{"GET", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls", s.listIssueLabels},
		{"POST", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", s.addIssueLabels},
		{"PUT", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", s.replaceIssueLabels},
		{"DELETE", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", s.clearIssueLabels},
		{"DELETE", R + "/issues/{index}/labels/{id}", scopes(catIssue), "IssuesOrPulls,T", s.removeIssueLabel},
		{"GET", R + "/labels", scopes(catIssue), "IssuesOrPulls", s.listRepoLabels},
		{"POST", R + "/labels", scopes(catIssue), rw + ",IssuesOrPulls", s.createRepoLabel},
		{"GET", R + "/labels/{id}", scopes(catIssue), "IssuesOrPulls", s.getRepoLabel},
		{"PATCH", R + "/labels/{id}", scopes(catIssue), rw + ",IssuesOrPulls", s.editRepoLabel},
		{"DELETE", R + "/labels/{id}", scopes(catIssue), rw + ",IssuesOrPulls", s.deleteRepoLabel},
		{"GET", R + "/milestones", scopes(catIssue), "IssuesOrPulls", s.listMilestones},
		{"POST", R + "/milestones", scopes(catIssue), rw + ",IssuesOrPulls", s.createMilestone},
		{"GET", R + "/milestones/{id}", scopes(catIssue), "IssuesOrPulls", s.getMilestone},
		{"PATCH", R + "/milestones/{id}", scopes(catIssue), rw + ",IssuesOrPulls", s.editMilestone},
		{"DELETE", R + "/milestones/{id}", scopes(catIssue), rw + ",IssuesOrPulls", s.deleteMilestone},

		{"GET", "/orgs/{org}/labels", scopes(catOrg), "-", s.listOrgLabels},
		{"POST", "/orgs/{org}/labels", scopes(catOrg), "T,OO", s.createOrgLabel},
		{"GET", "/orgs/{org}/labels/{id}", scopes(catOrg), "T", s.getOrgLabel},
		{"PATCH", "/orgs/{org}/labels/{id}", scopes(catOrg), "T,OO", s.editOrgLabel},
		{"DELETE", "/orgs/{org}/labels/{id}", scopes(catOrg), "T,OO", s.deleteOrgLabel},
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
func (s *kernel) listRepoLabels(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.ListRepoLabels(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.labelDTOs(q.repo, list))
	return nil
}

// getRepoLabel answers GET R/labels/{id}; {id} may be a label's name.
func (s *kernel) getRepoLabel(q *request) error {
	l, err := s.issues.RepoLabel(q.r.Context(), q.repo, q.var_("id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.repoAPIURL(q.repo)))
	return nil
}

// createRepoLabel answers POST R/labels with 201.
func (s *kernel) createRepoLabel(q *request) error {
	in, err := decodeCreateLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.CreateRepoLabel(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toLabelDTO(l, s.repoAPIURL(q.repo)))
	return nil
}

// editRepoLabel answers PATCH R/labels/{id}.
func (s *kernel) editRepoLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	in, err := decodeEditLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.EditRepoLabel(q.r.Context(), q.repo, id, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.repoAPIURL(q.repo)))
	return nil
}

// deleteRepoLabel answers DELETE R/labels/{id} with 204.
func (s *kernel) deleteRepoLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.DeleteRepoLabel(q.r.Context(), q.repo, id))
}

// listOrgLabels answers GET /orgs/{org}/labels.
func (s *kernel) listOrgLabels(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.issues.ListOrgLabels(q.r.Context(), q.org.Org.ID, opts)
	if err != nil {
		return err
	}
	api := s.orgAPIURL(q.org.Org.Name)
	out := make([]labelDTO, len(list))
	for i, l := range list {
		out[i] = toLabelDTO(l, api)
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getOrgLabel answers GET /orgs/{org}/labels/{id}; {id} may be a name.
func (s *kernel) getOrgLabel(q *request) error {
	l, err := s.issues.OrgLabel(q.r.Context(), q.org.Org.ID, q.var_("id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// createOrgLabel answers POST /orgs/{org}/labels with 201.
func (s *kernel) createOrgLabel(q *request) error {
	in, err := decodeCreateLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.CreateOrgLabel(q.r.Context(), q.org.Org.ID, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// editOrgLabel answers PATCH /orgs/{org}/labels/{id}.
func (s *kernel) editOrgLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	in, err := decodeEditLabel(q)
	if err != nil {
		return err
	}
	l, err := s.issues.EditOrgLabel(q.r.Context(), q.org.Org.ID, id, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toLabelDTO(l, s.orgAPIURL(q.org.Org.Name)))
	return nil
}

// deleteOrgLabel answers DELETE /orgs/{org}/labels/{id} with 204.
func (s *kernel) deleteOrgLabel(q *request) error {
	id, err := pathLabelID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.DeleteOrgLabel(q.r.Context(), q.org.Org.ID, id))
}

// issueLabelsBody is Gitea's IssueLabelsOption: label ids (numbers) or
// names (strings).
type issueLabelsBody struct {
	Labels []json.RawMessage `json:"labels"`
}

// decodeLabelRefs reads an IssueLabelsOption. As in Gitea, an element that
// is neither a number nor a string, or a list mixing both, is a 400.
func decodeLabelRefs(q *request) (issues.LabelRefs, error) {
	var b issueLabelsBody
	if err := decodeJSON(q.r, &b); err != nil {
		return issues.LabelRefs{}, err
	}
	var refs issues.LabelRefs
	for _, raw := range b.Labels {
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) > 0 && raw[0] == '"':
			var name string
			if err := json.Unmarshal(raw, &name); err != nil {
				return refs, errs.BadRequest("a label must be an integer or a string")
			}
			if strings.IndexByte(name, 0) >= 0 {
				return refs, errs.Invalid("must not contain NUL characters", "Labels")
			}
			refs.Names = append(refs.Names, name)
		case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
			id, err := strconv.ParseInt(string(raw), 10, 64)
			if err != nil {
				// Gitea reads numbers as floats and truncates them.
				f, ferr := strconv.ParseFloat(string(raw), 64)
				if ferr != nil || math.IsInf(f, 0) || math.Abs(f) > math.MaxInt64/2 {
					return refs, errs.Invalid("must be label ids or names", "Labels")
				}
				id = int64(f)
			}
			refs.IDs = append(refs.IDs, id)
		default:
			return refs, errs.BadRequest("a label must be an integer or a string")
		}
	}
	if len(refs.IDs) > 0 && len(refs.Names) > 0 {
		return refs, errs.BadRequest("labels should be an array of strings or integers")
	}
	return refs, nil
}

// listIssueLabels answers GET R/issues/{index}/labels.
func (s *kernel) listIssueLabels(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	list, err := s.issues.IssueLabels(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.labelDTOs(q.repo, list))
	return nil
}

// addIssueLabels answers POST R/issues/{index}/labels with the issue's labels.
func (s *kernel) addIssueLabels(q *request) error {
	return s.changeIssueLabels(q, s.issues.AddIssueLabels)
}

// replaceIssueLabels answers PUT R/issues/{index}/labels with the issue's labels.
func (s *kernel) replaceIssueLabels(q *request) error {
	return s.changeIssueLabels(q, s.issues.ReplaceIssueLabels)
}

func (s *kernel) changeIssueLabels(q *request,
	change func(ctx context.Context, a *repos.Access, index int64, refs issues.LabelRefs) ([]*issue.Label, error)) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	refs, err := decodeLabelRefs(q)
	if err != nil {
		return err
	}
	list, err := change(q.r.Context(), q.repo, index, refs)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.labelDTOs(q.repo, list))
	return nil
}

// clearIssueLabels answers DELETE R/issues/{index}/labels with 204.
func (s *kernel) clearIssueLabels(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.ClearIssueLabels(q.r.Context(), q.repo, index))
}

// removeIssueLabel answers DELETE R/issues/{index}/labels/{id} with 204; an
// id naming no label is a 422, as in Gitea.
func (s *kernel) removeIssueLabel(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, perr := strconv.ParseInt(q.var_("id"), 10, 64)
	if perr != nil || id <= 0 {
		id = 0
	}
	return noContent(q, s.issues.RemoveIssueLabel(q.r.Context(), q.repo, index, id))
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
func (s *kernel) listMilestones(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	list, total, err := s.issues.ListMilestones(q.r.Context(), q.repo,
		ports.MilestoneQuery{State: strings.ToLower(v.Get("state")), Name: v.Get("name"), ListOptions: opts})
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, milestoneDTOs(list))
	return nil
}

// getMilestone answers GET R/milestones/{id}; {id} may be a title.
func (s *kernel) getMilestone(q *request) error {
	m, err := s.issues.Milestone(q.r.Context(), q.repo, q.var_("id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toMilestoneDTO(m))
	return nil
}

// createMilestone answers POST R/milestones with 201.
func (s *kernel) createMilestone(q *request) error {
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
	m, err := s.issues.CreateMilestone(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toMilestoneDTO(m))
	return nil
}

// editMilestone answers PATCH R/milestones/{id}; {id} may be a title.
func (s *kernel) editMilestone(q *request) error {
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
	m, err := s.issues.EditMilestone(q.r.Context(), q.repo, q.var_("id"), in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toMilestoneDTO(m))
	return nil
}

// deleteMilestone answers DELETE R/milestones/{id} with 204.
func (s *kernel) deleteMilestone(q *request) error {
	return noContent(q, s.issues.DeleteMilestone(q.r.Context(), q.repo, q.var_("id")))
}
