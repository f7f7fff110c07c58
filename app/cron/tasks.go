package cron

import (
	"context"
	"log/slog"
	"time"

	"github.com/depothq/depot/app/actions"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/mirrors"
	"github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// mirrorLimit is how many overdue pull mirrors, and push mirrors, one run
// of update_mirrors queues (Gitea's PULL_LIMIT and PUSH_LIMIT defaults).
const mirrorLimit = 50

// NewService builds the service over Depot's periodic tasks with the
// site's [cron.<task>] settings.
func NewService(settings site.Settings, stores ports.Stores, tx ports.Transactor, runner *jobs.Runner,
	clock ports.Clock, log *slog.Logger, ms *mirrors.Service, as *actions.Service, pc *packages.Containers,
	fsck ports.GitFsck, hk *transport.Housekeeping) (*Service, error) {
	cfg := settings.Cron
	if cfg == nil {
		cfg = site.DefaultCron()
	}
	work := map[string]Work{
		site.CronUpdateMirrors: func(ctx context.Context, _ time.Time) error {
			done, err := ms.RequeueOverdue(ctx, mirrorLimit)
			if done.Pulls+done.Pushes > 0 {
				log.Info("cron: queued the overdue mirror syncs", "pull", done.Pulls, "push", done.Pushes)
			}
			return err
		},
		site.CronCleanupHookTaskTable: func(ctx context.Context, now time.Time) error {
			olderThan := cfg[site.CronCleanupHookTaskTable].OlderThan
			n, err := stores.HookDeliveries.DeleteDeliveredBefore(ctx, now.Add(-olderThan))
			if n > 0 {
				log.Info("cron: deleted old webhook deliveries", "deliveries", n, "older_than", olderThan)
			}
			return err
		},
		site.CronDeleteOldActions: func(ctx context.Context, now time.Time) error {
			olderThan := cfg[site.CronDeleteOldActions].OlderThan
			n, err := stores.Activities.DeleteBefore(ctx, now.Add(-olderThan))
			if n > 0 {
				log.Info("cron: deleted old activity records", "activities", n, "older_than", olderThan)
			}
			return err
		},
		site.CronRepoHealthCheck: func(ctx context.Context, _ time.Time) error {
			return repoHealthCheck(ctx, stores, fsck, perRepository(cfg[site.CronRepoHealthCheck].Timeout), log)
		},
		site.CronGitGCRepos: func(ctx context.Context, _ time.Time) error {
			return gitGCRepos(ctx, stores, hk.Collect, perRepository(cfg[site.CronGitGCRepos].Timeout), log)
		},
		site.CronCleanupArtifacts: func(ctx context.Context, now time.Time) error {
			n, err := as.Artifacts().CleanupExpired(ctx, now)
			if n > 0 {
				log.Info("cron: deleted expired artifacts", "artifacts", n)
			}
			return err
		},
		site.CronCleanupPackages: func(ctx context.Context, now time.Time) error {
			queued, err := pc.CleanupRules().QueueAll(ctx)
			if queued > 0 {
				log.Info("cron: queued the package cleanup rules", "rules", queued)
			}
			if err != nil {
				return err
			}
			before := now.Add(-cfg[site.CronCleanupPackages].OlderThan)
			done, err := pc.SweepStorage(ctx, before, before)
			if done.Orphans+done.Partial+done.Uploads > 0 {
				log.Info("cron: swept package storage", "orphans", done.Orphans, "partial", done.Partial,
					"uploads", done.Uploads)
			}
			return err
		},
	}
	return newService(cfg, work, stores, tx, runner, clock, log)
}

// perRepository bounds a task's work on one repository by timeout (none
// when it is not positive).
func perRepository(timeout time.Duration) timeoutFunc {
	return func(ctx context.Context) (context.Context, context.CancelFunc) {
		if timeout <= 0 {
			return context.WithCancel(ctx)
		}
		return context.WithTimeout(ctx, timeout)
	}
}
