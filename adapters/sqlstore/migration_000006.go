package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000006, frozen once released: the durable job queue shared
// by webhook deliveries, mirror syncs and later background work.
//
// A job is pending (due at run_at), running (leased to lease_owner until
// lease_until) or failed (given up on, kept for the administrator); a
// finished job is deleted, so the table stays as small as the backlog.

// m000006Job is one queued job. queue and dedup are empty strings when
// unused rather than NULL, so that the indexes below can compare them
// plainly on both backends. payload is the handler's opaque input (bytea on
// Postgres, BLOB on SQLite).
type m000006Job struct {
	bun.BaseModel `bun:"table:jobs"`

	ID         int64     `bun:"id,pk,autoincrement"`
	Kind       string    `bun:"kind,type:varchar(64),notnull"`
	Queue      string    `bun:"queue,notnull,default:''"`
	Dedup      string    `bun:"dedup,notnull,default:''"`
	Payload    []byte    `bun:"payload,notnull"`
	State      string    `bun:"state,type:varchar(16),notnull"`
	Attempts   int       `bun:"attempts,notnull,default:0"`
	RunAt      time.Time `bun:"run_at,notnull"`
	LeaseOwner string    `bun:"lease_owner,notnull,default:''"`
	LeaseUntil time.Time `bun:"lease_until,nullzero"`
	LastError  string    `bun:"last_error,notnull,default:''"`
	Created    time.Time `bun:"created,nullzero"`
}

// m000006Indexes serve the claim: (state, run_at) finds due pending jobs and
// expired running ones; (queue, id) over the unfinished queued jobs gives
// each queue's head (its lowest id) without reading finished or failed
// rows or the many jobs that have no queue. The partial unique
// index makes a dedup key name at most one unfinished job of a kind, so a
// concurrent Enqueue of the same key cannot slip past a check; finished
// (deleted) and failed jobs release the key.
var m000006Indexes = []struct {
	name    string
	unique  bool
	columns []string
	where   string
}{
	{name: "idx_jobs_state_run_at", columns: []string{"state", "run_at"}},
	{name: "idx_jobs_queue_id", columns: []string{"queue", "id"},
		where: "queue <> '' AND state IN ('pending', 'running')"},
	{name: "idx_jobs_kind_dedup", unique: true, columns: []string{"kind", "dedup"},
		where: "dedup <> '' AND state IN ('pending', 'running')"},
}

func up000006(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000006Job)(nil)).IfNotExists().Exec(ctx); err != nil {
		return err
	}
	for _, ix := range m000006Indexes {
		q := tx.NewCreateIndex().Table("jobs").Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if ix.where != "" {
			q = q.Where(ix.where)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000006(ctx context.Context, tx bun.Tx) error {
	// Dropping the table drops its indexes on both backends.
	_, err := tx.NewDropTable().Model((*m000006Job)(nil)).IfExists().Exec(ctx)
	return err
}
