package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/depothq/depot/ports"
)

// healthCheckPage is how many repositories one page of repo_health_check
// reads from the database.
const healthCheckPage = 50

// maxHealthFailures bounds the failures the run's message names; the log
// has every one.
const maxHealthFailures = 20

// repoHealthCheck is repo_health_check's work: `git fsck` on every
// repository, a page at a time in the order of their ids, each bounded by
// timeout. A repository that fails is
// logged and named in the returned error, which becomes the run's message;
// the others are still checked.
func repoHealthCheck(ctx context.Context, stores ports.Stores, fsck ports.GitFsck, timeout timeoutFunc,
	log *slog.Logger) error {
	var failed []string
	checked := 0
	for n := 1; ; n++ {
		page, _, err := stores.Repos.Search(ctx, ports.RepoSearch{Sort: "id", Viewer: ports.RepoViewer{IsAdmin: true},
			ListOptions: ports.ListOptions{Page: n, Limit: healthCheckPage}})
		if err != nil {
			return err
		}
		for _, r := range page {
			rctx, cancel := timeout(ctx)
			err := fsck.Fsck(rctx, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name})
			cancel()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			checked++
			if err != nil {
				log.Error("cron: repository health check failed", "repo", r.FullName(), "err", err)
				failed = append(failed, fmt.Sprintf("%s: %v", r.FullName(), err))
			}
		}
		if len(page) < healthCheckPage {
			break
		}
	}
	if len(failed) == 0 {
		log.Info("cron: repository health check passed", "repositories", checked)
		return nil
	}
	shown := failed[:min(len(failed), maxHealthFailures)]
	msg := fmt.Sprintf("git fsck failed on %d of %d repositories:\n%s", len(failed), checked, strings.Join(shown, "\n"))
	if len(failed) > len(shown) {
		msg += fmt.Sprintf("\n… and %d more (see the log)", len(failed)-len(shown))
	}
	return errors.New(msg)
}

// timeoutFunc bounds one repository's check.
type timeoutFunc func(ctx context.Context) (context.Context, context.CancelFunc)
