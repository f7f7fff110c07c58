package sqlstore

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.FollowStore = (*FollowStore)(nil)

var followMapping = mapping{op: "follow", missingRef: "user does not exist"}

type followRow struct {
	bun.BaseModel `bun:"table:follows,alias:f"`

	ID       int64     `bun:"id,pk,autoincrement"`
	UserID   int64     `bun:"user_id"`
	FollowID int64     `bun:"follow_id"`
	Created  time.Time `bun:"created"`
}

// FollowStore is the SQL implementation of ports.FollowStore. The
// counters live on the users rows (num_followers, num_following), as
// Gitea's do, so that every user record answers its counts without a
// query of its own; each change recounts them by subquery after locking
// both rows, as the star counters are kept.
type FollowStore struct{ c conn }

// recountFollowsSQL recounts both counters of the listed accounts.
const recountFollowsSQL = `UPDATE users SET
	num_followers = (SELECT count(*) FROM follows WHERE follows.follow_id = users.id),
	num_following = (SELECT count(*) FROM follows WHERE follows.user_id = users.id)
	WHERE users.id IN (?)`

// recountFollows locks the accounts' rows (in id order) and recounts them.
func recountFollows(ctx context.Context, tx bun.IDB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, recountFollowsSQL, bun.List(ids))
	return followMapping.mapErr(err)
}

// lockPair locks the two accounts' rows in id order, so that concurrent
// follows between them cannot deadlock and each recount sees the other's
// commit.
func lockPair(ctx context.Context, tx bun.IDB, a, b int64) ([]int64, error) {
	ids := []int64{a, b}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return ids, followMapping.mapErr(lockRows(ctx, tx, "users", ids))
}

// Follow inserts the pair unless it exists and recounts both accounts.
func (s *FollowStore) Follow(ctx context.Context, userID, followID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		ids, err := lockPair(ctx, tx, userID, followID)
		if err != nil {
			return err
		}
		row := &followRow{UserID: userID, FollowID: followID, Created: now()}
		res, err := tx.NewInsert().Model(row).ExcludeColumn("id").On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return followMapping.mapErr(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return followMapping.mapErr(err)
		}
		return recountFollows(ctx, tx, ids)
	})
}

// Unfollow deletes the pair, if any, and recounts both accounts.
func (s *FollowStore) Unfollow(ctx context.Context, userID, followID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		ids, err := lockPair(ctx, tx, userID, followID)
		if err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*followRow)(nil)).
			Where("user_id = ?", userID).Where("follow_id = ?", followID).Exec(ctx)
		if err != nil {
			return followMapping.mapErr(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return followMapping.mapErr(err)
		}
		return recountFollows(ctx, tx, ids)
	})
}

// Sever deletes the pair both ways and recounts both accounts.
func (s *FollowStore) Sever(ctx context.Context, a, b int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		ids, err := lockPair(ctx, tx, a, b)
		if err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*followRow)(nil)).
			WhereGroup(" AND ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
				return q.WhereGroup(" OR ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
					return q.Where("user_id = ?", a).Where("follow_id = ?", b)
				}).WhereGroup(" OR ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
					return q.Where("user_id = ?", b).Where("follow_id = ?", a)
				})
			}).Exec(ctx)
		if err != nil {
			return followMapping.mapErr(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return followMapping.mapErr(err)
		}
		return recountFollows(ctx, tx, ids)
	})
}

// IsFollowing probes the pair's unique index.
func (s *FollowStore) IsFollowing(ctx context.Context, userID, followID int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*followRow)(nil)).
		Where("f.user_id = ?", userID).Where("f.follow_id = ?", followID).Exists(ctx)
	return ok, followMapping.mapErr(err)
}

// Followers joins the following individuals in the page's query.
func (s *FollowStore) Followers(ctx context.Context, userID int64, q ports.FollowList) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN follows AS f ON f.user_id = u.id").
		Where("f.follow_id = ?", userID).
		Where("u.kind = ?", int(user.KindIndividual))
	return s.list(ctx, sel, &rows, q)
}

// Following joins the followed accounts in the page's query.
func (s *FollowStore) Following(ctx context.Context, userID int64, q ports.FollowList) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN follows AS f ON f.follow_id = u.id").
		Where("f.user_id = ?", userID)
	return s.list(ctx, sel, &rows, q)
}

// list filters sel by visibility and pages it, the earliest follow first.
func (s *FollowStore) list(ctx context.Context, sel *bun.SelectQuery, rows *[]userRow, q ports.FollowList) ([]*user.User, int64, error) {
	if len(q.Visibilities) > 0 {
		vis := make([]string, len(q.Visibilities))
		for i, v := range q.Visibilities {
			vis[i] = string(v)
		}
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("u.visibility IN (?)", bun.List(vis)).WhereOr("u.id = ?", q.IncludeUserID)
		})
	}
	total, err := page(sel.OrderExpr("f.id ASC"), q.ListOptions).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, followMapping.mapErr(err)
	}
	return usersToDomain(*rows), total, nil
}

// followPartners are the accounts following or followed by id, whose
// counters its deletion changes.
func followPartners(ctx context.Context, tx bun.IDB, id int64) ([]int64, error) {
	var ids []int64
	err := tx.NewRaw("SELECT follow_id FROM follows WHERE user_id = ? UNION SELECT user_id FROM follows WHERE follow_id = ?", id, id).
		Scan(ctx, &ids)
	slices.Sort(ids)
	return ids, followMapping.mapErr(err)
}
