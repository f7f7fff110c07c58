package mirrors

import (
	"context"

	"github.com/depothq/depot/ports"
)

// Overdue counts the mirrors whose ticks RequeueOverdue queued again.
type Overdue struct {
	Pulls, Pushes int
}

// RequeueOverdue is Gitea's update_mirrors over Depot's ticks: it queues
// again the tick of each of up to limit pull mirrors and limit push mirrors
// whose scheduled sync is overdue, for the instant the mirror is scheduled
// at. A tick still queued for that instant keeps its key, so nothing is
// doubled; one that was lost (the job failed for good, or a restore left
// the row behind its jobs) is queued anew, runs at once, syncs and
// schedules the next.
func (s *Service) RequeueOverdue(ctx context.Context, limit int) (Overdue, error) {
	var done Overdue
	now := s.clock.Now()
	err := s.inTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		done = Overdue{}
		pulls, err := tx.Mirrors.Due(ctx, now, limit)
		if err != nil {
			return err
		}
		for _, m := range pulls {
			if _, err := tx.Jobs.Enqueue(ctx, pullTick(m.RepoID, m.NextUpdate)); err != nil {
				return err
			}
			done.Pulls++
		}
		pushes, err := tx.PushMirrors.Due(ctx, now, limit)
		if err != nil {
			return err
		}
		for _, m := range pushes {
			if _, err := tx.Jobs.Enqueue(ctx, pushTick(m.ID, m.NextUpdate)); err != nil {
				return err
			}
			done.Pushes++
		}
		return nil
	})
	return done, err
}
