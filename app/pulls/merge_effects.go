package pulls

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// maxClosingCommits bounds the merged commits whose messages are read for
// closing keywords.
const maxClosingCommits = 250

// closeReferencedIssues closes the issues that the pull request's body or
// the merged commits' messages name after a closing keyword ("fixes #3",
// "closes owner/repo#4"), as Gitea does after a merge: each as the merger,
// who must be allowed to close it there (the issue tracker decides, with
// its timeline and webhook events). It runs after the merge committed;
// what it cannot close is logged, never the merge's failure.
func (s *Service) closeReferencedIssues(ctx context.Context, base *repository.Repository, i *issue.Issue, doer *user.User,
	m mergedCommit) {
	texts := []string{i.Body}
	if m.baseBefore != "" {
		list, _, err := s.git.ListCommits(ctx, pathOf(base), ports.CommitListQuery{Ref: m.id, Not: m.baseBefore, SkipTotal: true},
			ports.ListOptions{Page: 1, Limit: maxClosingCommits})
		if err != nil {
			s.log.Warn("reading merged commits for closing keywords", "repo", base.ID, "err", err)
		}
		for _, c := range list {
			texts = append(texts, c.Message)
		}
	}
	seen := map[issue.IssueReference]bool{}
	caller := auth.Caller{User: doer}
	for _, text := range texts {
		for _, ref := range pull.ClosingReferences(text) {
			if seen[ref] || len(seen) >= pull.MaxClosingReferences {
				continue
			}
			seen[ref] = true
			owner, name := ref.Owner, ref.Repo
			if owner == "" {
				owner, name = base.Owner.Name, base.Name
			}
			if err := s.closeReference(ctx, caller, owner, name, ref.Index, i); err != nil {
				s.log.Info("not closing a referenced issue", "ref", owner+"/"+name+"#"+itoa(ref.Index), "err", err)
			}
		}
	}
}

// closeReference closes one referenced issue (not the merged pull request
// itself, nor another pull request).
func (s *Service) closeReference(ctx context.Context, caller auth.Caller, owner, name string, index int64, merged *issue.Issue) error {
	a, err := s.repos.Open(ctx, caller, owner, name)
	if err != nil {
		return err
	}
	target, err := s.stores.Issues.GetByIndex(ctx, a.Repo.ID, index)
	if err != nil {
		return err
	}
	if target.ID == merged.ID || target.IsPull || target.IsClosed {
		return nil
	}
	closed := string(issue.StateClosed)
	_, err = s.issues.Issues().Edit(ctx, a, index, issues.EditInput{State: &closed})
	if errors.Is(err, errs.ErrForbidden) {
		return errs.Forbidden("the merger may not close this issue")
	}
	return err
}
