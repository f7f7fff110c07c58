package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// repositoriesPage is how many repositories one page of a task that walks
// them (repo_health_check, git_gc_repos) reads from the database.
const repositoriesPage = 50

// maxRepositoryFailures bounds the failures a run's message names; the log
// has every one.
const maxRepositoryFailures = 20

// timeoutFunc bounds the work on one repository.
type timeoutFunc func(ctx context.Context) (context.Context, context.CancelFunc)

// repositoryWork is what a task does to one repository.
type repositoryWork func(ctx context.Context, r *repository.Repository) error

// eachRepository runs work on every repository, a page at a time in the
// order of their ids, each bounded by timeout. A repository whose work
// fails is logged and named in the returned error, which becomes the run's
// message (what says which work: "git fsck"); the others still get theirs.
// It returns how many repositories it went through.
func eachRepository(ctx context.Context, stores ports.Stores, timeout timeoutFunc, what string, work repositoryWork,
	log *slog.Logger) (int, error) {
	var failed []string
	done := 0
	for n := 1; ; n++ {
		page, _, err := stores.Repos.Search(ctx, ports.RepoSearch{Sort: "id", Viewer: ports.RepoViewer{IsAdmin: true},
			ListOptions: ports.ListOptions{Page: n, Limit: repositoriesPage}})
		if err != nil {
			return done, err
		}
		for _, r := range page {
			rctx, cancel := timeout(ctx)
			err := work(rctx, r)
			cancel()
			if ctx.Err() != nil {
				return done, ctx.Err()
			}
			done++
			if err != nil {
				log.Error("cron: "+what+" failed", "repo", r.FullName(), "err", err)
				failed = append(failed, fmt.Sprintf("%s: %v", r.FullName(), err))
			}
		}
		if len(page) < repositoriesPage {
			break
		}
	}
	if len(failed) == 0 {
		return done, nil
	}
	shown := failed[:min(len(failed), maxRepositoryFailures)]
	msg := fmt.Sprintf("%s failed on %d of %d repositories:\n%s", what, len(failed), done, strings.Join(shown, "\n"))
	if len(failed) > len(shown) {
		msg += fmt.Sprintf("\n… and %d more (see the log)", len(failed)-len(shown))
	}
	return done, errors.New(msg)
}
