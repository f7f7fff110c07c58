package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var watchMapping = mapping{
	op: "watch", notFound: "watch does not exist", missingRef: "repository or user does not exist",
}

var _ ports.WatchStore = (*WatchStore)(nil)

// WatchStore is the SQL implementation of ports.WatchStore.
type WatchStore struct{ c conn }

// Watch subscribes userID in the normal mode (turning a "don't watch" into a
// watch) and recounts the repository's watchers in the same transaction.
func (s *WatchStore) Watch(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return watchMapping.mapErr(err)
		}
		row := &watchRow{UserID: userID, RepoID: repoID, Mode: repository.WatchNormal, Created: now()}
		_, err := tx.NewInsert().Model(row).
			On("CONFLICT (user_id, repo_id) DO UPDATE").Set("mode = EXCLUDED.mode").
			Exec(ctx)
		if err != nil {
			return watchMapping.mapErr(err)
		}
		return recount(ctx, tx, recountWatchesSQL, repoID)
	})
}

// Unwatch removes userID's watch, if any, and recounts the watchers.
func (s *WatchStore) Unwatch(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return watchMapping.mapErr(err)
		}
		_, err := tx.NewDelete().Model((*watchRow)(nil)).Where("user_id = ?", userID).Where("repo_id = ?", repoID).Exec(ctx)
		if err != nil {
			return watchMapping.mapErr(err)
		}
		return recount(ctx, tx, recountWatchesSQL, repoID)
	})
}

// Get returns userID's watch of the repository, whatever its mode.
func (s *WatchStore) Get(ctx context.Context, userID, repoID int64) (*ports.Watch, error) {
	row := new(watchRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("w.user_id = ?", userID).Where("w.repo_id = ?", repoID).Scan(ctx)
	if err != nil {
		return nil, watchMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Watchers lists one page of the users watching the repository (normal or
// automatic watches), the earliest first, and the total.
func (s *WatchStore) Watchers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN watches AS w ON w.user_id = u.id").
		Where("w.repo_id = ?", repoID).
		Where("w.mode IN (?)", bun.List([]int{repository.WatchNormal, repository.WatchAuto})).
		OrderExpr("w.created ASC").OrderExpr("u.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, watchMapping.mapErr(err)
	}
	return usersToDomain(rows), total, nil
}

// recountWatchesSQL recounts the watchers of a repository: the normal (1)
// and automatic (3) watches.
const recountWatchesSQL = `UPDATE repos SET
	num_watches = (SELECT count(*) FROM watches WHERE watches.repo_id = repos.id AND watches.mode IN (1, 3))
	WHERE repos.id = ?`

// pruneWatchesSQL deletes the watches of users who may not read the private
// repository any more: everyone but its owner, its collaborators and site admins.
const pruneWatchesSQL = `DELETE FROM watches WHERE repo_id = ?0
	AND user_id <> (SELECT owner_id FROM repos WHERE id = ?0)
	AND user_id NOT IN (SELECT user_id FROM collaborations WHERE repo_id = ?0)
	AND user_id NOT IN (SELECT id FROM users WHERE is_admin)`

// PruneRepo removes the watches of users who can no longer read the repository.
func (s *WatchStore) PruneRepo(ctx context.Context, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return watchMapping.mapErr(err)
		}
		if _, err := tx.ExecContext(ctx, pruneWatchesSQL, repoID); err != nil {
			return watchMapping.mapErr(err)
		}
		return recount(ctx, tx, recountWatchesSQL, repoID)
	})
}

type watchRow struct {
	bun.BaseModel `bun:"table:watches,alias:w"`

	UserID  int64     `bun:"user_id,pk"`
	RepoID  int64     `bun:"repo_id,pk"`
	Mode    int       `bun:"mode"`
	Created time.Time `bun:"created,nullzero"`
}

func (r *watchRow) toDomain() *ports.Watch {
	return &ports.Watch{UserID: r.UserID, RepoID: r.RepoID, Mode: r.Mode, Created: domainTime(r.Created)}
}
