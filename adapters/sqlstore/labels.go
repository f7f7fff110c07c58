package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// LabelStore implements ports.LabelStore with bun.
type LabelStore struct{ c conn }

var _ ports.LabelStore = (*LabelStore)(nil)

var (
	labelMapping = mapping{op: "label", notFound: "label does not exist",
		missingRef: "repository or organization does not exist"}
	issueLabelMapping = mapping{op: "issue label", missingRef: "issue or label does not exist"}
)

type labelRow struct {
	bun.BaseModel `bun:"table:labels,alias:l"`

	ID              int64      `bun:"id,pk,autoincrement"`
	RepoID          *int64     `bun:"repo_id"`
	OrgID           *int64     `bun:"org_id"`
	Name            string     `bun:"name"`
	Color           string     `bun:"color"`
	Description     string     `bun:"description"`
	Exclusive       bool       `bun:"exclusive"`
	ArchivedAt      *time.Time `bun:"archived_at"`
	NumIssues       int        `bun:"num_issues"`
	NumClosedIssues int        `bun:"num_closed_issues"`
	CreatedAt       time.Time  `bun:"created_at"`
	UpdatedAt       time.Time  `bun:"updated_at"`
}

// nullID stores 0 as NULL, so the owner foreign keys hold.
func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func idOf(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func toLabelRow(l *issue.Label) *labelRow {
	return &labelRow{ID: l.ID, RepoID: nullID(l.RepoID), OrgID: nullID(l.OrgID), Name: l.Name, Color: l.Color,
		Description: l.Description, Exclusive: l.Exclusive, ArchivedAt: utcPtr(l.ArchivedAt),
		NumIssues: l.NumIssues, NumClosedIssues: l.NumClosedIssues, CreatedAt: l.CreatedAt.UTC(),
		UpdatedAt: l.UpdatedAt.UTC()}
}

func (r *labelRow) toDomain() *issue.Label {
	return &issue.Label{ID: r.ID, RepoID: idOf(r.RepoID), OrgID: idOf(r.OrgID), Name: r.Name, Color: r.Color,
		Description: r.Description, Exclusive: r.Exclusive, ArchivedAt: utcPtr(r.ArchivedAt),
		NumIssues: r.NumIssues, NumClosedIssues: r.NumClosedIssues, CreatedAt: r.CreatedAt.UTC(),
		UpdatedAt: r.UpdatedAt.UTC()}
}

type issueLabelRow struct {
	bun.BaseModel `bun:"table:issue_labels,alias:il"`

	IssueID int64 `bun:"issue_id,pk"`
	LabelID int64 `bun:"label_id,pk"`
}

// Create inserts l and sets its ID.
func (st *LabelStore) Create(ctx context.Context, l *issue.Label) error {
	row := toLabelRow(l)
	row.ID = 0
	if _, err := st.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return labelMapping.mapErr(err)
	}
	l.ID = row.ID
	return nil
}

// GetByID finds a label by id.
func (st *LabelStore) GetByID(ctx context.Context, id int64) (*issue.Label, error) {
	row := new(labelRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("l.id = ?", id).Scan(ctx); err != nil {
		return nil, labelMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIDs finds these labels in one query, by name.
func (st *LabelStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Label, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []labelRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("l.id IN (?)", bun.List(ids)).
		Order("l.name ASC", "l.id ASC").Scan(ctx); err != nil {
		return nil, labelMapping.mapErr(err)
	}
	return domainAll(rows, (*labelRow).toDomain), nil
}

// ownerWhere restricts a label query to the repository or organisation.
func ownerWhere(q *bun.SelectQuery, repoID, orgID int64) *bun.SelectQuery {
	switch {
	case repoID != 0 && orgID != 0:
		return q.Where("(l.repo_id = ? OR l.org_id = ?)", repoID, orgID)
	case repoID != 0:
		return q.Where("l.repo_id = ?", repoID)
	default:
		return q.Where("l.org_id = ?", orgID)
	}
}

// GetByName finds the owner's label with exactly this name (the oldest of
// several: names are not unique, as in Gitea).
func (st *LabelStore) GetByName(ctx context.Context, repoID, orgID int64, name string) (*issue.Label, error) {
	if repoID == 0 && orgID == 0 {
		return nil, labelMapping.mapErr(sql.ErrNoRows)
	}
	row := new(labelRow)
	q := ownerWhere(st.c.r(ctx).NewSelect().Model(row), repoID, orgID)
	if err := q.Where("l.name = ?", name).Order("l.id ASC").Limit(1).Scan(ctx); err != nil {
		return nil, labelMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// ListByNames returns the labels of the repository and the organisation
// with these names, in one query.
func (st *LabelStore) ListByNames(ctx context.Context, repoID, orgID int64, names []string) ([]*issue.Label, error) {
	if len(names) == 0 || (repoID == 0 && orgID == 0) {
		return nil, nil
	}
	var rows []labelRow
	q := ownerWhere(st.c.r(ctx).NewSelect().Model(&rows), repoID, orgID)
	if err := q.Where("l.name IN (?)", bun.List(names)).Order("l.name ASC", "l.id ASC").Scan(ctx); err != nil {
		return nil, labelMapping.mapErr(err)
	}
	return domainAll(rows, (*labelRow).toDomain), nil
}

func (st *LabelStore) list(ctx context.Context, repoID, orgID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	var rows []labelRow
	q := ownerWhere(st.c.r(ctx).NewSelect().Model(&rows), repoID, orgID)
	total, err := page(q.Order("l.name ASC", "l.id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, labelMapping.mapErr(err)
	}
	return domainAll(rows, (*labelRow).toDomain), int64(total), nil
}

// ListByRepo returns one page of the repository's labels by name, and the total.
func (st *LabelStore) ListByRepo(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	if repoID == 0 {
		return nil, 0, nil
	}
	return st.list(ctx, repoID, 0, opts)
}

// ListByOrg returns one page of the organisation's labels by name, and the total.
func (st *LabelStore) ListByOrg(ctx context.Context, orgID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	if orgID == 0 {
		return nil, 0, nil
	}
	return st.list(ctx, 0, orgID, opts)
}

// Update writes the label's editable columns (not its owner nor counters).
func (st *LabelStore) Update(ctx context.Context, l *issue.Label) error {
	row := toLabelRow(l)
	res, err := st.c.w(ctx).NewUpdate().Model(row).
		Column("name", "color", "description", "exclusive", "archived_at", "updated_at").
		WherePK().Exec(ctx)
	return labelMapping.affected(res, err)
}

// Delete removes the label, its issue rows (cascade) and, as Gitea does,
// the timeline events naming it, which could no longer be shown.
func (st *LabelStore) Delete(ctx context.Context, id int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM comments WHERE label_id = ? AND type = ?", id,
			int(issue.CommentLabel)); err != nil {
			return labelMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*issueLabelRow)(nil)).Where("label_id = ?", id).Exec(ctx); err != nil {
			return labelMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*labelRow)(nil)).Where("id = ?", id).Exec(ctx)
		return labelMapping.affected(res, err)
	})
}

// OfIssues returns the labels of these issues in one query, each list by name.
func (st *LabelStore) OfIssues(ctx context.Context, issueIDs []int64) (map[int64][]*issue.Label, error) {
	out := make(map[int64][]*issue.Label, len(issueIDs))
	if len(issueIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		labelRow `bun:",extend"`
		IssueID  int64 `bun:"issue_id,scanonly"`
	}
	if err := st.c.r(ctx).NewSelect().Model(&rows).ColumnExpr("l.*").ColumnExpr("il.issue_id").
		Join("JOIN issue_labels AS il ON il.label_id = l.id").
		Where("il.issue_id IN (?)", bun.List(issueIDs)).Order("l.name ASC", "l.id ASC").Scan(ctx); err != nil {
		return nil, issueLabelMapping.mapErr(err)
	}
	for i := range rows {
		out[rows[i].IssueID] = append(out[rows[i].IssueID], rows[i].labelRow.toDomain())
	}
	return out, nil
}

// AddToIssue puts these labels on the issue; present ones are kept.
func (st *LabelStore) AddToIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	if len(labelIDs) == 0 {
		return nil
	}
	rows := make([]issueLabelRow, 0, len(labelIDs))
	seen := map[int64]bool{}
	for _, id := range labelIDs {
		if !seen[id] {
			seen[id] = true
			rows = append(rows, issueLabelRow{IssueID: issueID, LabelID: id})
		}
	}
	_, err := st.c.w(ctx).NewInsert().Model(&rows).On("CONFLICT (issue_id, label_id) DO NOTHING").Exec(ctx)
	return issueLabelMapping.mapErr(err)
}

// RemoveFromIssue takes these labels off the issue.
func (st *LabelStore) RemoveFromIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	if len(labelIDs) == 0 {
		return nil
	}
	_, err := st.c.w(ctx).NewDelete().Model((*issueLabelRow)(nil)).Where("issue_id = ?", issueID).
		Where("label_id IN (?)", bun.List(labelIDs)).Exec(ctx)
	return issueLabelMapping.mapErr(err)
}

// Recount recomputes the counters of these labels in one statement:
// issues (and pull requests) carrying each, and the closed ones.
func (st *LabelStore) Recount(ctx context.Context, labelIDs []int64) error {
	if len(labelIDs) == 0 {
		return nil
	}
	_, err := st.c.w(ctx).NewRaw(`UPDATE labels SET
		num_issues = (SELECT count(*) FROM issue_labels AS il WHERE il.label_id = labels.id),
		num_closed_issues = (SELECT count(*) FROM issue_labels AS il JOIN issues AS i ON i.id = il.issue_id
			WHERE il.label_id = labels.id AND i.is_closed = ?)
		WHERE id IN (?)`, true, bun.List(labelIDs)).Exec(ctx)
	return labelMapping.mapErr(err)
}

// CopyRepoLabels copies the repository's labels into another with one
// INSERT … SELECT. A copy keeps the name, color, description, exclusivity
// and archived state (Gitea's GenerateIssueLabels would revive an archived
// label), and starts with no issues.
func (st *LabelStore) CopyRepoLabels(ctx context.Context, fromRepoID, toRepoID int64, now time.Time) error {
	at := dbTime(now)
	_, err := st.c.w(ctx).NewRaw(`INSERT INTO labels (repo_id, name, color, description, exclusive, archived_at,
		num_issues, num_closed_issues, created_at, updated_at)
		SELECT ?, name, color, description, exclusive, archived_at, 0, 0, ?, ? FROM labels WHERE repo_id = ? ORDER BY id`,
		toRepoID, at, at, fromRepoID).Exec(ctx)
	return labelMapping.mapErr(err)
}
