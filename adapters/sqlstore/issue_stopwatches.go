package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var stopwatchMapping = mapping{
	op: "stopwatch", notFound: "stopwatch does not exist", conflict: "a stopwatch is already running",
	missingRef: "issue does not exist",
}

type stopwatchRow struct {
	bun.BaseModel `bun:"table:stopwatches,alias:sw"`

	ID        int64     `bun:"id,pk,autoincrement"`
	IssueID   int64     `bun:"issue_id"`
	UserID    int64     `bun:"user_id"`
	CreatedAt time.Time `bun:"created_at"`
}

func (r *stopwatchRow) toDomain() *issue.Stopwatch {
	return &issue.Stopwatch{ID: r.ID, IssueID: r.IssueID, UserID: r.UserID, CreatedAt: domainTime(r.CreatedAt)}
}

// StartStopwatch inserts s; the unique index on user_id refuses a second
// running stopwatch as a conflict.
func (st *TrackedTimeStore) StartStopwatch(ctx context.Context, s *issue.Stopwatch) error {
	row := &stopwatchRow{IssueID: s.IssueID, UserID: s.UserID, CreatedAt: dbTime(s.CreatedAt)}
	if _, err := st.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return stopwatchMapping.mapErr(err)
	}
	s.ID = row.ID
	return nil
}

// Stopwatch returns the user's stopwatch on the issue.
func (st *TrackedTimeStore) Stopwatch(ctx context.Context, issueID, userID int64) (*issue.Stopwatch, error) {
	row := new(stopwatchRow)
	err := st.c.r(ctx).NewSelect().Model(row).Where("sw.issue_id = ?", issueID).Where("sw.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, stopwatchMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// UserStopwatch returns the user's running stopwatch.
func (st *TrackedTimeStore) UserStopwatch(ctx context.Context, userID int64) (*issue.Stopwatch, error) {
	row := new(stopwatchRow)
	err := st.c.r(ctx).NewSelect().Model(row).Where("sw.user_id = ?", userID).OrderExpr("sw.id").Limit(1).Scan(ctx)
	if err != nil {
		return nil, stopwatchMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// UserStopwatches lists one page of the user's stopwatches and the total.
func (st *TrackedTimeStore) UserStopwatches(ctx context.Context, userID int64, opts ports.ListOptions) ([]*issue.Stopwatch, int64, error) {
	var rows []stopwatchRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).Where("sw.user_id = ?", userID).OrderExpr("sw.id")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, stopwatchMapping.mapErr(err)
	}
	return domainAll(rows, (*stopwatchRow).toDomain), int64(total), nil
}

// DeleteStopwatch removes one stopwatch.
func (st *TrackedTimeStore) DeleteStopwatch(ctx context.Context, id int64) error {
	res, err := st.c.w(ctx).NewDelete().Model((*stopwatchRow)(nil)).Where("id = ?", id).Exec(ctx)
	return stopwatchMapping.affected(res, err)
}
