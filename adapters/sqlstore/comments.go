package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var (
	commentMapping  = mapping{op: "comment", notFound: "comment does not exist", missingRef: "issue does not exist"}
	reactionMapping = mapping{op: "reaction", notFound: "reaction does not exist",
		conflict: "reaction already exists", missingRef: "issue does not exist"}
	attachmentMapping = mapping{op: "attachment", notFound: "attachment does not exist",
		conflict: "attachment already exists", missingRef: "issue does not exist"}
)

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
	CreatedAt        time.Time `bun:"created_at"`
	UpdatedAt        time.Time `bun:"updated_at"`
}

func toCommentRow(c *issue.Comment) *commentRow {
	return &commentRow{ID: c.ID, Type: int(c.Type), IssueID: c.IssueID, RepoID: c.RepoID, PosterID: c.PosterID,
		Body: c.Body, OrigAuthor: c.OriginalAuthor, OrigAuthID: c.OriginalAuthorID, LabelID: c.LabelID, OldMilestoneID: c.OldMilestoneID, MilestoneID: c.MilestoneID,
		AssigneeID: c.AssigneeID, RemovedAssignee: c.RemovedAssignee, OldTitle: c.OldTitle, NewTitle: c.NewTitle,
		OldRef: c.OldRef, NewRef: c.NewRef, RefRepoID: c.RefRepoID, RefIssueID: c.RefIssueID, RefCommentID: c.RefCommentID,
		DependentIssueID: c.DependentIssueID, TimeID: c.TimeID, Content: c.Content,
		CreatedAt: dbTime(c.CreatedAt), UpdatedAt: dbTime(c.UpdatedAt)}
}

func (r *commentRow) toDomain() *issue.Comment {
	return &issue.Comment{ID: r.ID, Type: issue.CommentType(r.Type), IssueID: r.IssueID, RepoID: r.RepoID,
		PosterID: r.PosterID, Body: r.Body, OriginalAuthor: r.OrigAuthor, OriginalAuthorID: r.OrigAuthID, LabelID: r.LabelID, OldMilestoneID: r.OldMilestoneID,
		MilestoneID: r.MilestoneID, AssigneeID: r.AssigneeID, RemovedAssignee: r.RemovedAssignee,
		OldTitle: r.OldTitle, NewTitle: r.NewTitle, OldRef: r.OldRef, NewRef: r.NewRef, RefRepoID: r.RefRepoID, RefIssueID: r.RefIssueID,
		RefCommentID: r.RefCommentID, DependentIssueID: r.DependentIssueID, TimeID: r.TimeID, Content: r.Content,
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
func (st *CommentStore) List(ctx context.Context, q ports.CommentQuery) ([]*issue.Comment, int64, error) {
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
	sel = page(sel.Order("c.created_at ASC", "c.id ASC"), q.ListOptions)
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, commentMapping.mapErr(err)
	}
	return domainAll(rows, (*commentRow).toDomain), int64(total), nil
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

// reactionRow is a reactions row.
type reactionRow struct {
	bun.BaseModel `bun:"table:reactions,alias:re"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Type      string    `bun:"type"`
	IssueID   int64     `bun:"issue_id"`
	CommentID int64     `bun:"comment_id"`
	UserID    int64     `bun:"user_id"`
	CreatedAt time.Time `bun:"created_at"`
}

func (r *reactionRow) toDomain() *issue.Reaction {
	return &issue.Reaction{ID: r.ID, Type: r.Type, IssueID: r.IssueID, CommentID: r.CommentID, UserID: r.UserID,
		CreatedAt: domainTime(r.CreatedAt)}
}

// ReactionStore implements ports.ReactionStore with bun.
type ReactionStore struct{ c conn }

var _ ports.ReactionStore = (*ReactionStore)(nil)

// Add records r; the unique target index turns a repeat into a conflict.
func (st *ReactionStore) Add(ctx context.Context, r *issue.Reaction) error {
	row := &reactionRow{Type: r.Type, IssueID: r.IssueID, CommentID: r.CommentID, UserID: r.UserID,
		CreatedAt: dbTime(r.CreatedAt)}
	if _, err := st.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return reactionMapping.mapErr(err)
	}
	r.ID = row.ID
	return nil
}

// Get finds one user's reaction of one type.
func (st *ReactionStore) Get(ctx context.Context, issueID, commentID, userID int64, typ string) (*issue.Reaction, error) {
	row := new(reactionRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("re.issue_id = ?", issueID).
		Where("re.comment_id = ?", commentID).Where("re.user_id = ?", userID).Where("re.type = ?", typ).
		Scan(ctx); err != nil {
		return nil, reactionMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Remove deletes one user's reaction of one type, if any.
func (st *ReactionStore) Remove(ctx context.Context, issueID, commentID, userID int64, typ string) error {
	_, err := st.c.w(ctx).NewDelete().Model((*reactionRow)(nil)).Where("issue_id = ?", issueID).
		Where("comment_id = ?", commentID).Where("user_id = ?", userID).Where("type = ?", typ).Exec(ctx)
	return reactionMapping.mapErr(err)
}

// List returns one page of the reactions to the issue (commentID 0) or
// comment, oldest first, and the total.
func (st *ReactionStore) List(ctx context.Context, issueID, commentID int64, opts ports.ListOptions) ([]*issue.Reaction, int64, error) {
	var rows []reactionRow
	sel := st.c.r(ctx).NewSelect().Model(&rows).Where("re.issue_id = ?", issueID).
		Where("re.comment_id = ?", commentID).Order("re.created_at ASC", "re.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, reactionMapping.mapErr(err)
	}
	return domainAll(rows, (*reactionRow).toDomain), int64(total), nil
}

// attachmentRow is an attachments row.
type attachmentRow struct {
	bun.BaseModel `bun:"table:attachments,alias:at"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UUID          string    `bun:"uuid"`
	RepoID        int64     `bun:"repo_id"`
	IssueID       int64     `bun:"issue_id"`
	CommentID     int64     `bun:"comment_id"`
	UploaderID    int64     `bun:"uploader_id"`
	Name          string    `bun:"name"`
	Size          int64     `bun:"size"`
	DownloadCount int64     `bun:"download_count"`
	CreatedAt     time.Time `bun:"created_at"`
}

func (r *attachmentRow) toDomain() *issue.Attachment {
	return &issue.Attachment{ID: r.ID, UUID: r.UUID, RepoID: r.RepoID, IssueID: r.IssueID, CommentID: r.CommentID,
		UploaderID: r.UploaderID, Name: r.Name, Size: r.Size, DownloadCount: r.DownloadCount,
		CreatedAt: domainTime(r.CreatedAt)}
}

// AttachmentStore implements ports.AttachmentStore with bun.
type AttachmentStore struct{ c conn }

var _ ports.AttachmentStore = (*AttachmentStore)(nil)

// Create inserts a's row and sets its ID.
func (st *AttachmentStore) Create(ctx context.Context, a *issue.Attachment) error {
	row := &attachmentRow{UUID: a.UUID, RepoID: a.RepoID, IssueID: a.IssueID, CommentID: a.CommentID,
		UploaderID: a.UploaderID, Name: a.Name, Size: a.Size, DownloadCount: a.DownloadCount,
		CreatedAt: dbTime(a.CreatedAt)}
	if _, err := st.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return attachmentMapping.mapErr(err)
	}
	a.ID = row.ID
	return nil
}

// GetByID finds an attachment by id.
func (st *AttachmentStore) GetByID(ctx context.Context, id int64) (*issue.Attachment, error) {
	row := new(attachmentRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("at.id = ?", id).Scan(ctx); err != nil {
		return nil, attachmentMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByUUID finds an attachment by its UUID.
func (st *AttachmentStore) GetByUUID(ctx context.Context, uuid string) (*issue.Attachment, error) {
	row := new(attachmentRow)
	if err := st.c.r(ctx).NewSelect().Model(row).Where("at.uuid = ?", uuid).Scan(ctx); err != nil {
		return nil, attachmentMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// CountDownload adds one to the download count.
func (st *AttachmentStore) CountDownload(ctx context.Context, id int64) error {
	res, err := st.c.w(ctx).NewUpdate().Model((*attachmentRow)(nil)).Set("download_count = download_count + 1").
		Where("id = ?", id).Exec(ctx)
	return attachmentMapping.affected(res, err)
}

// ListByIssue returns the issue's own (commentID 0) or a comment's
// attachments, oldest first.
func (st *AttachmentStore) ListByIssue(ctx context.Context, issueID, commentID int64) ([]*issue.Attachment, error) {
	var rows []attachmentRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("at.issue_id = ?", issueID).
		Where("at.comment_id = ?", commentID).Order("at.id ASC").Scan(ctx); err != nil {
		return nil, attachmentMapping.mapErr(err)
	}
	return domainAll(rows, (*attachmentRow).toDomain), nil
}

// OfComments returns the attachments of these comments in one query, by
// comment id.
func (st *AttachmentStore) OfComments(ctx context.Context, commentIDs []int64) (map[int64][]*issue.Attachment, error) {
	out := map[int64][]*issue.Attachment{}
	if len(commentIDs) == 0 {
		return out, nil
	}
	var rows []attachmentRow
	if err := st.c.r(ctx).NewSelect().Model(&rows).Where("at.comment_id IN (?)", bun.In(commentIDs)).
		Order("at.id ASC").Scan(ctx); err != nil {
		return nil, attachmentMapping.mapErr(err)
	}
	for i := range rows {
		a := rows[i].toDomain()
		out[a.CommentID] = append(out[a.CommentID], a)
	}
	return out, nil
}

// Update writes the attachment's name (the only mutable column besides
// the download count, which CountDownload moves).
func (st *AttachmentStore) Update(ctx context.Context, a *issue.Attachment) error {
	res, err := st.c.w(ctx).NewUpdate().Model((*attachmentRow)(nil)).Set("name = ?", a.Name).
		Where("id = ?", a.ID).Exec(ctx)
	return attachmentMapping.affected(res, err)
}

// Delete removes the attachment's row (the bytes are the caller's to remove).
func (st *AttachmentStore) Delete(ctx context.Context, id int64) error {
	res, err := st.c.w(ctx).NewDelete().Model((*attachmentRow)(nil)).Where("id = ?", id).Exec(ctx)
	return attachmentMapping.affected(res, err)
}
