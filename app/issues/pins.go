package issues

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Pins are the use cases of pinning issues (and pull requests) in their
// repository.
type Pins struct{ *Service }

// Pins returns the pin use cases.
func (s *Service) Pins() Pins { return Pins{s} }

// Pin pins an issue last among its repository's pinned issues (or
// pull requests), with a pin event; pinning a pinned issue changes
// nothing, and a pin beyond issue.MaxPinned is Gitea's 400.
func (s Pins) Pin(ctx context.Context, a *repos.Access, index int64) error {
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

// Unpin unpins an issue, with an unpin event; the other pinned issues
// keep dense positions. Unpinning an unpinned issue changes nothing.
func (s Pins) Unpin(ctx context.Context, a *repos.Access, index int64) error {
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

// Move moves a pinned issue to position (past the end means last); 404
// when the issue is not pinned.
func (s Pins) Move(ctx context.Context, a *repos.Access, index int64, position int) error {
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

// List lists the repository's pinned issues (or pull requests) in
// pin order.
func (s Pins) List(ctx context.Context, a *repos.Access, isPull bool) ([]*issue.Issue, error) {
	ids, err := s.stores.IssueRelations.Pinned(ctx, a.Repo.ID, isPull)
	if err != nil || len(ids) == 0 {
		return []*issue.Issue{}, err
	}
	return s.inOrder(ctx, ids)
}

// NewAllowed reports whether one more issue and one more pull request
// may be pinned in the repository.
func (s Pins) NewAllowed(ctx context.Context, a *repos.Access) (issues, pulls bool, err error) {
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
