package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.NotificationStore = (*NotificationStore)(nil)

var notificationMapping = mapping{
	op: "notification", notFound: "notification thread does not exist",
	conflict: "notification thread already exists", missingRef: "user or repository does not exist",
}

type notificationRow struct {
	bun.BaseModel `bun:"table:notifications,alias:n"`

	ID         int64     `bun:"id,pk,autoincrement"`
	UserID     int64     `bun:"user_id"`
	RepoID     int64     `bun:"repo_id"`
	Status     int       `bun:"status"`
	Subject    string    `bun:"subject"`
	SubjectKey string    `bun:"subject_key"`
	IssueID    int64     `bun:"issue_id"`
	CommitID   string    `bun:"commit_id"`
	CommentID  int64     `bun:"comment_id"`
	UpdatedBy  int64     `bun:"updated_by"`
	Created    time.Time `bun:"created"`
	Updated    time.Time `bun:"updated"`
}

func (r *notificationRow) toDomain() *notification.Thread {
	return &notification.Thread{
		ID: r.ID, UserID: r.UserID, RepoID: r.RepoID, Status: notification.Status(r.Status),
		Subject: notification.SubjectType(r.Subject), IssueID: r.IssueID, CommitID: r.CommitID,
		CommentID: r.CommentID, UpdatedBy: r.UpdatedBy, Created: r.Created.UTC(), Updated: r.Updated.UTC(),
	}
}

// NotificationStore is the SQL implementation of ports.NotificationStore
// over the notifications table (migration 000034).
type NotificationStore struct{ c conn }

// Notify upserts the threads in one statement on the (user, subject) key.
func (s *NotificationStore) Notify(ctx context.Context, ts []notification.Thread) error {
	if len(ts) == 0 {
		return nil
	}
	rows := make([]notificationRow, 0, len(ts))
	for _, t := range ts {
		st := t.Status
		if st == 0 {
			st = notification.StatusUnread
		}
		created := dbTime(t.Created)
		if t.Created.IsZero() {
			created = now()
		}
		updated := dbTime(t.Updated)
		if t.Updated.IsZero() {
			updated = created
		}
		rows = append(rows, notificationRow{
			UserID: t.UserID, RepoID: t.RepoID, Status: int(st), Subject: string(t.Subject),
			SubjectKey: notification.SubjectKey(t.Subject, t.IssueID, t.CommitID, t.RepoID),
			IssueID:    t.IssueID, CommitID: t.CommitID, CommentID: t.CommentID, UpdatedBy: t.UpdatedBy,
			Created: created, Updated: updated,
		})
	}
	_, err := s.c.w(ctx).NewInsert().Model(&rows).ExcludeColumn("id").
		On("CONFLICT (user_id, subject_key) DO UPDATE").
		Set("status = CASE WHEN n.status = ? THEN n.status ELSE EXCLUDED.status END", int(notification.StatusPinned)).
		Set("comment_id = EXCLUDED.comment_id").
		Set("updated_by = EXCLUDED.updated_by").
		Set("updated = EXCLUDED.updated").Exec(ctx)
	return notificationMapping.mapErr(err)
}

// filter applies q's conditions but its paging. The viewer's check is a
// set of the repositories it may see among those of its threads.
func (s *NotificationStore) filter(sq *bun.SelectQuery, q ports.NotificationQuery) *bun.SelectQuery {
	sq = sq.Where("n.user_id = ?", q.UserID)
	if q.Viewer != nil {
		visible := repoVisibleTo(sq.DB().NewSelect().TableExpr("repos AS repo").Column("repo.id").
			Where("repo.id IN (SELECT vn.repo_id FROM notifications AS vn WHERE vn.user_id = ?)", q.UserID), *q.Viewer)
		sq = sq.Where("n.repo_id IN (?)", visible)
	}
	if q.RepoID != 0 {
		sq = sq.Where("n.repo_id = ?", q.RepoID)
	}
	if len(q.Statuses) > 0 {
		ints := make([]int, 0, len(q.Statuses))
		for _, st := range q.Statuses {
			ints = append(ints, int(st))
		}
		sq = sq.Where("n.status IN (?)", bun.List(ints))
	}
	if len(q.Subjects) > 0 {
		strs := make([]string, 0, len(q.Subjects))
		for _, st := range q.Subjects {
			strs = append(strs, string(st))
		}
		sq = sq.Where("n.subject IN (?)", bun.List(strs))
	}
	if !q.Since.IsZero() {
		sq = sq.Where("n.updated >= ?", dbTime(q.Since))
	}
	if !q.Before.IsZero() {
		sq = sq.Where("n.updated <= ?", dbTime(q.Before))
	}
	return sq
}

// List pages the user's threads, newest update first.
func (s *NotificationStore) List(ctx context.Context, q ports.NotificationQuery) ([]*notification.Thread, int64, error) {
	var rows []notificationRow
	sq := s.filter(s.c.r(ctx).NewSelect().Model(&rows), q).OrderExpr("n.updated DESC, n.id DESC")
	if q.Limit > 0 {
		sq = sq.Limit(int64(q.Clamped().Limit)).Offset(int64(q.Offset()))
	}
	total, err := sq.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, notificationMapping.mapErr(err)
	}
	out := make([]*notification.Thread, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out, int64(total), nil
}

// CountUnread counts q's unread threads per repository from the (user,
// status, repository) index alone, then, with a viewer, keeps the counts of
// the repositories it may see among those (one small query): a count does
// not grow with the threads already read, nor probe visibility per thread.
func (s *NotificationStore) CountUnread(ctx context.Context, q ports.NotificationQuery) (int64, error) {
	perRepo, err := s.unreadPerRepo(ctx, q.UserID, q.RepoID)
	if err != nil {
		return 0, notificationMapping.mapErr(err)
	}
	if q.Viewer == nil {
		var total int64
		for _, r := range perRepo {
			total += r.N
		}
		return total, nil
	}
	return s.CountVisible(ctx, *q.Viewer, perRepo)
}

// UnreadPerRepo counts a user's unread threads per repository.
func (s *NotificationStore) UnreadPerRepo(ctx context.Context, userID int64) ([]ports.RepoUnread, error) {
	out, err := s.unreadPerRepo(ctx, userID, 0)
	return out, notificationMapping.mapErr(err)
}

// CountVisible sums the counts of the repositories of perRepo viewer sees.
func (s *NotificationStore) CountVisible(ctx context.Context, viewer ports.RepoViewer, perRepo []ports.RepoUnread) (int64, error) {
	if len(perRepo) == 0 {
		return 0, nil
	}
	visible := map[int64]bool{}
	ids := make([]int64, len(perRepo))
	for i, r := range perRepo {
		ids[i] = r.RepoID
	}
	// Most threads are of repositories every signed-in user sees: on
	// SQLite a prepared statement finds those, and only the others take
	// the viewer's full check.
	if ps := s.c.sqliteReadStmt(ctx, openReposText); ps != nil && viewer.UserID != 0 &&
		!viewer.Restricted && !viewer.PublicOnly {
		open, err := queryRows(ctx, ps, scanIDs, idsJSON(ids), string(user.VisibilityPrivate))
		if err != nil {
			return 0, notificationMapping.mapErr(err)
		}
		for _, id := range open {
			visible[id] = true
		}
		ids = ids[:0]
		for _, r := range perRepo {
			if !visible[r.RepoID] {
				ids = append(ids, r.RepoID)
			}
		}
	}
	if len(ids) > 0 {
		var seen []int64
		vq := repoVisibleTo(s.c.r(ctx).NewSelect().TableExpr("repos AS repo").Column("repo.id").
			Where("repo.id IN (?)", bun.List(ids)), viewer)
		if err := vq.Scan(ctx, &seen); err != nil {
			return 0, notificationMapping.mapErr(err)
		}
		for _, id := range seen {
			visible[id] = true
		}
	}
	var total int64
	for _, r := range perRepo {
		if visible[r.RepoID] {
			total += r.N
		}
	}
	return total, nil
}

// openReposText keeps, of a JSON array of repository ids, the public ones
// whose owner does not hide (visibility private): those any signed-in,
// unrestricted user sees (repoVisibleTo's first test).
const openReposText = `SELECT repo.id FROM repos AS repo
WHERE repo.id IN (SELECT value FROM json_each(?)) AND NOT repo.private
AND repo.owner_id NOT IN (SELECT hu.id FROM users AS hu WHERE hu.visibility = ?)`

// scanIDs reads a column of ids and closes the rows.
func scanIDs(rows *sql.Rows) ([]int64, error) {
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// unreadPerRepo is a user's unread threads per repository (of repoID
// alone when non-zero), read from the index; on SQLite through a prepared
// statement scanned by hand.
// unreadPerRepoText is unreadPerRepo's statement; the repository filter
// is off when its parameter is 0.
const unreadPerRepoText = `SELECT n.repo_id, COUNT(*) AS n FROM notifications AS n
WHERE n.user_id = ? AND n.status = ? AND (? = 0 OR n.repo_id = ?) GROUP BY n.repo_id`

// scanRepoUnread reads the rows of unreadPerRepoText and closes them.
func scanRepoUnread(rows *sql.Rows) ([]ports.RepoUnread, error) {
	defer rows.Close()
	var out []ports.RepoUnread
	for rows.Next() {
		var rc ports.RepoUnread
		if err := rows.Scan(&rc.RepoID, &rc.N); err != nil {
			return nil, err
		}
		out = append(out, rc)
	}
	return out, rows.Err()
}

func (s *NotificationStore) unreadPerRepo(ctx context.Context, userID, repoID int64) ([]ports.RepoUnread, error) {
	unread := int(notification.StatusUnread)
	var out []ports.RepoUnread
	if ps := s.c.sqliteReadStmt(ctx, unreadPerRepoText); ps != nil {
		return queryRows(ctx, ps, scanRepoUnread, userID, unread, repoID, repoID)
	}
	// bun names the fields repo_id and n, as the statement does.
	err := s.c.r(ctx).NewRaw(unreadPerRepoText, userID, unread, repoID, repoID).Scan(ctx, &out)
	return out, err
}

// Get reads one thread.
func (s *NotificationStore) Get(ctx context.Context, id int64) (*notification.Thread, error) {
	var row notificationRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where("n.id = ?", id).Scan(ctx); err != nil {
		return nil, notificationMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// SetStatus updates one thread.
func (s *NotificationStore) SetStatus(ctx context.Context, id int64, st notification.Status, updated time.Time) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*notificationRow)(nil)).
		Set("status = ?", int(st)).Set("updated = ?", dbTime(updated)).Where("id = ?", id).Exec(ctx)
	return notificationMapping.affected(res, err)
}

// MarkAll reads the matching ids, then updates them in one statement.
func (s *NotificationStore) MarkAll(ctx context.Context, q ports.NotificationQuery, to notification.Status, updated time.Time) ([]int64, error) {
	var ids []int64
	if err := s.filter(s.c.w(ctx).NewSelect().Model((*notificationRow)(nil)).Column("n.id"), q).
		OrderExpr("n.id ASC").Scan(ctx, &ids); err != nil {
		return nil, notificationMapping.mapErr(err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	_, err := s.c.w(ctx).NewUpdate().Model((*notificationRow)(nil)).
		Set("status = ?", int(to)).Set("updated = ?", dbTime(updated)).
		Where("id IN (?)", bun.List(ids)).Exec(ctx)
	if err != nil {
		return nil, notificationMapping.mapErr(err)
	}
	return ids, nil
}
