package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var dependencyMapping = mapping{
	op: "issue dependency", notFound: "issue dependency does not exist",
	conflict: "issue dependency does already exist", missingRef: "issue does not exist",
}

type issueDependencyRow struct {
	bun.BaseModel `bun:"table:issue_dependencies,alias:dep"`

	IssueID      int64     `bun:"issue_id,pk"`
	DependencyID int64     `bun:"dependency_id,pk"`
	CreatedAt    time.Time `bun:"created_at"`
}

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
