package issues

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// PinIssue pins an issue last among its repository's pinned issues (or
// pull requests), with a pin event; pinning a pinned issue changes
// nothing, and a pin beyond issue.MaxPinned is Gitea's 400.
func (s *Service) PinIssue(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil || cur.PinOrder > 0 {
			return err
		}
		pinned, err := tx.IssueRelations.Pinned(ctx, cur.RepoID, cur.IsPull)
		if err != nil {
			return err
		}
		if err := issue.CheckNewPin(len(pinned)); err != nil {
			return err
		}
		if _, err := tx.IssueRelations.Pin(ctx, cur.ID); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, cur, issue.CommentPin, a.Caller.UserID(), s.clock.Now(), nil)
	})
}

// UnpinIssue unpins an issue, with an unpin event; the other pinned issues
// keep dense positions. Unpinning an unpinned issue changes nothing.
func (s *Service) UnpinIssue(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil || cur.PinOrder == 0 {
			return err
		}
		if err := tx.IssueRelations.Unpin(ctx, cur.ID); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, cur, issue.CommentUnpin, a.Caller.UserID(), s.clock.Now(), nil)
	})
}

// MovePin moves a pinned issue to position (past the end means last); 404
// when the issue is not pinned.
func (s *Service) MovePin(ctx context.Context, a *repos.Access, index int64, position int) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	if _, err := issue.PinPosition(position, 1); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.IssueRelations.MovePin(ctx, i.ID, position)
	})
}

// PinnedIssues lists the repository's pinned issues (or pull requests) in
// pin order.
func (s *Service) PinnedIssues(ctx context.Context, a *repos.Access, isPull bool) ([]*issue.Issue, error) {
	ids, err := s.stores.IssueRelations.Pinned(ctx, a.Repo.ID, isPull)
	if err != nil || len(ids) == 0 {
		return []*issue.Issue{}, err
	}
	return s.inOrder(ctx, ids)
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

// NewPinAllowed reports whether one more issue and one more pull request
// may be pinned in the repository.
func (s *Service) NewPinAllowed(ctx context.Context, a *repos.Access) (issues, pulls bool, err error) {
	pi, err := s.stores.IssueRelations.Pinned(ctx, a.Repo.ID, false)
	if err != nil {
		return false, false, err
	}
	pp, err := s.stores.IssueRelations.Pinned(ctx, a.Repo.ID, true)
	if err != nil {
		return false, false, err
	}
	return issue.CheckNewPin(len(pi)) == nil, issue.CheckNewPin(len(pp)) == nil, nil
}
