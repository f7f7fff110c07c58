package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var commentMapping = mapping{op: "comment", notFound: "comment does not exist", missingRef: "issue does not exist"}

// commentRow is a comments row: a plain comment or a timeline event.
type commentRow struct {
	bun.BaseModel `bun:"table:comments,alias:c"`

	ID               int64     `bun:"id,pk,autoincrement"`
	Type             int       `bun:"type"`
	IssueID          int64     `bun:"issue_id"`
	RepoID           int64     `bun:"repo_id"`
	PosterID         int64     `bun:"poster_id"`
	OrigAuthor       string    `bun:"original_author"`
	OrigAuthID       int64     `bun:"original_author_id"`
	Body             string    `bun:"body"`
	LabelID          int64     `bun:"label_id"`
	OldMilestoneID   int64     `bun:"old_milestone_id"`
	MilestoneID      int64     `bun:"milestone_id"`
	AssigneeID       int64     `bun:"assignee_id"`
	RemovedAssignee  bool      `bun:"removed_assignee"`
	OldTitle         string    `bun:"old_title"`
	NewTitle         string    `bun:"new_title"`
	OldRef           string    `bun:"old_ref"`
	NewRef           string    `bun:"new_ref"`
	RefRepoID        int64     `bun:"ref_repo_id"`
	RefIssueID       int64     `bun:"ref_issue_id"`
	RefCommentID     int64     `bun:"ref_comment_id"`
	DependentIssueID int64     `bun:"dependent_issue_id"`
	TimeID           int64     `bun:"time_id"`
	Content          string    `bun:"content"`
	ReviewID         int64     `bun:"review_id"`
	AssigneeTeamID   int64     `bun:"assignee_team_id"`
	TreePath         string    `bun:"tree_path"`
	Line             int64     `bun:"line"`
	CommitSHA        string    `bun:"commit_sha"`
	Patch            string    `bun:"patch"`
	Invalidated      bool      `bun:"invalidated"`
	ResolveDoerID    int64     `bun:"resolve_doer_id"`
	CreatedAt        time.Time `bun:"created_at"`
	UpdatedAt        time.Time `bun:"updated_at"`
}

func toCommentRow(c *issue.Comment) *commentRow {
	return &commentRow{ID: c.ID, Type: int(c.Type), IssueID: c.IssueID, RepoID: c.RepoID, PosterID: c.PosterID,
		Body: c.Body, OrigAuthor: c.OriginalAuthor, OrigAuthID: c.OriginalAuthorID, LabelID: c.LabelID, OldMilestoneID: c.OldMilestoneID, MilestoneID: c.MilestoneID,
		AssigneeID: c.AssigneeID, RemovedAssignee: c.RemovedAssignee, OldTitle: c.OldTitle, NewTitle: c.NewTitle,
		OldRef: c.OldRef, NewRef: c.NewRef, RefRepoID: c.RefRepoID, RefIssueID: c.RefIssueID, RefCommentID: c.RefCommentID,
		DependentIssueID: c.DependentIssueID, TimeID: c.TimeID, Content: c.Content,
		ReviewID: c.ReviewID, AssigneeTeamID: c.AssigneeTeamID, TreePath: c.TreePath, Line: c.Line,
		CommitSHA: c.CommitSHA, Patch: c.Patch, Invalidated: c.Invalidated, ResolveDoerID: c.ResolveDoerID,
		CreatedAt: dbTime(c.CreatedAt), UpdatedAt: dbTime(c.UpdatedAt)}
}

func (r *commentRow) toDomain() *issue.Comment {
	return &issue.Comment{ID: r.ID, Type: issue.CommentType(r.Type), IssueID: r.IssueID, RepoID: r.RepoID,
		PosterID: r.PosterID, Body: r.Body, OriginalAuthor: r.OrigAuthor, OriginalAuthorID: r.OrigAuthID, LabelID: r.LabelID, OldMilestoneID: r.OldMilestoneID,
		MilestoneID: r.MilestoneID, AssigneeID: r.AssigneeID, RemovedAssignee: r.RemovedAssignee,
		OldTitle: r.OldTitle, NewTitle: r.NewTitle, OldRef: r.OldRef, NewRef: r.NewRef, RefRepoID: r.RefRepoID, RefIssueID: r.RefIssueID,
		RefCommentID: r.RefCommentID, DependentIssueID: r.DependentIssueID, TimeID: r.TimeID, Content: r.Content,
		ReviewID: r.ReviewID, AssigneeTeamID: r.AssigneeTeamID, TreePath: r.TreePath, Line: r.Line,
		CommitSHA: r.CommitSHA, Patch: r.Patch, Invalidated: r.Invalidated, ResolveDoerID: r.ResolveDoerID,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTime(r.UpdatedAt)}
}

// CommentStore implements ports.CommentStore with bun.
type CommentStore struct{ c conn }

var _ ports.CommentStore = (*CommentStore)(nil)

// countCommentSQL moves an issue's plain-comment counter by ?0 (never below
// zero) and, when ?1 is not NULL, its updated_at.
const countCommentSQL = `UPDATE issues SET
	num_comments = CASE WHEN num_comments + ?0 < 0 THEN 0 ELSE num_comments + ?0 END,
	updated_at = COALESCE(?1, updated_at)
	WHERE id = ?2`

// Create inserts c and, for a plain comment, counts it on the issue and
// touches the issue's updated_at, in one transaction.
func (st *CommentStore) Create(ctx context.Context, c *issue.Comment) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := toCommentRow(c)
		row.ID = 0
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return commentMapping.mapErr(err)
		}
		c.ID = row.ID
		if c.Type != issue.CommentPlain {
			return nil
		}
		_, err := tx.NewRaw(countCommentSQL, 1, row.CreatedAt, c.IssueID).Exec(ctx)
		return commentMapping.mapErr(err)
	})
}

// GetByID finds a comment or event by id.
func (st *CommentStore) GetByID(ctx context.Context, id int64) (*issue.Comment, error) {
	row := new(commentRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("c.id = ?", id).Scan(ctx); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIDs finds these comments in one query; absent ids are skipped.
func (st *CommentStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Comment, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []commentRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("c.id IN (?)", bun.In(ids)).
		Order("c.id ASC").Scan(ctx); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	return domainAll(rows, (*commentRow).toDomain), nil
}

// Update writes the text and updated_at of c (the only mutable columns).
func (st *CommentStore) Update(ctx context.Context, c *issue.Comment) error {
	res, err := st.c.w(ctx).NewUpdate().Model((*commentRow)(nil)).
		Set("body = ?", c.Body).Set("content = ?", c.Content).Set("updated_at = ?", dbTime(c.UpdatedAt)).
		Where("id = ?", c.ID).Exec(ctx)
	return commentMapping.affected(res, err)
}

// Delete removes the comment with its reactions and attachment rows and
// uncounts a plain comment, in one transaction.
func (st *CommentStore) Delete(ctx context.Context, id int64) error {
	return st.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := new(commentRow)
		if err := tx.NewSelect().Model(row).Column("id", "type", "issue_id").Where("c.id = ?", id).
			Scan(ctx); err != nil {
			return commentMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*reactionRow)(nil)).Where("comment_id = ?", id).Exec(ctx); err != nil {
			return commentMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*attachmentRow)(nil)).Where("comment_id = ?", id).Exec(ctx); err != nil {
			return commentMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*commentRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err := commentMapping.affected(res, err); err != nil {
			return err
		}
		if issue.CommentType(row.Type) != issue.CommentPlain {
			return nil
		}
		_, err = tx.NewRaw(countCommentSQL, -1, nil, row.IssueID).Exec(ctx)
		return commentMapping.mapErr(err)
	})
}

// List returns one page of an issue's or a repository's comments in
// creation order, and the total.
//
// On SQLite a listing unbounded in time runs as a prepared statement scanned
// without bun's reflection (listPrepared). Either way a short page is its
// own total; only a full page is counted.
func (st *CommentStore) List(ctx context.Context, q ports.CommentQuery) ([]*issue.Comment, int64, error) {
	if q.Since.IsZero() && q.Before.IsZero() && q.Limit > 0 {
		if d := st.c.owner; d != nil && d.dialect == DialectSQLite {
			k := commentListKeyOf(q)
			if ps := st.c.sqliteReadStmt(ctx, d.commentListText(k)); ps != nil {
				return st.listPrepared(ctx, d, k, ps, q)
			}
		}
	}
	var rows []commentRow
	sel := st.c.r(ctx).NewSelect().Model(&rows)
	if q.IssueID != 0 {
		sel = sel.Where("c.issue_id = ?", q.IssueID)
	}
	if q.RepoID != 0 {
		sel = sel.Where("c.repo_id = ?", q.RepoID)
	}
	if len(q.Types) > 0 {
		types := make([]int, len(q.Types))
		for i, t := range q.Types {
			types[i] = int(t)
		}
		sel = sel.Where("c.type IN (?)", bun.In(types))
	}
	if !q.Since.IsZero() {
		sel = sel.Where("c.updated_at >= ?", dbTime(q.Since))
	}
	if !q.Before.IsZero() {
		sel = sel.Where("c.updated_at <= ?", dbTime(q.Before))
	}
	if q.IsPull != nil {
		sel = sel.Where("c.issue_id IN (SELECT i.id FROM issues AS i WHERE i.repo_id = c.repo_id AND i.is_pull = ?)", *q.IsPull)
	}
	if err := page(sel.Order("c.created_at ASC", "c.id ASC"), q.ListOptions).Scan(ctx); err != nil {
		return nil, 0, commentMapping.mapErr(err)
	}
	total, ok := totalFromPage(q.ListOptions, len(rows))
	if !ok {
		n, err := sel.Count(ctx)
		if err != nil {
			return nil, 0, commentMapping.mapErr(err)
		}
		total = int64(n)
	}
	return domainAll(rows, (*commentRow).toDomain), total, nil
}

// PosterIDs returns the distinct posters of the issue's plain comments.
func (st *CommentStore) PosterIDs(ctx context.Context, issueID int64) ([]int64, error) {
	var ids []int64
	if err := st.c.r(ctx).NewSelect().Model((*commentRow)(nil)).ColumnExpr("DISTINCT c.poster_id").
		Where("c.issue_id = ?", issueID).Where("c.type = ?", int(issue.CommentPlain)).
		OrderExpr("c.poster_id ASC").Scan(ctx, &ids); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	return ids, nil
}

// RefsFrom returns the cross-reference events written by the text of
// issue refIssueID (refCommentID 0) or of its comment refCommentID.
func (st *CommentStore) RefsFrom(ctx context.Context, refIssueID, refCommentID int64) ([]*issue.Comment, error) {
	var rows []commentRow
	types := []int{int(issue.CommentIssueRef), int(issue.CommentCommentRef), int(issue.CommentPullRef)}
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("c.ref_issue_id = ?", refIssueID).
		Where("c.ref_comment_id = ?", refCommentID).Where("c.type IN (?)", bun.In(types)).
		Order("c.id ASC").Scan(ctx); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	return domainAll(rows, (*commentRow).toDomain), nil
}
