package http

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
)

// issueLabels serves the labels an issue or pull request carries
// (catalogue 4.6).
type issueLabels struct{ *kernel }

// issueLabelRoutes are the rows of issueLabels. They carry IssuesOrPulls
// (404 when the tracker is off or unreadable); writes need write access to
// the issue's unit (403 from the use case), as in Gitea.
func (s *kernel) issueLabelRoutes() []route {
	h := issueLabels{s}
	return []route{
		{"GET", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls", h.listIssueLabels},
		{"POST", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", h.addIssueLabels},
		{"PUT", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", h.replaceIssueLabels},
		{"DELETE", R + "/issues/{index}/labels", scopes(catIssue), "IssuesOrPulls,T", h.clearIssueLabels},
		{"DELETE", R + "/issues/{index}/labels/{id}", scopes(catIssue), "IssuesOrPulls,T", h.removeIssueLabel},
	}
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
func (s issueLabels) listIssueLabels(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	list, err := s.issues.IssueLabels().List(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.labelDTOs(q.repo, list))
	return nil
}

// addIssueLabels answers POST R/issues/{index}/labels with the issue's labels.
func (s issueLabels) addIssueLabels(q *request) error {
	return s.changeIssueLabels(q, s.issues.IssueLabels().Add)
}

// replaceIssueLabels answers PUT R/issues/{index}/labels with the issue's labels.
func (s issueLabels) replaceIssueLabels(q *request) error {
	return s.changeIssueLabels(q, s.issues.IssueLabels().Replace)
}

func (s issueLabels) changeIssueLabels(q *request,
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
func (s issueLabels) clearIssueLabels(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.IssueLabels().Clear(q.r.Context(), q.repo, index))
}

// removeIssueLabel answers DELETE R/issues/{index}/labels/{id} with 204; an
// id naming no label is a 422, as in Gitea.
func (s issueLabels) removeIssueLabel(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, perr := strconv.ParseInt(q.var_("id"), 10, 64)
	if perr != nil || id <= 0 {
		id = 0
	}
	return noContent(q, s.issues.IssueLabels().Remove(q.r.Context(), q.repo, index, id))
}
