package http

import (
	"context"
	"net/http"
	"net/url"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// statusRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *kernel) statusRoutes() []route {
	return []route{
		{"GET", R + "/commits/{ref}/status", scopes(catRepo), "RR(code)", s.getCombinedStatus},
		{"GET", R + "/commits/{ref}/statuses", scopes(catRepo), "RR(code)", s.listStatusesByRef},
		{"GET", R + "/statuses/{sha}", scopes(catRepo), "RR(code)", s.listStatuses},
		{"POST", R + "/statuses/{sha}", scopes(catRepo), "T,RW(code)", s.createStatus},
	}
}

// createStatus answers POST R/statuses/{sha} with 201 and the new status.
func (s *kernel) createStatus(q *request) error {
	var b createStatusDTO
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	st, creator, err := s.content.CreateStatus(q.r.Context(), q.repo, q.var_("sha"), commitstatus.Report{
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
func (s *kernel) listStatuses(q *request) error {
	return s.writeStatuses(q, s.content.ListStatuses, q.var_("sha"))
}

// listStatusesByRef answers GET R/commits/{ref}/statuses.
func (s *kernel) listStatusesByRef(q *request) error {
	return s.writeStatuses(q, s.content.ListStatusesByRef, q.var_("ref"))
}

// writeStatuses lists a commit's statuses with the sort, state, page and
// limit queries, and paging headers.
func (s *kernel) writeStatuses(q *request,
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
func (s *kernel) getCombinedStatus(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	ctx := q.r.Context()
	cs, err := s.content.CombinedStatus(ctx, q.repo, q.var_("ref"), opts)
	if err != nil {
		return err
	}
	repo, err := s.renderRepo(ctx, q.repo)
	if err != nil {
		return err
	}
	commitURL := s.repoAPIURL(q.repo) + "/commits/" + url.PathEscape(cs.SHA)
	s.setPaging(q.w, q.r, opts, cs.Total)
	q.json(http.StatusOK, combinedStatusDTO{
		State: string(cs.State), SHA: cs.SHA, TotalCount: cs.Total,
		Statuses:   s.toCommitStatuses(q.caller, q.repo, cs.StatusPage),
		Repository: repo, CommitURL: commitURL, URL: commitURL + "/status",
	})
	return nil
}
