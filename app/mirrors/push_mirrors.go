package mirrors

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// PushMirrors are the use cases of a repository's push mirrors.
type PushMirrors struct{ *Service }

// PushMirrors returns the push mirror use cases.
func (s *Service) PushMirrors() PushMirrors { return PushMirrors{s} }

// PushMirrorInput is Gitea's CreatePushMirrorOption.
type PushMirrorInput struct {
	RemoteAddress, RemoteUsername, RemotePassword string
	// Interval is a duration ("8h"); empty for the default, "0" for none.
	Interval     string
	SyncOnCommit bool
}

// pushSchemes are the remotes a push mirror may push to (see migrateSchemes).
var pushSchemes = []string{"http", "https"}

// remoteNamePrefix starts every push mirror's name, as in Gitea.
const remoteNamePrefix = "remote_mirror_"

// Create adds a push mirror to a. Its first push comes with the
// first scheduled instant, a push to a (with sync_on_commit) or a sync
// asked for, as in Gitea.
func (s PushMirrors) Create(ctx context.Context, a *repos.Access, in PushMirrorInput) (*ports.PushMirror, error) {
	interval := repos.DefaultMirrorInterval
	if strings.TrimSpace(in.Interval) != "" {
		var err error
		if interval, err = repos.ParseMirrorInterval("Interval", in.Interval); err != nil {
			return nil, err
		}
	}
	clean, remote, err := remoteAddress{Raw: in.RemoteAddress, Username: in.RemoteUsername,
		Password: in.RemotePassword}.split("RemoteAddress")
	if err != nil {
		return nil, err
	}
	if err := s.check(ctx, "RemoteAddress", clean, pushSchemes...); err != nil {
		return nil, err
	}
	suffix, err := s.secrets.TokenSecret()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	m := &ports.PushMirror{
		RepoID: a.Repo.ID, RemoteName: remoteNamePrefix + suffix[:10], RemoteAddress: clean,
		Interval: interval, SyncOnCommit: in.SyncOnCommit, NextUpdate: nextUpdate(now, interval), Created: now,
	}
	if m.Credentials, err = s.seal(remote, pushLabel(m.RepoID, m.RemoteName)); err != nil {
		return nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.PushMirrors.Create(ctx, m); err != nil {
			return err
		}
		if m.NextUpdate.IsZero() {
			return nil
		}
		_, err := tx.Jobs.Enqueue(ctx, pushTick(m.ID, m.NextUpdate))
		return err
	})
	if err != nil {
		return nil, err
	}
	m.Credentials = ""
	return m, nil
}

// List returns one page of a's push mirrors and the total.
func (s PushMirrors) List(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]*ports.PushMirror, int64, error) {
	list, total, err := s.stores.PushMirrors.List(ctx, a.Repo.ID, opts)
	for _, m := range list {
		m.Credentials = ""
	}
	return list, total, err
}

// Get returns a's push mirror by remote name.
func (s PushMirrors) Get(ctx context.Context, a *repos.Access, name string) (*ports.PushMirror, error) {
	m, err := s.stores.PushMirrors.Get(ctx, a.Repo.ID, name)
	if err != nil {
		return nil, err
	}
	m.Credentials = ""
	return m, nil
}

// Delete removes a's push mirror by remote name; its queued
// pushes find it gone and do nothing.
func (s PushMirrors) Delete(ctx context.Context, a *repos.Access, name string) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.PushMirrors.Delete(ctx, a.Repo.ID, name)
	})
}

// Sync queues a push, due now, to each of a's push mirrors.
func (s PushMirrors) Sync(ctx context.Context, a *repos.Access) error {
	return s.inTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return enqueuePushes(ctx, tx, a.Repo.ID, false)
	})
}

// EnqueueOnCommit queues, inside the transaction that records a push to
// repoID, a push to each of its push mirrors that sync on commit. The
// workers pick the jobs up on their next poll.
func EnqueueOnCommit(ctx context.Context, tx ports.Stores, repoID int64) error {
	return enqueuePushes(ctx, tx, repoID, true)
}

func enqueuePushes(ctx context.Context, tx ports.Stores, repoID int64, onCommitOnly bool) error {
	list, err := tx.PushMirrors.ListForSync(ctx, repoID, onCommitOnly)
	if err != nil {
		return err
	}
	for _, m := range list {
		if err := enqueuePush(ctx, tx, m.ID); err != nil {
			return err
		}
	}
	return nil
}

// runPushSync runs a push mirror's job: a tick or a push.
func (s *Service) runPushSync(ctx context.Context, j *ports.Job) error {
	p, err := decodePayload(j)
	if err != nil {
		return err
	}
	if p.Due != 0 {
		return s.tickPush(ctx, p)
	}
	m, err := s.stores.PushMirrors.GetByID(ctx, p.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // deleted, or its repository is gone
	}
	if err != nil {
		return err
	}
	r, err := s.stores.Repos.GetByID(ctx, m.RepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.syncPush(ctx, r, m)
}

// tickPush queues the push of a scheduled instant and the tick of the next.
func (s *Service) tickPush(ctx context.Context, p syncPayload) error {
	return s.inTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		m, err := tx.PushMirrors.GetByID(ctx, p.ID)
		if errors.Is(err, errs.ErrNotFound) {
			return nil
		}
		if err != nil || superseded(p, m.NextUpdate) {
			return err
		}
		next := nextUpdate(s.clock.Now(), m.Interval)
		if err := tx.PushMirrors.Schedule(ctx, m.ID, next); err != nil {
			return err
		}
		if err := enqueuePush(ctx, tx, m.ID); err != nil {
			return err
		}
		if next.IsZero() {
			return nil
		}
		_, err = tx.Jobs.Enqueue(ctx, pushTick(m.ID, next))
		return err
	})
}

// syncPush pushes r to the mirror and records the attempt; like a pull
// sync, a failure is reported (last_error), not retried at once.
func (s *Service) syncPush(ctx context.Context, r *repository.Repository, m *ports.PushMirror) error {
	remote, err := s.remote(m.RemoteAddress, m.Credentials, pushLabel(m.RepoID, m.RemoteName))
	if err == nil {
		pctx, cancel := withSyncTimeout(ctx)
		err = s.remotes.PushMirror(pctx, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}, remote)
		cancel()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := syncMessage(err, remote)
	if err != nil {
		s.log.Warn("push mirror sync failed", "repo", r.FullName(), "remote", m.RemoteName, "err", msg)
	}
	err = s.stores.PushMirrors.RecordSync(ctx, m.ID, s.clock.Now(), msg)
	return errs.IgnoreNotFound(err)
}
