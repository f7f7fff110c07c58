package transport

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// KindHousekeeping is the job that tidies a repository's objects after
// pushes (repository.PlanHousekeeping).
const KindHousekeeping = "repo.housekeeping"

// housekeepingLease bounds one run: `git gc` of a large repository takes
// minutes.
const housekeepingLease = 2 * time.Hour

// Housekeeping keeps pushed repositories fit to serve: a push queues, in
// the transaction that records it, a job that tidies the repository's
// objects as repository.PlanHousekeeping decides: `git gc`, or a roll-up of
// the small packs and loose objects, or nothing. The job waits the site's
// HousekeepingDelay first, so that a burst of pushes (a branch and its
// tags, a CI run) costs one run: while it is queued, further pushes queue
// nothing. Once it runs, the next push queues the next run, which waits
// for this one (both are in the repository's queue): the running git may
// have listed the packs before that push wrote its own.
type Housekeeping struct {
	stores ports.Stores
	git    ports.GitHousekeeping
	// storage measures a repository again after its collection.
	storage ports.GitStorage
	clock   ports.Clock
	delay   time.Duration
	log     *slog.Logger
}

// NewHousekeeping builds the housekeeping, registers its job on runner and,
// unless settings turn it off, its recorder on the pushes ts records.
func NewHousekeeping(stores ports.Stores, git ports.GitHousekeeping, runner *jobs.Runner, ts *Service,
	clock ports.Clock, settings site.Settings, log *slog.Logger) *Housekeeping {
	h := &Housekeeping{stores: stores, git: git, storage: ts.git, clock: clock, delay: settings.HousekeepingDelay,
		log: log}
	runner.Handle(KindHousekeeping, jobs.KindOptions{MaxAttempts: 3, Concurrency: 1, Lease: housekeepingLease},
		h.runHousekeeping)
	if h.delay >= 0 {
		ts.OnPush(h.recordPush)
	}
	return h
}

// housekeepingPayload is a KindHousekeeping job's input.
type housekeepingPayload struct {
	RepoID int64 `json:"repo_id"`
}

// recordPush queues the housekeeping of r, once (a PushRecorder).
func (h *Housekeeping) recordPush(ctx context.Context, tx ports.Stores, r *repository.Repository, _ int64,
	_ []repository.RefChange) error {
	b, err := json.Marshal(housekeepingPayload{RepoID: r.ID})
	if err != nil {
		return err
	}
	key := "repo:" + strconv.FormatInt(r.ID, 10)
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindHousekeeping, Dedup: key, Queue: KindHousekeeping + ":" + key,
		Payload: b, RunAt: h.clock.Now().Add(h.delay)})
	return err
}

// runHousekeeping is the KindHousekeeping job: it finds the repository by
// its id (it may have been renamed or moved since the push; a deleted one
// has nothing left to do) and tidies it as its objects need.
func (h *Housekeeping) runHousekeeping(ctx context.Context, j *ports.Job) error {
	var in housekeepingPayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.RepoID <= 0 {
		return jobs.Permanent(errors.New("housekeeping: unreadable payload"))
	}
	// A push from now on queues the next run, after this one.
	if err := h.stores.Jobs.ReleaseDedup(ctx, j.ID); err != nil {
		return err
	}
	r, err := h.stores.Repos.GetByID(ctx, in.RepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	st, err := h.git.ObjectStore(ctx, p)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	switch repository.PlanHousekeeping(st) {
	case repository.HousekeepingFull:
		return h.collect(ctx, r, st)
	case repository.HousekeepingRollUp:
		return h.tidy(ctx, r, st, "rolled up a repository's small packs", h.git.RollUp)
	}
	return nil
}

// Collect runs `git gc` on r whatever shape its objects are in (the
// git_gc_repos task).
func (h *Housekeeping) Collect(ctx context.Context, r *repository.Repository) error {
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	st, err := h.git.ObjectStore(ctx, p)
	if err != nil {
		return err
	}
	return h.collect(ctx, r, st)
}

// collect runs `git gc` on r, whose objects were st.
func (h *Housekeeping) collect(ctx context.Context, r *repository.Repository, st repository.ObjectStore) error {
	return h.tidy(ctx, r, st, "collected a repository's garbage", h.git.CollectGarbage)
}

// tidy runs work on r, whose objects were st, records the size the
// repository has after it, and logs what it did.
func (h *Housekeeping) tidy(ctx context.Context, r *repository.Repository, st repository.ObjectStore, did string,
	work func(context.Context, ports.RepoPath) error) error {
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	start := h.clock.Now()
	if err := work(ctx, p); err != nil {
		return err
	}
	size, err := h.storage.Size(ctx, p)
	if err != nil {
		return err
	}
	if err := h.stores.Repos.SetSize(ctx, r.ID, size); err != nil {
		return err
	}
	h.log.Info("housekeeping: "+did, "repo", r.FullName(), "packs", st.Packs, "largest_pack", st.LargestPackBytes,
		"other_packs", st.OtherPackBytes, "bitmap", st.Bitmap, "loose_estimate", st.LooseEstimate, "size", size,
		"took", h.clock.Now().Sub(start))
	return nil
}
