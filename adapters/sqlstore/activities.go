package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/ports"
)

var _ ports.ActivityStore = (*ActivityStore)(nil)

var activityMapping = mapping{op: "activity", missingRef: "repository or user does not exist"}

type activityRow struct {
	bun.BaseModel `bun:"table:activities,alias:act"`

	ID          int64  `bun:"id,pk,autoincrement"`
	UserID      int64  `bun:"user_id"`
	ActUserID   int64  `bun:"act_user_id"`
	OpType      string `bun:"op_type"`
	RepoID      int64  `bun:"repo_id"`
	RepoOwnerID int64  `bun:"repo_owner_id"`
	CommentID   int64  `bun:"comment_id"`
	RefName     string `bun:"ref_name"`
	Content     string `bun:"content"`
	IsPrivate   bool   `bun:"is_private"`
	CreatedUnix int64  `bun:"created_unix"`
}

// ActivityStore is the SQL implementation of ports.ActivityStore.
type ActivityStore struct{ c conn }

// Add inserts the records in one statement.
func (s *ActivityStore) Add(ctx context.Context, list []*activity.Activity) error {
	if len(list) == 0 {
		return nil
	}
	rows := make([]activityRow, len(list))
	for i, a := range list {
		created := a.Created
		if created.IsZero() {
			created = now()
		}
		rows[i] = activityRow{UserID: a.UserID, ActUserID: a.ActUserID, OpType: string(a.OpType), RepoID: a.RepoID,
			RepoOwnerID: a.RepoOwnerID, CommentID: a.CommentID, RefName: a.RefName, Content: a.Content,
			IsPrivate: a.IsPrivate, CreatedUnix: created.Unix()}
	}
	if ok, err := s.addPrepared(ctx, rows); ok {
		if err != nil {
			return activityMapping.mapErr(err)
		}
	} else if _, err := s.c.w(ctx).NewInsert().Model(&rows).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return activityMapping.mapErr(err)
	}
	for i := range rows {
		list[i].ID = rows[i].ID
	}
	return nil
}

// List selects one page of a feed, newest first, with its count.
func (s *ActivityStore) List(ctx context.Context, q ports.ActivityQuery) ([]*activity.Activity, int64, error) {
	var rows []activityRow
	sel := s.c.r(ctx).NewSelect().Model(&rows)
	switch {
	case q.RepoID != 0:
		sel = sel.Where("act.repo_id = ?", q.RepoID)
	case q.OwnerID != 0:
		sel = sel.Where("act.repo_owner_id = ?", q.OwnerID)
	case q.TeamID != 0:
		// A team with all of its organisation's repositories has no rows of its own.
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("act.repo_id IN (SELECT tr.repo_id FROM team_repos AS tr WHERE tr.team_id = ?)", q.TeamID).
				WhereOr("act.repo_owner_id IN (SELECT t.org_id FROM teams AS t WHERE t.id = ? AND t.includes_all_repos = ?)", q.TeamID, true)
		})
	case q.UserID != 0:
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("act.user_id = ?", q.UserID).WhereOr("act.repo_owner_id = ?", q.UserID)
		})
	}
	if q.ActUserID != 0 {
		sel = sel.Where("act.act_user_id = ?", q.ActUserID)
	}
	if !q.From.IsZero() {
		sel = sel.Where("act.created_unix >= ?", q.From.Unix())
	}
	if !q.To.IsZero() {
		sel = sel.Where("act.created_unix < ?", q.To.Unix())
	}
	if q.PublicOnly {
		sel = sel.Where("act.repo_id IN (SELECT r.id FROM repos AS r WHERE r.private = ?)", false)
	}
	total, err := page(sel.OrderExpr("act.created_unix DESC, act.id DESC"), q.ListOptions).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, activityMapping.mapErr(err)
	}
	out := make([]*activity.Activity, len(rows))
	for i, r := range rows {
		out[i] = &activity.Activity{ID: r.ID, UserID: r.UserID, ActUserID: r.ActUserID, OpType: activity.OpType(r.OpType),
			RepoID: r.RepoID, RepoOwnerID: r.RepoOwnerID, CommentID: r.CommentID, RefName: r.RefName, Content: r.Content,
			IsPrivate: r.IsPrivate, Created: time.Unix(r.CreatedUnix, 0).UTC()}
	}
	return out, total, nil
}

// Heatmap groups the actor's records in 15-minute buckets in SQL.
func (s *ActivityStore) Heatmap(ctx context.Context, actUserID int64, since time.Time, publicOnly bool) ([]activity.HeatmapBucket, error) {
	var out []struct {
		Timestamp     int64 `bun:"timestamp"`
		Contributions int64 `bun:"contributions"`
	}
	bucket := "(act.created_unix - act.created_unix % ?)"
	sel := s.c.r(ctx).NewSelect().TableExpr("activities AS act").
		ColumnExpr(bucket+" AS \"timestamp\"", activity.HeatmapWindow).
		ColumnExpr("count(*) AS contributions").
		Where("act.act_user_id = ?", actUserID).
		Where("act.created_unix >= ?", since.Unix())
	if publicOnly {
		sel = sel.Where("act.repo_id IN (SELECT r.id FROM repos AS r WHERE r.private = ?)", false)
	}
	if err := sel.GroupExpr(bucket, activity.HeatmapWindow).OrderExpr("\"timestamp\" ASC").Scan(ctx, &out); err != nil {
		return nil, activityMapping.mapErr(err)
	}
	list := make([]activity.HeatmapBucket, len(out))
	for i, b := range out {
		list[i] = activity.HeatmapBucket{Timestamp: b.Timestamp, Contributions: b.Contributions}
	}
	return list, nil
}

// insertActivitySQL is Add's statement on SQLite's writer, one record at a
// time: every issue, comment and push records one, in its transaction.
const insertActivitySQL = `INSERT INTO activities (user_id, act_user_id, op_type, repo_id, repo_owner_id,
	comment_id, ref_name, content, is_private, created_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`

// addPrepared inserts rows through the writer's prepared statement (see
// prepared_writes.go): ok false when it is not available where the call
// runs.
func (s *ActivityStore) addPrepared(ctx context.Context, rows []activityRow) (ok bool, err error) {
	tx, inTx := s.c.w(ctx).(bun.Tx)
	if !inTx {
		return false, nil
	}
	ins, ok := s.c.writerStmt(ctx, tx, insertActivitySQL)
	if !ok {
		return false, nil
	}
	defer ins.done()
	for i := range rows {
		r := &rows[i]
		if err := ins.queryRow(ctx, r.UserID, r.ActUserID, r.OpType, r.RepoID, r.RepoOwnerID, r.CommentID,
			r.RefName, r.Content, r.IsPrivate, r.CreatedUnix).Scan(&r.ID); err != nil {
			return true, err
		}
	}
	return true, nil
}

// DeleteBefore removes the records made before t in one statement.
func (s *ActivityStore) DeleteBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := s.c.w(ctx).NewDelete().Model((*activityRow)(nil)).Where("created_unix < ?", t.Unix()).Exec(ctx)
	if err != nil {
		return 0, activityMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	return n, activityMapping.mapErr(err)
}
