package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.JobStore = (*JobStore)(nil)

var jobMapping = mapping{op: "job", notFound: "job not found"}

// errLeaseLost is what Complete, Retry, Fail and Release return when the job is no
// longer leased to the caller: it finished, or its lease expired and another
// worker took it over. The caller's outcome no longer counts.
var errLeaseLost = errs.Conflict("job is not leased to this owner")

// jobRow is the query model of jobs (migration 000006).
type jobRow struct {
	bun.BaseModel `bun:"table:jobs,alias:j"`

	ID         int64     `bun:"id,pk,autoincrement"`
	Kind       string    `bun:"kind"`
	Queue      string    `bun:"queue"`
	Dedup      string    `bun:"dedup"`
	Payload    []byte    `bun:"payload"`
	State      string    `bun:"state"`
	Attempts   int       `bun:"attempts"`
	RunAt      time.Time `bun:"run_at"`
	LeaseOwner string    `bun:"lease_owner"`
	LeaseUntil time.Time `bun:"lease_until,nullzero"`
	LastError  string    `bun:"last_error"`
	Created    time.Time `bun:"created,nullzero"`
}

func (r *jobRow) toDomain() *ports.Job {
	return &ports.Job{
		ID: r.ID, Kind: r.Kind, Queue: r.Queue, Dedup: r.Dedup, Payload: r.Payload,
		Attempts: r.Attempts, RunAt: domainTime(r.RunAt), LastError: r.LastError,
		Created: domainTime(r.Created),
	}
}

// JobStore is the SQL implementation of ports.JobStore.
type JobStore struct{ c conn }

// Enqueue inserts a pending job. The dedup key is enforced by the partial
// unique index, so two concurrent Enqueues of one key cannot both insert:
// the loser's INSERT does nothing (on Postgres after waiting for the
// winner's commit) and it reads the winner's id instead.
func (s *JobStore) Enqueue(ctx context.Context, j ports.NewJob) (int64, error) {
	now := dbTime(time.Now())
	runAt := dbTime(j.RunAt)
	if runAt.IsZero() {
		runAt = now
	}
	payload := j.Payload
	if payload == nil {
		payload = []byte{}
	}
	db := s.c.w(ctx)
	if j.Dedup == "" {
		if id, ok, err := s.enqueuePrepared(ctx, db, j.Kind, j.Queue, payload, runAt, now); ok {
			return id, jobMapping.mapErr(err)
		}
	}
	// The holder of the key may finish between the failed insert and the
	// read; a few rounds settle that race.
	for range 3 {
		row := &jobRow{
			Kind: j.Kind, Queue: j.Queue, Dedup: j.Dedup, Payload: payload,
			State: string(ports.JobPending), RunAt: runAt, Created: now,
		}
		ins := db.NewInsert().Model(row).ExcludeColumn("id", "lease_until").Returning("id")
		if j.Dedup == "" {
			if _, err := ins.Exec(ctx); err != nil {
				return 0, jobMapping.mapErr(err)
			}
			return row.ID, nil
		}
		res, err := ins.On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return 0, jobMapping.mapErr(err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 1 {
			return row.ID, nil
		}
		var id int64
		err = db.NewSelect().Model((*jobRow)(nil)).Column("id").
			Where("j.kind = ?", j.Kind).Where("j.dedup = ?", j.Dedup).
			Where("j.state IN (?)", bun.In(unfinishedStates)).Scan(ctx, &id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, jobMapping.mapErr(err)
		}
	}
	return 0, jobMapping.mapErr(errors.New("dedup key kept changing hands"))
}

// unfinishedStates are the states that hold a dedup key and block a queue;
// they match the partial index's predicate in migration 000006.
var unfinishedStates = []string{string(ports.JobPending), string(ports.JobRunning)}

// claimSQL leases due jobs in one statement, so a claim is atomic on both
// backends: SQLite runs it on its single writer; on Postgres the candidates
// are locked FOR UPDATE SKIP LOCKED ({lock}), so concurrent claimers pass over
// each other's rows instead of waiting or taking them twice, and a row
// another claimer changed since this statement's snapshot is re-checked
// against the due conditions before it is taken.
//
// A queued job is a candidate only while it is its queue's head, the oldest
// unfinished job of the queue, so a queue runs one job at a time in id
// order, also while its head backs off. The claim must not get slower with
// the backlog behind the heads (a receiver that is down leaves a long one),
// so it reads no more than the candidates:
//   - queues walks the distinct queues with unfinished jobs by a skip scan
//     of the partial (queue, id) index, one probe per queue, and each
//     queue's head is one more probe;
//   - the due jobs without a queue come from their own partial index
//     (migration 000010) in claim order, at most limit of them, and the
//     expired leases among them from the same index;
//   - due keeps the candidates of the kinds asked for that are due, in
//     claim order: the heads of the batches;
//   - followers are, per queue head taken, the next batch-1 unfinished jobs
//     of its queue (one range of the same index), each with the count of
//     jobs up to it that may not be taken (not due, another kind): only
//     the run before the first of those joins the head's batch, so a batch
//     never skips a job of its queue.
//
// Only a head can bring followers, and a head is taken by one claimer, so
// two claimers never share a follower; the update re-checks that each row
// is still due, which on Postgres is evaluated on the row's latest version.
//
// SQLite's planner, without statistics (nothing runs ANALYZE), takes the
// (state, run_at) index for these probes, which reads the whole backlog
// each time; {h}, {u} and {j} pin the indexes on SQLite (claimHints).
const claimSQL = `WITH RECURSIVE queues(q) AS (
	SELECT (SELECT MIN(h.queue) FROM jobs AS h {h} WHERE h.queue <> '' AND h.state IN ('pending', 'running'))
	UNION ALL
	SELECT (SELECT MIN(h.queue) FROM jobs AS h {h}
		WHERE h.queue <> '' AND h.state IN ('pending', 'running') AND h.queue > queues.q)
	FROM queues WHERE queues.q IS NOT NULL
),
candidates(id) AS (
	SELECT (SELECT MIN(h.id) FROM jobs AS h {h}
		WHERE h.queue = queues.q AND h.queue <> '' AND h.state IN ('pending', 'running'))
	FROM queues WHERE queues.q IS NOT NULL
	UNION ALL
	SELECT id FROM (SELECT u.id FROM jobs AS u {u}
		WHERE u.queue = '' AND u.kind IN (?) AND u.state = 'pending' AND u.run_at <= ?
		ORDER BY u.run_at, u.id LIMIT ?) AS unqueued
	UNION ALL
	SELECT u.id FROM jobs AS u {u} WHERE u.queue = '' AND u.kind IN (?) AND u.state = 'running' AND u.lease_until <= ?
),
due AS MATERIALIZED (
	SELECT j.id, j.queue FROM jobs AS j {j}
	WHERE j.id IN (SELECT id FROM candidates)
	AND j.kind IN (?)
	AND ((j.state = 'pending' AND j.run_at <= ?) OR (j.state = 'running' AND j.lease_until <= ?))
	ORDER BY j.run_at, j.id
	LIMIT ?
	{lock}
),
followers(id, blocked) AS (
	SELECT f.id, SUM(CASE WHEN f.kind IN (?)
		AND ((f.state = 'pending' AND f.run_at <= ?) OR (f.state = 'running' AND f.lease_until <= ?))
		THEN 0 ELSE 1 END) OVER (PARTITION BY f.queue ORDER BY f.id)
	FROM due JOIN jobs AS f {j} ON f.id IN (SELECT x.id FROM jobs AS x {h}
		WHERE x.queue = due.queue AND x.queue <> '' AND x.state IN ('pending', 'running') AND x.id > due.id
		ORDER BY x.id LIMIT ?)
)
UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?
WHERE id IN (SELECT id FROM due UNION ALL SELECT id FROM followers WHERE blocked = 0)
AND kind IN (?) AND ((state = 'pending' AND run_at <= ?) OR (state = 'running' AND lease_until <= ?))
RETURNING id, kind, queue, dedup, payload, state, attempts, run_at, lease_owner, lease_until, last_error, created`

// claimHints fills in claimSQL for SQLite: the queue probes on the queue
// index, the unqueued jobs on theirs, the candidates by rowid.
var claimHints = strings.NewReplacer("{h}", "INDEXED BY idx_jobs_queue_id", "{u}", "INDEXED BY idx_jobs_unqueued",
	"{j}", "NOT INDEXED", "{lock}", "")

// claimLocks fills in claimSQL for Postgres, whose planner has statistics:
// no hints, and the candidates locked.
var claimLocks = strings.NewReplacer("{h}", "", "{u}", "", "{j}", "", "{lock}", "FOR UPDATE OF j SKIP LOCKED")

// Claim leases up to limit due jobs of kinds to owner until now+lease: the
// heads of batches of one.
func (s *JobStore) Claim(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration, limit int) ([]*ports.Job, error) {
	batches, err := s.ClaimBatches(ctx, owner, kinds, now, lease, limit, 1)
	if err != nil {
		return nil, err
	}
	out := make([]*ports.Job, 0, len(batches))
	for _, b := range batches {
		out = append(out, b...)
	}
	return out, nil
}

// ClaimBatches leases up to limit batches of due jobs of kinds to owner
// until now+lease, each a queue head or an unqueued job and, for a head, up
// to batch-1 jobs that follow it in its queue.
func (s *JobStore) ClaimBatches(ctx context.Context, owner string, kinds []string, now time.Time, lease time.Duration,
	limit, batch int) ([][]*ports.Job, error) {
	if len(kinds) == 0 || limit <= 0 {
		return nil, nil
	}
	follow := max(batch, 1) - 1
	now = dbTime(now)
	started := time.Now()
	var rows []jobRow
	if st, ok := s.c.claimStmt(ctx, len(kinds)); ok {
		var err error
		if rows, err = s.claimPrepared(ctx, st, owner, kinds, now, lease, limit, follow); err != nil {
			return nil, jobMapping.mapErr(s.c.owner.waitCause(err, true, started))
		}
	} else {
		db := s.c.w(ctx)
		hints := claimHints
		if db.Dialect().Name() == dialect.PG {
			hints = claimLocks
		}
		in := bun.In(kinds)
		q := db.NewRaw(hints.Replace(claimSQL), in, now, limit, in, now, in, now, now, limit, in, now, now, follow,
			owner, now.Add(lease), in, now, now)
		if err := q.Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, jobMapping.mapErr(s.c.owner.waitCause(err, true, started))
		}
	}
	return batchesOf(rows), nil
}

// batchesOf groups claimed rows (RETURNING gives no order) into batches:
// each unqueued job alone, each queue's jobs in id order, the batches in
// claim order of their first jobs.
func batchesOf(rows []jobRow) [][]*ports.Job {
	slices.SortFunc(rows, func(a, b jobRow) int { return cmp.Compare(a.ID, b.ID) })
	var out [][]*ports.Job
	at := map[string]int{}
	for i := range rows {
		j := rows[i].toDomain()
		if j.Queue != "" {
			if k, ok := at[j.Queue]; ok {
				out[k] = append(out[k], j)
				continue
			}
			at[j.Queue] = len(out)
		}
		out = append(out, []*ports.Job{j})
	}
	slices.SortStableFunc(out, func(a, b []*ports.Job) int {
		if c := a[0].RunAt.Compare(b[0].RunAt); c != 0 {
			return c
		}
		return cmp.Compare(a[0].ID, b[0].ID)
	})
	return out
}

// leased narrows an update to the job while owner holds it.
func leased(q *bun.UpdateQuery, id int64, owner string) *bun.UpdateQuery {
	return q.Where("id = ?", id).Where("state = ?", string(ports.JobRunning)).Where("lease_owner = ?", owner)
}

// The settling writes below are each one statement that many workers make
// at once; on SQLite they share commits (conn.grouped).

// Complete deletes a job its owner finished.
func (s *JobStore) Complete(ctx context.Context, id int64, owner string) error {
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewDelete().Model((*jobRow)(nil)).
			Where("id = ?", id).Where("state = ?", string(ports.JobRunning)).Where("lease_owner = ?", owner).Exec(ctx)
		return leaseAffected(res, err)
	})
}

// ReleaseDedup frees the dedup key of a running job.
func (s *JobStore) ReleaseDedup(ctx context.Context, id int64) error {
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		_, err := db.NewUpdate().Model((*jobRow)(nil)).Set("dedup = ''").
			Where("id = ?", id).Where("state = ?", string(ports.JobRunning)).Exec(ctx)
		return jobMapping.mapErr(err)
	})
}

// Retry makes a job its owner failed pending again at runAt.
func (s *JobStore) Retry(ctx context.Context, id int64, owner string, runAt time.Time, lastError string) error {
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		q := db.NewUpdate().Model((*jobRow)(nil)).
			Set("state = ?", string(ports.JobPending)).Set("run_at = ?", dbTime(runAt)).
			Set("lease_owner = ''").Set("lease_until = NULL").Set("last_error = ?", lastError)
		res, err := leased(q, id, owner).Exec(ctx)
		return leaseAffected(res, err)
	})
}

// Fail marks a job its owner gives up on as failed, which frees its queue
// and its dedup key.
func (s *JobStore) Fail(ctx context.Context, id int64, owner string, lastError string) error {
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		q := db.NewUpdate().Model((*jobRow)(nil)).
			Set("state = ?", string(ports.JobFailed)).
			Set("lease_owner = ''").Set("lease_until = NULL").Set("last_error = ?", lastError)
		res, err := leased(q, id, owner).Exec(ctx)
		return leaseAffected(res, err)
	})
}

// Release gives a claimed job back: pending, its claim's attempt undone.
// Its run_at is left as it was, which had come when it was claimed.
func (s *JobStore) Release(ctx context.Context, id int64, owner string) error {
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		q := db.NewUpdate().Model((*jobRow)(nil)).
			Set("state = ?", string(ports.JobPending)).Set("attempts = attempts - 1").
			Set("lease_owner = ''").Set("lease_until = NULL")
		res, err := leased(q, id, owner).Exec(ctx)
		return leaseAffected(res, err)
	})
}

// Settle records the outcomes of a batch in one transaction (on SQLite in
// the next group commit): one statement for the completed jobs, one for
// the released ones, one per retried or failed job (a batch stops at its
// first retry, so there are few).
func (s *JobStore) Settle(ctx context.Context, owner string, outs []ports.JobOutcome) error {
	if len(outs) == 0 {
		return nil
	}
	var done, released []int64
	var others []ports.JobOutcome
	for _, o := range outs {
		switch o.Kind {
		case ports.JobComplete:
			done = append(done, o.ID)
		case ports.JobRelease:
			released = append(released, o.ID)
		case ports.JobRetry, ports.JobFail:
			others = append(others, o)
		default:
			return errs.Invalid("job outcome", "kind")
		}
	}
	// The jobs settled; fewer than outs means some lease was lost, which
	// does not undo the others.
	var n int64
	err := s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		n = 0
		return inTxOf(ctx, db, func(ctx context.Context, tx bun.IDB) error {
			count := func(res sql.Result, err error) error {
				if err != nil {
					return jobMapping.mapErr(err)
				}
				k, err := res.RowsAffected()
				if err != nil {
					return jobMapping.mapErr(err)
				}
				n += k
				return nil
			}
			running := func(q *bun.UpdateQuery, ids []int64) *bun.UpdateQuery {
				return q.Where("id IN (?)", bun.In(ids)).Where("state = ?", string(ports.JobRunning)).
					Where("lease_owner = ?", owner)
			}
			if len(done) > 0 {
				res, err := tx.NewDelete().Model((*jobRow)(nil)).Where("id IN (?)", bun.In(done)).
					Where("state = ?", string(ports.JobRunning)).Where("lease_owner = ?", owner).Exec(ctx)
				if err := count(res, err); err != nil {
					return err
				}
			}
			if len(released) > 0 {
				q := tx.NewUpdate().Model((*jobRow)(nil)).
					Set("state = ?", string(ports.JobPending)).Set("attempts = attempts - 1").
					Set("lease_owner = ''").Set("lease_until = NULL")
				if err := count(running(q, released).Exec(ctx)); err != nil {
					return err
				}
			}
			for _, o := range others {
				q := tx.NewUpdate().Model((*jobRow)(nil)).
					Set("lease_owner = ''").Set("lease_until = NULL").Set("last_error = ?", o.LastError)
				if o.Kind == ports.JobRetry {
					q = q.Set("state = ?", string(ports.JobPending)).Set("run_at = ?", dbTime(o.RunAt))
				} else {
					q = q.Set("state = ?", string(ports.JobFailed))
				}
				if err := count(running(q, []int64{o.ID}).Exec(ctx)); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err == nil && n < int64(len(outs)) {
		return errLeaseLost
	}
	return err
}

// inTxOf runs fn on db when it is a transaction already (a group commit's
// savepoint, the ctx's transaction), else in a new one.
func inTxOf(ctx context.Context, db bun.IDB, fn func(ctx context.Context, tx bun.IDB) error) error {
	if _, ok := db.(bun.Tx); ok {
		return fn(ctx, db)
	}
	return db.RunInTx(ctx, nil, func(_ context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

func leaseAffected(res sql.Result, err error) error {
	if err != nil {
		return jobMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return jobMapping.mapErr(err)
	}
	if n == 0 {
		return errLeaseLost
	}
	return nil
}

// Get returns a job in any state.
func (s *JobStore) Get(ctx context.Context, id int64) (*ports.Job, ports.JobState, error) {
	var row jobRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where("j.id = ?", id).Scan(ctx); err != nil {
		return nil, "", jobMapping.mapErr(err)
	}
	return row.toDomain(), ports.JobState(row.State), nil
}

// insertJobSQL is Enqueue's statement on SQLite's writer for a job without
// a dedup key: an event's transaction (an issue opened) queues one.
const insertJobSQL = `INSERT INTO jobs (kind, queue, dedup, payload, state, attempts, run_at, lease_owner, last_error, created)
	VALUES (?, ?, '', ?, ?, 0, ?, '', '', ?) RETURNING id`

// enqueuePrepared inserts the job through the writer's prepared statement
// when the call runs in one of its transactions: ok false elsewhere.
func (s *JobStore) enqueuePrepared(ctx context.Context, db bun.IDB, kind, queue string, payload []byte,
	runAt, now time.Time) (id int64, ok bool, err error) {
	tx, inTx := db.(bun.Tx)
	if !inTx {
		return 0, false, nil
	}
	ins, ok := s.c.writerStmt(ctx, tx, insertJobSQL)
	if !ok {
		return 0, false, nil
	}
	defer ins.done()
	err = ins.queryRow(ctx, kind, queue, payload, string(ports.JobPending), ins.timeArg(runAt), ins.timeArg(now)).Scan(&id)
	return id, true, err
}
