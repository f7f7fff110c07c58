package cron

import (
	"context"
	"log/slog"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// repoHealthCheck is repo_health_check's work: `git fsck` on every
// repository, each bounded by timeout. A repository that fails is logged
// and named in the returned error, which becomes the run's message; the
// others are still checked.
func repoHealthCheck(ctx context.Context, stores ports.Stores, fsck ports.GitFsck, timeout timeoutFunc,
	log *slog.Logger) error {
	checked, err := eachRepository(ctx, stores, timeout, "git fsck", func(ctx context.Context, r *repository.Repository) error {
		return fsck.Fsck(ctx, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name})
	}, log)
	if err == nil {
		log.Info("cron: repository health check passed", "repositories", checked)
	}
	return err
}
