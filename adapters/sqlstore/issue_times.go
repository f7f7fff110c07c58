package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.TrackedTimeStore = (*TrackedTimeStore)(nil)

var trackedTimeMapping = mapping{op: "tracked time", notFound: "tracked time does not exist", missingRef: "issue does not exist"}

type trackedTimeRow struct {
	bun.BaseModel `bun:"table:tracked_times,alias:tt"`

	ID        int64     `bun:"id,pk,autoincrement"`
	IssueID   int64     `bun:"issue_id"`
	RepoID    int64     `bun:"repo_id"`
	UserID    int64     `bun:"user_id"`
	Seconds   int64     `bun:"seconds"`
	CreatedAt time.Time `bun:"created_at"`
}

func (r *trackedTimeRow) toDomain() *issue.TrackedTime {
	return &issue.TrackedTime{ID: r.ID, IssueID: r.IssueID, UserID: r.UserID, Seconds: r.Seconds, CreatedAt: domainTime(r.CreatedAt)}
}

// TrackedTimeStore implements ports.TrackedTimeStore with bun.
type TrackedTimeStore struct{ c conn }

// Add inserts t with its issue's repository, read in the same statement.
func (st *TrackedTimeStore) Add(ctx context.Context, t *issue.TrackedTime) error {
	row := &trackedTimeRow{IssueID: t.IssueID, UserID: t.UserID, Seconds: t.Seconds, CreatedAt: dbTime(t.CreatedAt)}
	_, err := st.c.w(ctx).NewInsert().Model(row).
		Value("repo_id", "COALESCE((SELECT repo_id FROM issues WHERE id = ?), 0)", t.IssueID).
		Returning("id").Exec(ctx)
	if err != nil {
		return trackedTimeMapping.mapErr(err)
	}
	t.ID = row.ID
	return nil
}

// GetByID returns one tracked time.
func (st *TrackedTimeStore) GetByID(ctx context.Context, id int64) (*issue.TrackedTime, error) {
	row := new(trackedTimeRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("tt.id = ?", id).Scan(ctx); err != nil {
		return nil, trackedTimeMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIDs finds these tracked times in one query; absent ids are skipped.
func (st *TrackedTimeStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.TrackedTime, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []trackedTimeRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("tt.id IN (?)", bun.List(ids)).
		Order("tt.id ASC").Scan(ctx); err != nil {
		return nil, trackedTimeMapping.mapErr(err)
	}
	return domainAll(rows, (*trackedTimeRow).toDomain), nil
}

// List returns one page of matching times, oldest first, and the total.
func (st *TrackedTimeStore) List(ctx context.Context, q ports.TrackedTimeQuery) ([]*issue.TrackedTime, int64, error) {
	var rows []trackedTimeRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).OrderExpr("tt.created_at ASC, tt.id ASC")
	if q.IssueID != 0 {
		sel = sel.Where("tt.issue_id = ?", q.IssueID)
	}
	if q.RepoID != 0 {
		sel = sel.Where("tt.repo_id = ?", q.RepoID)
	}
	if q.UserID != 0 {
		sel = sel.Where("tt.user_id = ?", q.UserID)
	}
	if !q.Since.IsZero() {
		sel = sel.Where("tt.created_at >= ?", dbTime(q.Since))
	}
	if !q.Before.IsZero() {
		sel = sel.Where("tt.created_at <= ?", dbTime(q.Before))
	}
	total, err := page(sel, q.ListOptions).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, trackedTimeMapping.mapErr(err)
	}
	return domainAll(rows, (*trackedTimeRow).toDomain), int64(total), nil
}

// Delete removes one tracked time.
func (st *TrackedTimeStore) Delete(ctx context.Context, id int64) error {
	res, err := st.c.w(ctx).NewDelete().Model((*trackedTimeRow)(nil)).Where("id = ?", id).Exec(ctx)
	return trackedTimeMapping.affected(res, err)
}

// DeleteByIssueUser removes the user's times on the issue and returns
// their sum, read in the same transaction.
func (st *TrackedTimeStore) DeleteByIssueUser(ctx context.Context, issueID, userID int64) (int64, error) {
	var sum int64
	err := st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var total sql.NullInt64
		if err := tx.NewSelect().Model((*trackedTimeRow)(nil)).ColumnExpr("SUM(tt.seconds)").
			Where("tt.issue_id = ?", issueID).Where("tt.user_id = ?", userID).Scan(ctx, &total); err != nil {
			return trackedTimeMapping.mapErr(err)
		}
		sum = total.Int64
		_, err := tx.NewDelete().Model((*trackedTimeRow)(nil)).
			Where("issue_id = ?", issueID).Where("user_id = ?", userID).Exec(ctx)
		return trackedTimeMapping.mapErr(err)
	})
	return sum, err
}

// TotalOfIssues sums the tracked seconds per issue in one grouped query;
// issues without times are absent from the map.
func (st *TrackedTimeStore) TotalOfIssues(ctx context.Context, issueIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(issueIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		IssueID int64 `bun:"issue_id"`
		Total   int64 `bun:"total"`
	}
	err := st.c.r(ctx).NewSelect().Model((*trackedTimeRow)(nil)).
		ColumnExpr("tt.issue_id AS issue_id").ColumnExpr("SUM(tt.seconds) AS total").
		Where("tt.issue_id IN (?)", bun.List(issueIDs)).GroupExpr("tt.issue_id").Scan(ctx, &rows)
	if err != nil {
		return nil, trackedTimeMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.IssueID] = r.Total
	}
	return out, nil
}
