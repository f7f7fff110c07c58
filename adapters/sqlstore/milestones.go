package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// MilestoneStore implements ports.MilestoneStore with bun.
type MilestoneStore struct{ c conn }

var _ ports.MilestoneStore = (*MilestoneStore)(nil)

var milestoneMapping = mapping{op: "milestone", notFound: "milestone does not exist",
	missingRef: "repository does not exist"}

type milestoneRow struct {
	bun.BaseModel `bun:"table:milestones,alias:m"`

	ID              int64      `bun:"id,pk,autoincrement"`
	RepoID          int64      `bun:"repo_id"`
	Title           string     `bun:"title"`
	Description     string     `bun:"description"`
	IsClosed        bool       `bun:"is_closed"`
	NumIssues       int        `bun:"num_issues"`
	NumClosedIssues int        `bun:"num_closed_issues"`
	DueAt           *time.Time `bun:"due_at"`
	ClosedAt        *time.Time `bun:"closed_at"`
	CreatedAt       time.Time  `bun:"created_at"`
	UpdatedAt       time.Time  `bun:"updated_at"`
}

func toMilestoneRow(m *issue.Milestone) *milestoneRow {
	return &milestoneRow{ID: m.ID, RepoID: m.RepoID, Title: m.Title, Description: m.Description, IsClosed: m.IsClosed,
		NumIssues: m.NumIssues, NumClosedIssues: m.NumClosedIssues, DueAt: utcPtr(m.DueAt),
		ClosedAt: utcPtr(m.ClosedAt), CreatedAt: m.CreatedAt.UTC(), UpdatedAt: m.UpdatedAt.UTC()}
}

func (r *milestoneRow) toDomain() *issue.Milestone {
	return &issue.Milestone{ID: r.ID, RepoID: r.RepoID, Title: r.Title, Description: r.Description,
		IsClosed: r.IsClosed, NumIssues: r.NumIssues, NumClosedIssues: r.NumClosedIssues, DueAt: utcPtr(r.DueAt),
		ClosedAt: utcPtr(r.ClosedAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

// Create inserts m and sets its ID.
func (st *MilestoneStore) Create(ctx context.Context, m *issue.Milestone) error {
	row := toMilestoneRow(m)
	row.ID = 0
	if _, err := st.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return milestoneMapping.mapErr(err)
	}
	m.ID = row.ID
	return nil
}

// Get finds the repository's milestone by id.
func (st *MilestoneStore) Get(ctx context.Context, repoID, id int64) (*issue.Milestone, error) {
	row := new(milestoneRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("m.id = ?", id).Where("m.repo_id = ?", repoID).
		Scan(ctx); err != nil {
		return nil, milestoneMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByTitle finds the repository's milestone by exact title (the oldest
// of several).
func (st *MilestoneStore) GetByTitle(ctx context.Context, repoID int64, title string) (*issue.Milestone, error) {
	row := new(milestoneRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("m.repo_id = ?", repoID).Where("m.title = ?", title).
		Order("m.id ASC").Limit(1).Scan(ctx); err != nil {
		return nil, milestoneMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIDs finds these milestones in one query.
func (st *MilestoneStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Milestone, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []milestoneRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("m.id IN (?)", bun.List(ids)).Order("m.id ASC").
		Scan(ctx); err != nil {
		return nil, milestoneMapping.mapErr(err)
	}
	return domainAll(rows, (*milestoneRow).toDomain), nil
}

// List returns one page of a repository's milestones and the total, by
// due date (those without one last) then id, Gitea's default order.
func (st *MilestoneStore) List(ctx context.Context, q ports.MilestoneQuery) ([]*issue.Milestone, int64, error) {
	var rows []milestoneRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).Where("m.repo_id = ?", q.RepoID)
	switch q.State {
	case "all":
	case "closed":
		sel = sel.Where("m.is_closed = ?", true)
	default:
		sel = sel.Where("m.is_closed = ?", false)
	}
	if name := strings.ToLower(strings.TrimSpace(q.Name)); name != "" {
		sel = sel.Where("lower(m.title) LIKE ? ESCAPE '!'", likeContains(name))
	}
	sel = sel.OrderExpr("CASE WHEN m.due_at IS NULL THEN 1 ELSE 0 END ASC").Order("m.due_at ASC", "m.id ASC")
	total, err := page(sel, q.ListOptions).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, milestoneMapping.mapErr(err)
	}
	return domainAll(rows, (*milestoneRow).toDomain), int64(total), nil
}

// Update writes the milestone's editable columns (not its counters).
func (st *MilestoneStore) Update(ctx context.Context, m *issue.Milestone) error {
	row := toMilestoneRow(m)
	res, err := st.c.w(ctx).NewUpdate().Model(row).
		Column("title", "description", "is_closed", "due_at", "closed_at", "updated_at").
		WherePK().Where("repo_id = ?", m.RepoID).Exec(ctx)
	return milestoneMapping.affected(res, err)
}

// Delete removes the milestone and clears it from its issues, atomically.
func (st *MilestoneStore) Delete(ctx context.Context, repoID, id int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.ExecContext(ctx, "UPDATE issues SET milestone_id = 0 WHERE repo_id = ? AND milestone_id = ?",
			repoID, id); err != nil {
			return milestoneMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*milestoneRow)(nil)).Where("id = ?", id).Where("repo_id = ?", repoID).
			Exec(ctx)
		return milestoneMapping.affected(res, err)
	})
}

// Recount recomputes the counters of these milestones in one statement.
func (st *MilestoneStore) Recount(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := st.c.w(ctx).NewRaw(`UPDATE milestones SET
		num_issues = (SELECT count(*) FROM issues AS i WHERE i.milestone_id = milestones.id),
		num_closed_issues = (SELECT count(*) FROM issues AS i WHERE i.milestone_id = milestones.id AND i.is_closed = ?)
		WHERE id IN (?)`, true, bun.List(ids)).Exec(ctx)
	return milestoneMapping.mapErr(err)
}
