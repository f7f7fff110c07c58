package issues

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// ListInput is the query of GET R/issues.
type ListInput struct {
	Filter
	// CreatedBy, AssignedBy and MentionedBy are user names.
	CreatedBy, AssignedBy, MentionedBy string
	ports.ListOptions
}

// List returns one page of the repository's issues and pull requests
// matching in, and the total. Unknown label and milestone names are
// discarded, as Gitea does; an unknown user name matches nothing.
func (s Issues) List(ctx context.Context, a *repos.Access, in ListInput) ([]*IssueView, int64, error) {
	labels, err := filterNames("labels", in.Labels)
	if err != nil {
		return nil, 0, err
	}
	q := ports.IssueQuery{RepoIDs: []int64{a.Repo.ID}, State: stateFilter(in.State), Keyword: in.Keyword,
		LabelNames: labels, Since: in.Since, Before: in.Before, ListOptions: in.ListOptions}
	issues, pulls := canRead(a, &issue.Issue{}), canRead(a, &issue.Issue{IsPull: true})
	switch {
	case in.Type == "issues" || in.Type == "pulls":
		isPull := in.Type == "pulls"
		if !canRead(a, &issue.Issue{IsPull: isPull}) {
			return nil, 0, errs.NotFound("issues or pull requests are disabled or not readable")
		}
		q.IsPull = &isPull
	case issues && !pulls:
		q.IsPull = new(bool)
	case pulls && !issues:
		t := true
		q.IsPull = &t
	}
	ids, err := s.milestoneIDs(ctx, a.Repo, in.Milestones)
	if err != nil {
		return nil, 0, err
	}
	q.MilestoneIDs = ids
	for _, f := range []struct {
		name string
		id   *int64
	}{{in.CreatedBy, &q.PosterID}, {in.AssignedBy, &q.AssigneeID}, {in.MentionedBy, &q.MentionedID}} {
		if f.name == "" {
			continue
		}
		u, err := s.stores.Users.GetByName(ctx, f.name)
		if errors.Is(err, errs.ErrNotFound) {
			return []*IssueView{}, 0, nil
		}
		if err != nil {
			return nil, 0, err
		}
		*f.id = u.ID
	}
	list, total, err := s.stores.Issues.List(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.Views(ctx, s.stores, []*repository.Repository{a.Repo}, list)
	return views, total, err
}

// stateFilter reads Gitea's state parameter: anything but closed and all is open.
func stateFilter(s string) string {
	switch s {
	case "closed", "all":
		return s
	}
	return "open"
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// milestoneIDs resolves milestone titles (or, failing that, ids) of repo,
// discarding the unknown ones as Gitea does.
func (s Issues) milestoneIDs(ctx context.Context, repo *repository.Repository, refs []string) ([]int64, error) {
	refs, err := filterNames("milestones", refs)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, ref := range refs {
		m, err := s.stores.Milestones.GetByTitle(ctx, repo.ID, ref)
		if err == nil {
			out = append(out, m.ID)
			continue
		}
		if !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
		id, perr := strconv.ParseInt(ref, 10, 64)
		if perr != nil {
			continue
		}
		if m, err = s.stores.Milestones.Get(ctx, repo.ID, id); err == nil {
			out = append(out, m.ID)
		} else if !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
	}
	return out, nil
}
