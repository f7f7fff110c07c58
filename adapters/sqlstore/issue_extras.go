package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var (
	_ ports.TrackedTimeStore   = (*TrackedTimeStore)(nil)
	_ ports.IssueRelationStore = (*IssueRelationStore)(nil)
)

var (
	trackedTimeMapping = mapping{op: "tracked time", notFound: "tracked time does not exist", missingRef: "issue does not exist"}
	stopwatchMapping   = mapping{
		op: "stopwatch", notFound: "stopwatch does not exist", conflict: "a stopwatch is already running",
		missingRef: "issue does not exist",
	}
	dependencyMapping = mapping{
		op: "issue dependency", notFound: "issue dependency does not exist",
		conflict: "issue dependency does already exist", missingRef: "issue does not exist",
	}
	issueWatchMapping = mapping{op: "issue watch", notFound: "issue watch does not exist", missingRef: "issue does not exist"}
	pinMapping        = mapping{op: "issue pin", notFound: "issue does not exist"}
)

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

type issueDependencyRow struct {
	bun.BaseModel `bun:"table:issue_dependencies,alias:dep"`

	IssueID      int64     `bun:"issue_id,pk"`
	DependencyID int64     `bun:"dependency_id,pk"`
	CreatedAt    time.Time `bun:"created_at"`
}

type issueWatchRow struct {
	bun.BaseModel `bun:"table:issue_watches,alias:iw"`

	IssueID    int64     `bun:"issue_id,pk"`
	UserID     int64     `bun:"user_id,pk"`
	IsWatching bool      `bun:"is_watching"`
	CreatedAt  time.Time `bun:"created_at"`
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

// IssueRelationStore implements ports.IssueRelationStore with bun.
type IssueRelationStore struct{ c conn }

// AddDependency records the link; the primary key refuses it twice.
func (st *IssueRelationStore) AddDependency(ctx context.Context, issueID, dependsOnID int64) error {
	row := &issueDependencyRow{IssueID: issueID, DependencyID: dependsOnID, CreatedAt: now()}
	_, err := st.c.w(ctx).NewInsert().Model(row).Exec(ctx)
	return dependencyMapping.mapErr(err)
}

// RemoveDependency deletes the link.
func (st *IssueRelationStore) RemoveDependency(ctx context.Context, issueID, dependsOnID int64) error {
	res, err := st.c.w(ctx).NewDelete().Model((*issueDependencyRow)(nil)).
		Where("issue_id = ?", issueID).Where("dependency_id = ?", dependsOnID).Exec(ctx)
	return dependencyMapping.affected(res, err)
}

// HasDependency reports whether the direct link exists.
func (st *IssueRelationStore) HasDependency(ctx context.Context, issueID, dependsOnID int64) (bool, error) {
	ok, err := st.c.r(ctx).NewSelect().Model((*issueDependencyRow)(nil)).
		Where("dep.issue_id = ?", issueID).Where("dep.dependency_id = ?", dependsOnID).Exists(ctx)
	return ok, dependencyMapping.mapErr(err)
}

// Dependencies lists one page of what issueID depends on.
func (st *IssueRelationStore) Dependencies(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	return st.links(ctx, "dep.issue_id", "dep.dependency_id", issueID, opts)
}

// Blocks lists one page of what depends on issueID.
func (st *IssueRelationStore) Blocks(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	return st.links(ctx, "dep.dependency_id", "dep.issue_id", issueID, opts)
}

func (st *IssueRelationStore) links(ctx context.Context, by, other string, id int64, opts ports.ListOptions) ([]int64, int64, error) {
	var rows []issueDependencyRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).Where("? = ?", bun.Safe(by), id).
		OrderExpr("dep.created_at ASC").OrderExpr("? ASC", bun.Safe(other))
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, dependencyMapping.mapErr(err)
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		if by == "dep.issue_id" {
			out[i] = r.DependencyID
		} else {
			out[i] = r.IssueID
		}
	}
	return out, int64(total), nil
}

// dependsSQL walks the dependency graph from an issue; UNION (not UNION
// ALL) drops rows already seen, so a cycle left by old data still ends.
const dependsSQL = `WITH RECURSIVE reach(id) AS (
	SELECT dependency_id FROM issue_dependencies WHERE issue_id = ?
	UNION
	SELECT d.dependency_id FROM issue_dependencies AS d JOIN reach ON d.issue_id = reach.id
) SELECT COUNT(*) FROM reach WHERE id = ?`

// DependsTransitively walks the links from from in one recursive query.
func (st *IssueRelationStore) DependsTransitively(ctx context.Context, from, to int64) (bool, error) {
	var n int
	if err := st.c.r(ctx).NewRaw(dependsSQL, from, to).Scan(ctx, &n); err != nil {
		return false, dependencyMapping.mapErr(err)
	}
	return n > 0, nil
}

// HasOpenDependencies looks for an open issue among issueID's
// dependencies in one query.
func (st *IssueRelationStore) HasOpenDependencies(ctx context.Context, issueID int64) (bool, error) {
	ok, err := st.c.r(ctx).NewSelect().Model((*issueDependencyRow)(nil)).
		Join("JOIN issues AS i ON i.id = dep.dependency_id").
		Where("dep.issue_id = ?", issueID).Where("i.is_closed = ?", false).Exists(ctx)
	return ok, dependencyMapping.mapErr(err)
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

// pinState is what the pin writes need of an issue.
type pinState struct {
	RepoID   int64 `bun:"repo_id"`
	IsPull   bool  `bun:"is_pull"`
	PinOrder int   `bun:"pin_order"`
}

// pinned reads the issue's pin state after locking its repository's row
// (on Postgres), so pin writes of one repository run one at a time and the
// positions stay dense.
func pinned(ctx context.Context, tx bun.IDB, issueID int64) (pinState, error) {
	var p pinState
	err := tx.NewSelect().Table("issues").Column("repo_id", "is_pull", "pin_order").Where("id = ?", issueID).Scan(ctx, &p)
	if err != nil {
		return p, pinMapping.mapErr(err)
	}
	if err := lockRows(ctx, tx, "repos", []int64{p.RepoID}); err != nil {
		return p, pinMapping.mapErr(err)
	}
	// Read again under the lock: another writer may have moved it.
	err = tx.NewSelect().Table("issues").Column("repo_id", "is_pull", "pin_order").Where("id = ?", issueID).Scan(ctx, &p)
	return p, pinMapping.mapErr(err)
}

func countPinned(ctx context.Context, tx bun.IDB, p pinState) (int, error) {
	n, err := tx.NewSelect().Table("issues").Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull).
		Where("pin_order > 0").Count(ctx)
	return int(n), pinMapping.mapErr(err)
}

// Pin puts the issue last among the pinned ones of its kind.
func (st *IssueRelationStore) Pin(ctx context.Context, issueID int64) (int, error) {
	var pos int
	err := st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil {
			return err
		}
		if p.PinOrder > 0 {
			pos = p.PinOrder
			return nil
		}
		n, err := countPinned(ctx, tx, p)
		if err != nil {
			return err
		}
		pos = n + 1
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = ?", pos).Where("id = ?", issueID).Exec(ctx)
		return pinMapping.mapErr(err)
	})
	return pos, err
}

// Unpin clears the issue's position and moves the ones after it up.
func (st *IssueRelationStore) Unpin(ctx context.Context, issueID int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil || p.PinOrder == 0 {
			return err
		}
		if _, err := tx.NewUpdate().Table("issues").Set("pin_order = 0").Where("id = ?", issueID).Exec(ctx); err != nil {
			return pinMapping.mapErr(err)
		}
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = pin_order - 1").
			Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull).Where("pin_order > ?", p.PinOrder).Exec(ctx)
		return pinMapping.mapErr(err)
	})
}

// MovePin shifts the issues between the old and new positions by one and
// puts the issue at the new one (clamped to the last position).
func (st *IssueRelationStore) MovePin(ctx context.Context, issueID int64, position int) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		p, err := pinned(ctx, tx, issueID)
		if err != nil {
			return err
		}
		if p.PinOrder == 0 {
			return errs.NotFound("issue is not pinned")
		}
		n, err := countPinned(ctx, tx, p)
		if err != nil {
			return err
		}
		to, err := issue.PinPosition(position, n)
		if err != nil || to == p.PinOrder {
			return err
		}
		shift := tx.NewUpdate().Table("issues").Where("repo_id = ?", p.RepoID).Where("is_pull = ?", p.IsPull)
		if to < p.PinOrder {
			shift = shift.Set("pin_order = pin_order + 1").Where("pin_order >= ?", to).Where("pin_order < ?", p.PinOrder)
		} else {
			shift = shift.Set("pin_order = pin_order - 1").Where("pin_order > ?", p.PinOrder).Where("pin_order <= ?", to)
		}
		if _, err := shift.Exec(ctx); err != nil {
			return pinMapping.mapErr(err)
		}
		_, err = tx.NewUpdate().Table("issues").Set("pin_order = ?", to).Where("id = ?", issueID).Exec(ctx)
		return pinMapping.mapErr(err)
	})
}

// Pinned lists the pinned issues of one kind in pin order.
func (st *IssueRelationStore) Pinned(ctx context.Context, repoID int64, isPull bool) ([]int64, error) {
	ids := []int64{}
	err := st.c.r(ctx).NewSelect().Table("issues").Column("id").Where("repo_id = ?", repoID).
		Where("is_pull = ?", isPull).Where("pin_order > 0").OrderExpr("pin_order ASC, id ASC").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, pinMapping.mapErr(err)
	}
	return ids, nil
}
