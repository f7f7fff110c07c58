package http

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// commitStatuses serves the statuses reported on commits (catalogue 4.5).
type commitStatuses struct{ *kernel }

// statusRoutes are the rows of commitStatuses.
func (s *kernel) statusRoutes() []route {
	h := commitStatuses{s}
	return []route{
		{"GET", R + "/commits/{ref}/status", scopes(catRepo), "RR(code)", h.getCombinedStatus},
		{"GET", R + "/commits/{ref}/statuses", scopes(catRepo), "RR(code)", h.listStatusesByRef},
		{"GET", R + "/statuses/{sha}", scopes(catRepo), "RR(code)", h.listStatuses},
		{"POST", R + "/statuses/{sha}", scopes(catRepo), "T,RW(code)", h.createStatus},
	}
}

// createStatus answers POST R/statuses/{sha} with 201 and the new status.
func (s commitStatuses) createStatus(q *request) error {
	var b createStatusDTO
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	st, creator, err := s.content.Statuses().Create(q.r.Context(), q.repo, q.var_("sha"), commitstatus.Report{
		State: b.State, TargetURL: b.TargetURL, Description: b.Description, Context: b.Context,
	})
	if err != nil {
		return err
	}
	page := content.StatusPage{Creators: map[int64]*user.User{creator.ID: creator}}
	q.json(http.StatusCreated, s.toCommitStatus(q.caller, q.repo, st, page))
	return nil
}

// listStatuses answers GET R/statuses/{sha}.
func (s commitStatuses) listStatuses(q *request) error {
	return s.writeStatuses(q, s.content.Statuses().List, q.var_("sha"))
}

// listStatusesByRef answers GET R/commits/{ref}/statuses.
func (s commitStatuses) listStatusesByRef(q *request) error {
	return s.writeStatuses(q, s.content.Statuses().ListByRef, q.var_("ref"))
}

// writeStatuses lists a commit's statuses with the sort, state, page and
// limit queries, and paging headers.
func (s commitStatuses) writeStatuses(q *request,
	list func(context.Context, *repos.Access, string, ports.CommitStatusQuery) (*content.StatusPage, error), ref string) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	page, err := list(q.r.Context(), q.repo, ref, ports.CommitStatusQuery{
		State: commitstatus.ParseStateFilter(v.Get("state")), Sort: commitstatus.ParseSort(v.Get("sort")), ListOptions: opts,
	})
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, page.Total)
	q.json(http.StatusOK, s.toCommitStatuses(q.caller, q.repo, *page))
	return nil
}

// getCombinedStatus answers GET R/commits/{ref}/status: the combined state
// and one page of the latest status of each context.
func (s commitStatuses) getCombinedStatus(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	ctx := q.r.Context()
	cs, err := s.content.Statuses().Combined(ctx, q.repo, q.var_("ref"), opts)
	if err != nil {
		return err
	}
	repo, err := s.renderRepo(ctx, q.repo)
	if err != nil {
		return err
	}
	commitURL := s.repoAPIURL(q.repo.Repo) + "/commits/" + url.PathEscape(cs.SHA)
	s.setPaging(q.w, q.r, opts, cs.Total)
	q.json(http.StatusOK, combinedStatusDTO{
		State: string(cs.State), SHA: cs.SHA, TotalCount: cs.Total,
		Statuses:   s.toCommitStatuses(q.caller, q.repo, cs.StatusPage),
		Repository: repo, CommitURL: commitURL, URL: commitURL + "/status",
	})
	return nil
}

// createStatusDTO is Gitea's CreateStatusOption.
type createStatusDTO struct {
	State       string `json:"state"`
	TargetURL   string `json:"target_url"`
	Description string `json:"description"`
	Context     string `json:"context"`
}

// commitStatusDTO is Gitea's CommitStatus. Gitea names the state "status"
// here (and "state" in the request and in CombinedStatus), and shows the
// per-commit index as the id.
type commitStatusDTO struct {
	ID          int64     `json:"id"`
	State       string    `json:"status"`
	TargetURL   string    `json:"target_url"`
	Description string    `json:"description"`
	URL         string    `json:"url"`
	Context     string    `json:"context"`
	Creator     *userDTO  `json:"creator"`
	Created     time.Time `json:"created_at"`
	Updated     time.Time `json:"updated_at"`
}

// combinedStatusDTO is Gitea's CombinedStatus.
type combinedStatusDTO struct {
	State      string            `json:"state"`
	SHA        string            `json:"sha"`
	TotalCount int64             `json:"total_count"`
	Statuses   []commitStatusDTO `json:"statuses"`
	Repository *repoDTO          `json:"repository"`
	CommitURL  string            `json:"commit_url"`
	URL        string            `json:"url"`
}

// toCommitStatus renders st; a creator whose account is gone is null.
func (s commitStatuses) toCommitStatus(c auth.Caller, a *repos.Access, st *commitstatus.Status, page content.StatusPage) commitStatusDTO {
	d := commitStatusDTO{
		ID: st.Index, State: string(st.State), TargetURL: st.TargetURL, Description: st.Description,
		URL:     s.repoAPIURL(a.Repo) + "/statuses/" + url.PathEscape(st.SHA),
		Context: st.Context, Created: st.Created.UTC(), Updated: st.Updated.UTC(),
	}
	if u := page.Creators[st.CreatorID]; u != nil {
		cu := s.toUser(c, u)
		d.Creator = &cu
	}
	return d
}

func (s commitStatuses) toCommitStatuses(c auth.Caller, a *repos.Access, page content.StatusPage) []commitStatusDTO {
	out := make([]commitStatusDTO, 0, len(page.Statuses))
	for _, st := range page.Statuses {
		out = append(out, s.toCommitStatus(c, a, st, page))
	}
	return out
}
