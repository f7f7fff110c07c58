package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000010, frozen once released: the job claim's index of
// jobs without a queue.
//
// A claim takes each queue's head (found by a skip scan of
// idx_jobs_queue_id, one probe per queue) and the due jobs that belong to
// no queue. Those were found through idx_jobs_state_run_at, whose range of
// due pending jobs also holds every job waiting in a queue: a backlog of
// queued deliveries made each claim read all of it. This index holds only
// the unqueued jobs, ordered as a claim takes them.

func up000010(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateIndex().Table("jobs").Index("idx_jobs_unqueued").
		Column("kind", "state", "run_at", "id").Where("queue = ''").IfNotExists().Exec(ctx)
	return err
}

func down000010(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropIndex().Index("idx_jobs_unqueued").IfExists().Exec(ctx)
	return err
}
