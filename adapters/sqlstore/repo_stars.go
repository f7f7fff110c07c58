package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var starMapping = mapping{op: "star", missingRef: "repository or user does not exist"}

var _ ports.StarStore = (*StarStore)(nil)

// StarStore is the SQL implementation of ports.StarStore.
type StarStore struct{ c conn }

// Star records userID's star and recounts the repository's stars in the
// same transaction; starring twice changes nothing.
func (s *StarStore) Star(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return starMapping.mapErr(err)
		}
		row := &starRow{UserID: userID, RepoID: repoID, Created: now()}
		if _, err := tx.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return starMapping.mapErr(err)
		}
		if err := recount(ctx, tx, recountStarsSQL, repoID); err != nil {
			return err
		}
		return recountUser(ctx, tx, recountUserStarsSQL, userID)
	})
}

// Unstar removes userID's star, if any, and recounts the repository's stars.
func (s *StarStore) Unstar(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return starMapping.mapErr(err)
		}
		_, err := tx.NewDelete().Model((*starRow)(nil)).Where("user_id = ?", userID).Where("repo_id = ?", repoID).Exec(ctx)
		if err != nil {
			return starMapping.mapErr(err)
		}
		if err := recount(ctx, tx, recountStarsSQL, repoID); err != nil {
			return err
		}
		return recountUser(ctx, tx, recountUserStarsSQL, userID)
	})
}

// IsStarred reports whether userID starred the repository.
func (s *StarStore) IsStarred(ctx context.Context, userID, repoID int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*starRow)(nil)).
		Where("s.user_id = ?", userID).Where("s.repo_id = ?", repoID).Exists(ctx)
	if err != nil {
		return false, starMapping.mapErr(err)
	}
	return ok, nil
}

// Stargazers lists one page of the users who starred the repository, the
// earliest first, and the total.
func (s *StarStore) Stargazers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN stars AS s ON s.user_id = u.id").
		Where("s.repo_id = ?", repoID).
		OrderExpr("s.created ASC").OrderExpr("u.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, starMapping.mapErr(err)
	}
	return usersToDomain(rows), total, nil
}

// recountStarsSQL recounts the stars of a repository.
const recountStarsSQL = `UPDATE repos SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.repo_id = repos.id)
	WHERE repos.id = ?`

// recountUserStarsSQL recounts the stars a user gave.
const recountUserStarsSQL = `UPDATE users SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.user_id = users.id)
	WHERE users.id = ?`

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

type starRow struct {
	bun.BaseModel `bun:"table:stars,alias:s"`

	UserID  int64     `bun:"user_id,pk"`
	RepoID  int64     `bun:"repo_id,pk"`
	Created time.Time `bun:"created,nullzero"`
}
