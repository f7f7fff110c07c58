package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var issueWatchMapping = mapping{op: "issue watch", notFound: "issue watch does not exist", missingRef: "issue does not exist"}

type issueWatchRow struct {
	bun.BaseModel `bun:"table:issue_watches,alias:iw"`

	IssueID    int64     `bun:"issue_id,pk"`
	UserID     int64     `bun:"user_id,pk"`
	IsWatching bool      `bun:"is_watching"`
	CreatedAt  time.Time `bun:"created_at"`
}

// SetWatch upserts the user's explicit choice.
func (st *IssueRelationStore) SetWatch(ctx context.Context, issueID, userID int64, watching bool) error {
	row := &issueWatchRow{IssueID: issueID, UserID: userID, IsWatching: watching, CreatedAt: now()}
	_, err := st.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (issue_id, user_id) DO UPDATE").Set("is_watching = EXCLUDED.is_watching").Exec(ctx)
	return issueWatchMapping.mapErr(err)
}

// Watch returns the user's explicit choice.
func (st *IssueRelationStore) Watch(ctx context.Context, issueID, userID int64) (bool, error) {
	row := new(issueWatchRow)
	err := st.c.r(ctx).NewSelect().Model(row).Where("iw.issue_id = ?", issueID).Where("iw.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return false, issueWatchMapping.mapErr(err)
	}
	return row.IsWatching, nil
}

// Watchers lists one page of the explicit watchers, by user id.
func (st *IssueRelationStore) Watchers(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	var rows []issueWatchRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).Where("iw.issue_id = ?", issueID).
		Where("iw.is_watching = ?", true).OrderExpr("iw.user_id")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, issueWatchMapping.mapErr(err)
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.UserID
	}
	return out, int64(total), nil
}

// Ignorers lists the users who opted out of the issue, by user id.
func (st *IssueRelationStore) Ignorers(ctx context.Context, issueID int64) ([]int64, error) {
	out := []int64{}
	err := st.c.r(ctx).NewSelect().Model((*issueWatchRow)(nil)).Column("iw.user_id").Where("iw.issue_id = ?", issueID).
		Where("iw.is_watching = ?", false).OrderExpr("iw.user_id").Scan(ctx, &out)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, issueWatchMapping.mapErr(err)
	}
	return out, nil
}

// participantsSQL is the poster, assignees and plain-comment posters of an
// issue (four times the issue id).
const participantsSQL = `SELECT poster_id AS uid FROM issues WHERE id = ?
	UNION SELECT user_id FROM issue_assignees WHERE issue_id = ?
	UNION SELECT poster_id FROM comments WHERE issue_id = ? AND type = 0`

// IsParticipant reports whether the user posted, is assigned to or
// commented on the issue, in one query.
func (st *IssueRelationStore) IsParticipant(ctx context.Context, issueID, userID int64) (bool, error) {
	var n int
	q := "SELECT COUNT(*) FROM (" + participantsSQL + ") AS p WHERE p.uid = ?"
	if err := st.c.r(ctx).NewRaw(q, issueID, issueID, issueID, userID).Scan(ctx, &n); err != nil {
		return false, issueWatchMapping.mapErr(err)
	}
	return n > 0, nil
}

// subscribersFrom is the set of subscribers of an issue (its id five
// times): explicit watchers and participants, less those who opted out,
// among existing accounts.
const subscribersFrom = ` FROM (
	SELECT user_id AS uid FROM issue_watches WHERE issue_id = ? AND is_watching = ?
	UNION ` + participantsSQL + `
) AS s JOIN users AS u ON u.id = s.uid
WHERE NOT EXISTS (SELECT 1 FROM issue_watches AS w WHERE w.issue_id = ? AND w.user_id = s.uid AND w.is_watching = ?)`

// Subscribers lists one page of the subscribers in SQL, and their total.
func (st *IssueRelationStore) Subscribers(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	db := st.c.r(ctx)
	args := []any{issueID, true, issueID, issueID, issueID, issueID, false}
	var total int64
	if err := db.NewRaw("SELECT COUNT(*)"+subscribersFrom, args...).Scan(ctx, &total); err != nil {
		return nil, 0, issueWatchMapping.mapErr(err)
	}
	q := "SELECT s.uid" + subscribersFrom + " ORDER BY s.uid"
	if opts.Limit > 0 {
		q += " LIMIT ? OFFSET ?"
		args = append(args, opts.Limit, opts.Offset())
	}
	out := []int64{}
	if err := db.NewRaw(q, args...).Scan(ctx, &out); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, issueWatchMapping.mapErr(err)
	}
	return out, total, nil
}
