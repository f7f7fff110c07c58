package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// IssueStore implements ports.IssueStore with bun. The search index is
// kept by the database (migration 000013); the listing's filters are in
// issues_query.go.
type IssueStore struct{ c conn }

var _ ports.IssueStore = (*IssueStore)(nil)

var issueMapping = mapping{
	op: "issue", notFound: "issue does not exist", conflict: "issue already exists",
	missingRef: "repository does not exist",
}

// issueRow is one row of issues. The alias is the table's name because the
// Postgres search index is over an expression naming issues.title and
// issues.body, which a query must repeat exactly.
type issueRow struct {
	bun.BaseModel `bun:"table:issues,alias:issues"`

	ID          int64      `bun:"id,pk,autoincrement"`
	RepoID      int64      `bun:"repo_id"`
	Index       int64      `bun:"issue_index"`
	PosterID    int64      `bun:"poster_id"`
	OrigAuthor  string     `bun:"original_author"`
	OrigAuthID  int64      `bun:"original_author_id"`
	Title       string     `bun:"title"`
	Body        string     `bun:"body"`
	Ref         string     `bun:"ref"`
	IsPull      bool       `bun:"is_pull"`
	IsClosed    bool       `bun:"is_closed"`
	IsLocked    bool       `bun:"is_locked"`
	PinOrder    int        `bun:"pin_order"`
	MilestoneID int64      `bun:"milestone_id"`
	Deadline    *time.Time `bun:"deadline"`
	NumComments int        `bun:"num_comments"`
	CreatedAt   time.Time  `bun:"created_at"`
	UpdatedAt   time.Time  `bun:"updated_at"`
	ClosedAt    *time.Time `bun:"closed_at"`
}

// issueUpdateExcluded are the columns Update leaves alone: the identity,
// the creation time, the comment counter the comment store keeps, and the
// pin position the relation store keeps (an edit holding an older copy of
// the issue must not undo a pin move).
var issueUpdateExcluded = []string{"id", "repo_id", "issue_index", "created_at", "num_comments", "pin_order"}

func dbTimePtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	v := dbTime(*t)
	return &v
}

func domainTimePtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	v := t.UTC()
	return &v
}

func toIssueRow(i *issue.Issue) *issueRow {
	return &issueRow{
		ID: i.ID, RepoID: i.RepoID, Index: i.Index, PosterID: i.PosterID, Title: i.Title, Body: i.Body,
		OrigAuthor: i.OriginalAuthor, OrigAuthID: i.OriginalAuthorID, Ref: i.Ref, IsPull: i.IsPull, IsClosed: i.IsClosed, IsLocked: i.IsLocked, PinOrder: i.PinOrder,
		MilestoneID: i.MilestoneID, Deadline: dbTimePtr(i.Deadline), NumComments: i.NumComments,
		CreatedAt: dbTime(i.CreatedAt), UpdatedAt: dbTime(i.UpdatedAt), ClosedAt: dbTimePtr(i.ClosedAt),
	}
}

func (r *issueRow) toDomain() *issue.Issue {
	return &issue.Issue{
		ID: r.ID, RepoID: r.RepoID, Index: r.Index, PosterID: r.PosterID, Title: r.Title, Body: r.Body,
		OriginalAuthor: r.OrigAuthor, OriginalAuthorID: r.OrigAuthID, Ref: r.Ref, IsPull: r.IsPull, IsClosed: r.IsClosed, IsLocked: r.IsLocked, PinOrder: r.PinOrder,
		MilestoneID: r.MilestoneID, Deadline: domainTimePtr(r.Deadline), NumComments: r.NumComments,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTime(r.UpdatedAt), ClosedAt: domainTimePtr(r.ClosedAt),
	}
}

func issueToDomain(r *issueRow) *issue.Issue { return r.toDomain() }

// nextIndexSQL allocates a repository's next index. The upsert takes the
// row's lock until the transaction ends, so concurrent creators queue on
// it and never see the same value; the first issue creates the row.
const nextIndexSQL = `INSERT INTO issue_indexes (repo_id, max_index) VALUES (?, 1)
	ON CONFLICT (repo_id) DO UPDATE SET max_index = issue_indexes.max_index + 1
	RETURNING max_index`

// Create allocates the next index, inserts i (setting ID and Index) and
// counts it on its repository, in one transaction.
func (st *IssueStore) Create(ctx context.Context, i *issue.Issue) error {
	return st.c.inTx(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := toIssueRow(i)
		row.ID = 0
		if ok, err := st.createPrepared(ctx, tx, row); ok {
			if err == nil {
				created(i, row)
			}
			return err
		}
		var idx int64
		if err := tx.NewRaw(nextIndexSQL, i.RepoID).Scan(ctx, &idx); err != nil {
			return issueMapping.mapErr(err)
		}
		row.Index = idx
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return issueMapping.mapErr(err)
		}
		if err := adjustRepoCounters(ctx, tx, i.RepoID, i.IsPull, 1, boolInt(i.IsClosed)); err != nil {
			return err
		}
		created(i, row)
		return nil
	})
}

// created gives i the identity and the times row was stored with: the
// columns keep microseconds, so the answer of a creation built from i
// shows what a later read shows.
func created(i *issue.Issue, row *issueRow) {
	i.ID, i.Index = row.ID, row.Index
	i.CreatedAt, i.UpdatedAt = domainTime(row.CreatedAt), domainTime(row.UpdatedAt)
	i.Deadline, i.ClosedAt = domainTimePtr(row.Deadline), domainTimePtr(row.ClosedAt)
}

// inTx runs fn in the ctx's transaction as it is when there is one, else
// in a new one: unlike atomic it takes no savepoint, which costs two
// statements on the hot write path; a failure then leaves the outer
// transaction to its caller, who rolls it back.
func (c conn) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.IDB) error) error {
	if tx, ok := c.w(ctx).(bun.Tx); ok {
		return fn(ctx, tx)
	}
	return c.atomic(ctx, fn)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// adjustRepoCounters moves the repository's issue (or pull) counters by
// total and closed. A relative update is atomic under the row's lock, so
// concurrent writers never lose a count, and costs the same however many
// issues the repository has.
func adjustRepoCounters(ctx context.Context, tx bun.IDB, repoID int64, isPull bool, total, closed int) error {
	if total == 0 && closed == 0 {
		return nil
	}
	q := `UPDATE repos SET num_issues = num_issues + ?, num_closed_issues = num_closed_issues + ? WHERE id = ?`
	if isPull {
		q = `UPDATE repos SET num_pulls = num_pulls + ?, num_closed_pulls = num_closed_pulls + ? WHERE id = ?`
	}
	_, err := tx.ExecContext(ctx, q, total, closed, repoID)
	return issueMapping.mapErr(err)
}

// GetByID finds an issue by primary key.
func (st *IssueStore) GetByID(ctx context.Context, id int64) (*issue.Issue, error) {
	row := new(issueRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("issues.id = ?", id).Scan(ctx); err != nil {
		return nil, issueMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIndex finds a repository's issue by its index, through the unique
// (repo_id, issue_index) index.
//
// Every route below an issue opens it first: on SQLite the read is a
// prepared statement scanned without bun's reflection (issue_rows_scan.go).
func (st *IssueStore) GetByIndex(ctx context.Context, repoID, index int64) (*issue.Issue, error) {
	if ps := st.c.sqliteReadStmt(ctx, issueByIndexText); ps != nil {
		rows, err := queryRows(ctx, ps, scanIssueRows, repoID, index)
		if err != nil {
			return nil, issueMapping.mapErr(err)
		}
		if len(rows) == 0 {
			return nil, issueMapping.mapErr(sql.ErrNoRows)
		}
		return rows[0].toDomain(), nil
	}
	row := new(issueRow)
	err := st.c.r(ctx).NewSelect().Model(row).
		Where("issues.repo_id = ?", repoID).Where("issues.issue_index = ?", index).Scan(ctx)
	if err != nil {
		return nil, issueMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// issueByIndexText is GetByIndex on SQLite.
var issueByIndexText = "SELECT " + issueListSelect + " FROM issues WHERE issues.repo_id = ? AND issues.issue_index = ?"

// GetByIDs finds these issues in one query, by id.
func (st *IssueStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Issue, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []issueRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("issues.id IN (?)", bun.In(ids)).
		Order("issues.id").Scan(ctx); err != nil {
		return nil, issueMapping.mapErr(err)
	}
	return domainAll(rows, issueToDomain), nil
}

// Update writes i's mutable columns. A change of state (or of kind) moves
// the repository's counters in the same transaction; the search index
// follows the title and body by itself (migration 000013).
func (st *IssueStore) Update(ctx context.Context, i *issue.Issue) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var prev issueRow
		err := tx.NewSelect().Model(&prev).Column("repo_id", "is_pull", "is_closed").
			Where("issues.id = ?", i.ID).Scan(ctx)
		if err != nil {
			return issueMapping.mapErr(err)
		}
		row := toIssueRow(i)
		res, err := tx.NewUpdate().Model(row).WherePK().ExcludeColumn(issueUpdateExcluded...).Exec(ctx)
		if err := issueMapping.affected(res, err); err != nil {
			return err
		}
		if prev.IsPull == i.IsPull {
			return adjustRepoCounters(ctx, tx, prev.RepoID, i.IsPull, 0, boolInt(i.IsClosed)-boolInt(prev.IsClosed))
		}
		if err := adjustRepoCounters(ctx, tx, prev.RepoID, prev.IsPull, -1, -boolInt(prev.IsClosed)); err != nil {
			return err
		}
		return adjustRepoCounters(ctx, tx, prev.RepoID, i.IsPull, 1, boolInt(i.IsClosed))
	})
}

// Touch sets updated_at.
func (st *IssueStore) Touch(ctx context.Context, id int64, at time.Time) error {
	res, err := st.c.w(ctx).NewUpdate().Model((*issueRow)(nil)).Set("updated_at = ?", dbTime(at)).
		Where("id = ?", id).Exec(ctx)
	return issueMapping.affected(res, err)
}

// Delete removes the issue. The foreign keys cascade to its comments,
// labels, assignees, reactions, attachment rows, times, stopwatches,
// dependencies (both ways) and subscriptions; the references other issues'
// timelines make to it go too, as in Gitea. The repository's counters are
// moved here; label and milestone counters are the caller's to recount.
func (st *IssueStore) Delete(ctx context.Context, id int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var prev issueRow
		err := tx.NewSelect().Model(&prev).Column("repo_id", "is_pull", "is_closed", "pin_order").
			Where("issues.id = ?", id).Scan(ctx)
		if err != nil {
			return issueMapping.mapErr(err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM comments WHERE ref_issue_id = ?", id); err != nil {
			return issueMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*issueRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err := issueMapping.affected(res, err); err != nil {
			return err
		}
		if prev.PinOrder > 0 {
			// The pins after it move up, so positions stay 1..n.
			if _, err := tx.ExecContext(ctx, `UPDATE issues SET pin_order = pin_order - 1
				WHERE repo_id = ? AND is_pull = ? AND pin_order > ?`, prev.RepoID, prev.IsPull, prev.PinOrder); err != nil {
				return issueMapping.mapErr(err)
			}
		}
		return adjustRepoCounters(ctx, tx, prev.RepoID, prev.IsPull, -1, -boolInt(prev.IsClosed))
	})
}

// recountIssuesSQL recomputes every issue and pull counter of a repository
// in one pass over its rows.
const recountIssuesSQL = `UPDATE repos SET
	num_issues = (SELECT count(*) FROM issues WHERE issues.repo_id = repos.id AND NOT issues.is_pull),
	num_closed_issues = (SELECT count(*) FROM issues WHERE issues.repo_id = repos.id AND NOT issues.is_pull AND issues.is_closed),
	num_pulls = (SELECT count(*) FROM issues WHERE issues.repo_id = repos.id AND issues.is_pull),
	num_closed_pulls = (SELECT count(*) FROM issues WHERE issues.repo_id = repos.id AND issues.is_pull AND issues.is_closed)
	WHERE repos.id = ?`

// RecountRepo recomputes the repository's issue and pull counters from
// its rows. The repository row is locked first, so that on Postgres a
// concurrent writer's commit is counted (see lockRows).
func (st *IssueStore) RecountRepo(ctx context.Context, repoID int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return issueMapping.mapErr(err)
		}
		res, err := tx.ExecContext(ctx, recountIssuesSQL, repoID)
		return repoMapping.affected(res, err)
	})
}

type issueAssigneeRow struct {
	bun.BaseModel `bun:"table:issue_assignees,alias:ia"`

	IssueID int64 `bun:"issue_id,pk"`
	UserID  int64 `bun:"user_id,pk"`
}

// Assignees returns the assignee ids of these issues in one query, each
// list by user id.
func (st *IssueStore) Assignees(ctx context.Context, issueIDs []int64) (map[int64][]int64, error) {
	out := make(map[int64][]int64, len(issueIDs))
	if len(issueIDs) == 0 {
		return out, nil
	}
	var rows []issueAssigneeRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("ia.issue_id IN (?)", bun.In(issueIDs)).
		Order("ia.issue_id", "ia.user_id").Scan(ctx); err != nil {
		return nil, issueMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.IssueID] = append(out[r.IssueID], r.UserID)
	}
	return out, nil
}

// SetAssignees replaces the issue's assignees (duplicates in userIDs count once).
func (st *IssueStore) SetAssignees(ctx context.Context, issueID int64, userIDs []int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.NewDelete().Model((*issueAssigneeRow)(nil)).Where("issue_id = ?", issueID).Exec(ctx); err != nil {
			return issueMapping.mapErr(err)
		}
		seen := map[int64]bool{}
		rows := make([]issueAssigneeRow, 0, len(userIDs))
		for _, id := range userIDs {
			if !seen[id] {
				seen[id] = true
				rows = append(rows, issueAssigneeRow{IssueID: issueID, UserID: id})
			}
		}
		if len(rows) == 0 {
			return nil
		}
		_, err := tx.NewInsert().Model(&rows).Exec(ctx)
		return mapping{op: "issue assignees", missingRef: "issue does not exist"}.mapErr(err)
	})
}

// Repositories loads these repositories with their owners in one query.
func (st *IssueStore) Repositories(ctx context.Context, ids []int64) ([]*repository.Repository, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []repoOwnerRow
	if err := selectRepos(st.c.r(ctx), &rows).Where("repo.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return nil, repoMapping.mapErr(err)
	}
	return reposToDomain(rows), nil
}
