package mirrors

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// PullMirrors are the use cases of pull mirrors that the routes reach: a sync on demand, and the sync
// state a repository is rendered with.
type PullMirrors struct{ *Service }

// PullMirrors returns the pull mirror use cases.
func (s *Service) PullMirrors() PullMirrors { return PullMirrors{s} }

// errNotMirror answers a sync of a repository that is no pull mirror; the
// spec answers it 404 (Gitea 400).
var errNotMirror = errs.NotFound("repository is not a mirror")

// Sync queues a sync of the pull mirror a, due now; a sync already
// waiting makes this a no-op.
func (s PullMirrors) Sync(ctx context.Context, a *repos.Access) error {
	if !a.Repo.IsMirror {
		return errNotMirror
	}
	if _, err := s.stores.Mirrors.Get(ctx, a.Repo.ID); errors.Is(err, errs.ErrNotFound) {
		return errNotMirror
	} else if err != nil {
		return err
	}
	return s.inTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return enqueuePull(ctx, tx, a.Repo.ID)
	})
}

// State is a pull mirror's sync state, for the repository's
// mirror_updated.
func (s PullMirrors) State(ctx context.Context, r *repository.Repository) (*ports.Mirror, error) {
	if !r.IsMirror {
		return nil, errNotMirror
	}
	m, err := s.stores.Mirrors.Get(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	m.Credentials = ""
	return m, nil
}

// Updated is when each pull mirror among list last synced, by
// repository id, for a page's mirror_updated: one query for the page, none
// when it holds no mirror. Mirrors that never synced are absent.
func (s PullMirrors) Updated(ctx context.Context, list []*repository.Repository) (map[int64]time.Time, error) {
	var ids []int64
	for _, r := range list {
		if r.IsMirror {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.stores.Mirrors.UpdatedTimes(ctx, ids)
}

// reschedulePull follows an edited interval inside the edit's transaction:
// the next sync is due one interval from now (none for 0), and the job of
// that instant is queued; the one queued before is superseded.
func (s *Service) reschedulePull(ctx context.Context, tx ports.Stores, repoID int64, interval time.Duration) error {
	next := nextUpdate(s.clock.Now(), interval)
	err := tx.Mirrors.Schedule(ctx, repoID, interval, next)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // a mirror without settings (none made by Depot): nothing is scheduled
	}
	if err != nil || next.IsZero() {
		return err
	}
	_, err = tx.Jobs.Enqueue(ctx, pullTick(repoID, next))
	return err
}

// runPullSync runs a pull mirror's job: a tick or a sync.
func (s *Service) runPullSync(ctx context.Context, j *ports.Job) error {
	p, err := decodePayload(j)
	if err != nil {
		return err
	}
	if p.Due != 0 {
		return s.tickPull(ctx, p)
	}
	m, err := s.stores.Mirrors.Get(ctx, p.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // the repository is gone
	}
	if err != nil {
		return err
	}
	r, err := s.stores.Repos.GetByID(ctx, p.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.syncPull(ctx, r, m)
}

// tickPull queues the sync of a scheduled instant and the tick of the next.
func (s *Service) tickPull(ctx context.Context, p syncPayload) error {
	return s.inTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		m, err := tx.Mirrors.Get(ctx, p.ID)
		if errors.Is(err, errs.ErrNotFound) {
			return nil
		}
		if err != nil || superseded(p, m.NextUpdate) {
			return err
		}
		next := nextUpdate(s.clock.Now(), m.Interval)
		if err := tx.Mirrors.Schedule(ctx, p.ID, m.Interval, next); err != nil {
			return err
		}
		if err := enqueuePull(ctx, tx, p.ID); err != nil {
			return err
		}
		if next.IsZero() {
			return nil
		}
		_, err = tx.Jobs.Enqueue(ctx, pullTick(p.ID, next))
		return err
	})
}

// syncPull fetches the mirror's remote and records the outcome. A failed
// sync is reported on the mirror (last_error) and tried again at the next
// scheduled instant, not at once, as in Gitea.
func (s *Service) syncPull(ctx context.Context, r *repository.Repository, m *ports.Mirror) error {
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	remote, err := s.remote(m.RemoteURL, m.Credentials, pullLabel(r.ID))
	before, beforeOK := s.refState(ctx, p)
	var head string
	if err == nil {
		fctx, cancel := withSyncTimeout(ctx)
		head, err = s.remotes.Fetch(fctx, p, remote)
		cancel()
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the job runs again
	}
	var st gitState
	if err == nil {
		// A mirror follows its source's default branch, as Gitea's do; the
		// one it had stays when the source names none that came along.
		if st, err = s.settle(ctx, p, remoteDefault(head), r.DefaultBranch); err != nil {
			return err
		}
	}
	msg := syncMessage(err, remote)
	if err != nil {
		s.log.Warn("mirror sync failed", "repo", r.FullName(), "err", msg)
	}
	var changes []repository.RefChange
	if after, ok := s.refState(ctx, p); ok && beforeOK && msg == "" {
		changes = repository.DiffRefs(before, after)
	}
	now := s.clock.Now()
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if msg != "" {
			return errs.IgnoreNotFound(tx.Mirrors.RecordSync(ctx, r.ID, time.Time{}, msg))
		}
		if err := tx.Mirrors.RecordSync(ctx, r.ID, now, ""); err != nil {
			return errs.IgnoreNotFound(err)
		}
		if err := s.record(ctx, tx, r.ID, st); err != nil {
			return err
		}
		if len(changes) == 0 || s.events == nil {
			return nil
		}
		return s.events.MirrorSynced(ctx, tx, ports.MirrorSyncEvent{Repo: r, Changes: changes})
	})
}

// refState maps the branches and tags of p to their object ids; false
// when they cannot be read (the sync then reports no ref changes).
func (s *Service) refState(ctx context.Context, p ports.RepoPath) (map[string]string, bool) {
	out := map[string]string{}
	for _, prefix := range []string{repository.BranchPrefix, repository.TagPrefix} {
		refs, err := s.content.ListRefs(ctx, p, prefix)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			s.log.Warn("mirror refs not read", "repo", p.Owner+"/"+p.Name, "err", err)
			return nil, false
		}
		for _, ref := range refs {
			out[ref.Name] = ref.ObjectID
		}
	}
	return out, true
}
