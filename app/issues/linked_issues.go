package issues

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
)

// LinkedIssue is an issue with the repository it lives in, for listings
// that may cross repositories.
type LinkedIssue struct {
	Issue *issue.Issue
	Repo  *repository.Repository
}

// LinkedIssues loads these issues in order with their repositories, keeping
// the ones the caller may read.
func (s *Service) LinkedIssues(ctx context.Context, c auth.Caller, ids []int64) ([]LinkedIssue, error) {
	return s.readable(ctx, c, map[int64]*repos.Access{}, ids)
}

// readable loads these issues in order, keeping the ones the caller may
// read; access caches the caller's access per repository id.
func (s *Service) readable(ctx context.Context, c auth.Caller, access map[int64]*repos.Access, ids []int64) ([]LinkedIssue, error) {
	list, err := s.inOrder(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]LinkedIssue, 0, len(list))
	for _, i := range list {
		ra, seen := access[i.RepoID]
		if !seen {
			ra, err = s.repos.OpenByID(ctx, c, i.RepoID)
			if errors.Is(err, errs.ErrNotFound) {
				ra, err = nil, nil
			}
			if err != nil {
				return nil, err
			}
			access[i.RepoID] = ra
		}
		if ra != nil && canRead(ra, i) {
			out = append(out, LinkedIssue{Issue: i, Repo: ra.Repo})
		}
	}
	return out, nil
}

// inOrder loads these issues in one query and returns them in ids' order.
func (s *Service) inOrder(ctx context.Context, ids []int64) ([]*issue.Issue, error) {
	found, err := s.stores.Issues.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*issue.Issue, len(found))
	for _, i := range found {
		byID[i.ID] = i
	}
	out := make([]*issue.Issue, 0, len(ids))
	for _, id := range ids {
		if i := byID[id]; i != nil {
			out = append(out, i)
		}
	}
	return out, nil
}

// LinkedViews builds the views of linked issues (each with its own
// repository) in a fixed number of queries, for rendering.
func (s *Service) LinkedViews(ctx context.Context, list []LinkedIssue) ([]*IssueView, error) {
	issues := make([]*issue.Issue, len(list))
	seen := map[int64]bool{}
	var repoList []*repository.Repository
	for i, l := range list {
		issues[i] = l.Issue
		if !seen[l.Repo.ID] {
			seen[l.Repo.ID] = true
			repoList = append(repoList, l.Repo)
		}
	}
	return s.Views(ctx, s.stores, repoList, issues)
}
