package cron

import (
	"context"
	"log/slog"

	"github.com/depothq/depot/ports"
)

// gitGCRepos is git_gc_repos's work: `git gc` on every repository
// (transport.Housekeeping.Collect), each bounded by timeout. A repository
// that fails is logged and named in the returned error, which becomes the
// run's message; the others are still collected.
func gitGCRepos(ctx context.Context, stores ports.Stores, collect repositoryWork, timeout timeoutFunc,
	log *slog.Logger) error {
	n, err := eachRepository(ctx, stores, timeout, "git gc", collect, log)
	if err == nil {
		log.Info("cron: collected every repository's garbage", "repositories", n)
	}
	return err
}
