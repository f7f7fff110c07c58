package issues

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// recordReferences adds the timeline references that text (the body of
// issue from, or of its comment commentID when non-zero) makes to other
// issues ("#12", "owner/repo#3", "!4" for a pull request), inside tx: one
// issue_ref (pull_ref from a pull request, comment_ref from a comment)
// event on each referenced issue the doer may read, never on from itself
// and never twice for the same text, so editing it adds only the new
// references. Mentions ("@user") are found by issue.FindReferences too, for
// notifications later.
func (s *Service) recordReferences(ctx context.Context, tx ports.Stores, repo *repository.Repository,
	from *issue.Issue, commentID int64, text string, doerID int64) error {
	refs := issue.FindReferences(text)
	if len(refs.Issues) == 0 || doerID <= 0 {
		return nil
	}
	doer, err := tx.Users.GetByID(ctx, doerID)
	if err != nil {
		return err
	}
	// The doer's own rights decide what it may reference, whatever
	// credential wrote the text.
	caller := auth.Caller{User: doer, Method: auth.MethodBasic}
	existing, err := tx.Comments.RefsFrom(ctx, from.ID, commentID)
	if err != nil {
		return err
	}
	done := map[int64]bool{from.ID: true}
	for _, c := range existing {
		done[c.IssueID] = true
	}
	typ := issue.CommentIssueRef
	if from.IsPull {
		typ = issue.CommentPullRef
	}
	if commentID != 0 {
		typ = issue.CommentCommentRef
	}
	opened := map[string]*repos.Access{}
	now := s.timestamp()
	for _, ref := range refs.Issues {
		target, err := s.referencedIssue(ctx, tx, caller, repo, ref, opened)
		if err != nil {
			return err
		}
		if target == nil || done[target.ID] {
			continue
		}
		done[target.ID] = true
		if err := tx.Comments.Create(ctx, &issue.Comment{Type: typ, IssueID: target.ID, RepoID: target.RepoID,
			PosterID: doerID, RefRepoID: from.RepoID, RefIssueID: from.ID, RefCommentID: commentID,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}

// referencedIssue resolves ref for caller: nil when the repository or the
// issue does not exist, or the caller may not read it.
func (s *Service) referencedIssue(ctx context.Context, tx ports.Stores, caller auth.Caller, repo *repository.Repository,
	ref issue.IssueReference, opened map[string]*repos.Access) (*issue.Issue, error) {
	owner, name := ref.Owner, ref.Repo
	if owner == "" {
		owner, name = repo.Owner.Name, repo.Name
	}
	key := strings.ToLower(owner + "/" + name)
	a, ok := opened[key]
	if !ok {
		var err error
		a, err = s.repos.Open(ctx, caller, owner, name)
		if err != nil && !isMissingRepo(err) {
			return nil, err
		}
		opened[key] = a // nil for a repository the caller cannot reach
	}
	if a == nil {
		return nil, nil
	}
	i, err := tx.Issues.GetByIndex(ctx, a.Repo.ID, ref.Index)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if (ref.Pull && !i.IsPull) || !canRead(a, i) {
		return nil, nil
	}
	return i, nil
}

// isMissingRepo reports whether opening a referenced repository failed
// because it is absent, hidden or moved (a reference by an old name is
// not followed).
func isMissingRepo(err error) bool {
	var moved *repos.RenamedError
	var renamed *users.RenamedError
	return errors.Is(err, errs.ErrNotFound) || errors.As(err, &moved) || errors.As(err, &renamed)
}
