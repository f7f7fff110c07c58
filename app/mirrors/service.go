// Package mirrors holds migrations (importing a repository from another Git
// server), pull mirrors and push mirrors.
//
// Syncs run as durable jobs (app/jobs): a pull mirror's row says when its
// next scheduled sync is due, and a tick job for that instant sits in the job
// table. When it runs it queues the sync and the tick of the next instant in
// one transaction, so the schedule is a self-renewing chain that survives
// restarts and is shared by every server process on one database; nothing
// is kept in memory. A tick whose instant no longer matches the row (the
// interval was edited) has been superseded and does nothing. Push mirrors
// work the same way.
package mirrors

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Job kinds of the mirror syncs.
const (
	KindPullSync = "mirror.sync"
	KindPushSync = "pushmirror.sync"
)

// syncTimeout bounds one fetch or push; the job lease is longer, so a slow
// sync is cut off before another worker may take the job over.
const (
	syncTimeout = 20 * time.Minute
	syncLease   = 30 * time.Minute
)

// Service runs the migration and mirror use cases.
type Service struct {
	stores  ports.Stores
	tx      ports.Transactor
	repos   *repos.Service
	git     ports.GitStorage
	content ports.GitContent
	remotes ports.GitRemotes
	out     ports.Outbound
	source  ports.MigrationSource
	box     ports.SecretBox
	secrets ports.SecretGenerator
	clock   ports.Clock
	jobs    *jobs.Runner
	// events hears of the refs each sync changed (feeds, webhooks).
	events ports.Events
	log    *slog.Logger
}

// NewService builds the mirror use cases, registers their job handlers and
// hooks the pull mirrors' schedule into repository edits.
func NewService(stores ports.Stores, tx ports.Transactor, rs *repos.Service, git ports.GitStorage,
	content ports.GitContent, remotes ports.GitRemotes, out ports.Outbound, source ports.MigrationSource, box ports.SecretBox,
	secrets ports.SecretGenerator, clock ports.Clock, runner *jobs.Runner, events ports.Events, log *slog.Logger) *Service {
	s := &Service{stores: stores, tx: tx, repos: rs, git: git, content: content, remotes: remotes, out: out,
		source: source, box: box, secrets: secrets, clock: clock, jobs: runner, events: events, log: log}
	opts := jobs.KindOptions{MaxAttempts: 3, Concurrency: 2, Lease: syncLease}
	runner.Handle(KindPullSync, opts, s.runPullSync)
	runner.Handle(KindPushSync, opts, s.runPushSync)
	rs.OnMirrorInterval(s.reschedulePull)
	return s
}

// syncPayload is a sync job's input.
type syncPayload struct {
	// ID is the repository's id (pull) or the push mirror's (push).
	ID int64 `json:"id"`
	// Due is the scheduled instant (Unix seconds) of a tick; 0 for the job
	// that does the work.
	Due int64 `json:"due,omitempty"`
}

// A mirror's jobs are of two sorts. A tick is due at a scheduled instant
// and keyed by it, so a tick can queue its successor while it still runs;
// it does no network work, only queues the work job and the next tick. The
// work job fetches or pushes; work jobs of one mirror share a queue, so they
// run one at a time, in order. A request for work while one waits adds
// nothing; while one runs (its key still held) a second one waits behind
// it, since the running one may have read the refs before the change that
// asked for the new one.
const againSuffix = "/again"

// tickJob is the tick of kind for id at the instant at.
func tickJob(kind, prefix string, id int64, at time.Time) ports.NewJob {
	p := syncPayload{ID: id, Due: at.Unix()}
	data, _ := json.Marshal(p) // two integers always encode
	return ports.NewJob{Kind: kind, Dedup: prefix + strconv.FormatInt(id, 10) + "@" + strconv.FormatInt(p.Due, 10),
		Payload: data, RunAt: at}
}

// enqueueWork queues, inside tx, the work job of kind for id (see above).
func enqueueWork(ctx context.Context, tx ports.Stores, kind, prefix string, id int64) error {
	data, _ := json.Marshal(syncPayload{ID: id})
	key := prefix + strconv.FormatInt(id, 10)
	j := ports.NewJob{Kind: kind, Queue: kind + ":" + strconv.FormatInt(id, 10), Dedup: key, Payload: data}
	held, err := tx.Jobs.Enqueue(ctx, j)
	if err != nil {
		return err
	}
	_, state, err := tx.Jobs.Get(ctx, held)
	if err != nil || state != ports.JobRunning {
		return errs.IgnoreNotFound(err) // a waiting job will see this change
	}
	j.Dedup = key + againSuffix
	_, err = tx.Jobs.Enqueue(ctx, j)
	return err
}

func pullTick(repoID int64, at time.Time) ports.NewJob {
	return tickJob(KindPullSync, "repo:", repoID, at)
}
func pushTick(id int64, at time.Time) ports.NewJob {
	return tickJob(KindPushSync, "pushmirror:", id, at)
}

func enqueuePull(ctx context.Context, tx ports.Stores, repoID int64) error {
	return enqueueWork(ctx, tx, KindPullSync, "repo:", repoID)
}

func enqueuePush(ctx context.Context, tx ports.Stores, id int64) error {
	return enqueueWork(ctx, tx, KindPushSync, "pushmirror:", id)
}

// decodePayload reads a job's input; one that cannot be read never will be.
func decodePayload(j *ports.Job) (syncPayload, error) {
	var p syncPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil || p.ID <= 0 {
		return p, jobs.Permanent(errBadPayload)
	}
	return p, nil
}

var errBadPayload = errors.New("mirrors: unreadable job payload")

// superseded reports whether a tick's instant is no longer the one its
// mirror waits for.
func superseded(p syncPayload, next time.Time) bool {
	return next.IsZero() || next.Unix() != p.Due
}

// nextUpdate is when the sync after one at now is due: zero when scheduled
// syncs are off. Whole seconds, so the job's instant and the row's agree.
func nextUpdate(now time.Time, interval time.Duration) time.Time {
	if interval <= 0 {
		return time.Time{}
	}
	return now.Add(interval).Truncate(time.Second)
}

// inTx runs fn in one transaction and wakes the workers after it commits.
func (s *Service) inTx(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	err := s.tx.InTx(ctx, fn)
	if err == nil {
		s.jobs.Notify()
	}
	return err
}

// withSyncTimeout bounds one sync's network work.
func withSyncTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, syncTimeout)
}
