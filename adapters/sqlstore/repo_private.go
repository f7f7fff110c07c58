package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// ClearRepo removes every star of a repository and zeroes its counter, as
// Gitea does when a repository becomes private.
func (s *StarStore) ClearRepo(ctx context.Context, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return starMapping.mapErr(err)
		}
		var starrers []int64
		if err := tx.NewSelect().Model((*starRow)(nil)).Column("user_id").Where("repo_id = ?", repoID).
			Scan(ctx, &starrers); err != nil {
			return starMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*starRow)(nil)).Where("repo_id = ?", repoID).Exec(ctx); err != nil {
			return starMapping.mapErr(err)
		}
		if len(starrers) > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.user_id = users.id)
	WHERE users.id IN (?)`, bun.List(starrers)); err != nil {
				return starMapping.mapErr(err)
			}
		}
		return recount(ctx, tx, recountStarsSQL, repoID)
	})
}

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
