package issues

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Locks are the use cases of locking issues' conversations.
type Locks struct{ *Service }

// Locks returns the lock use cases.
func (s *Service) Locks() Locks { return Locks{s} }

// Set locks (with a reason) or unlocks an issue, recording a lock or
// unlock event. It reports false when the issue already was in that state
// (Gitea's 208). The route lets only repository administrators in.
func (s Locks) Set(ctx context.Context, a *repos.Access, index int64, lock bool, reason string) (bool, error) {
	if lock {
		if err := issue.CheckLockReason(reason); err != nil {
			return false, err
		}
	}
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return false, err
	}
	changed := false
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil || cur.IsLocked == lock {
			return err
		}
		cur.IsLocked, changed = lock, true
		if err := tx.Issues.Update(ctx, cur); err != nil {
			return err
		}
		typ := issue.CommentUnlock
		if lock {
			typ = issue.CommentLock
		}
		return timelineEvent(ctx, tx, cur, typ, a.Caller.UserID(), s.clock.Now(), func(c *issue.Comment) { c.Content = reason })
	})
	return changed, err
}
