package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var attachmentMapping = mapping{op: "attachment", notFound: "attachment does not exist",
	conflict: "attachment already exists", missingRef: "issue does not exist"}

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
	SHA256        string    `bun:"sha256"`
	DownloadCount int64     `bun:"download_count"`
	CreatedAt     time.Time `bun:"created_at"`
}

func (r *attachmentRow) toDomain() *issue.Attachment {
	return &issue.Attachment{ID: r.ID, UUID: r.UUID, RepoID: r.RepoID, IssueID: r.IssueID, CommentID: r.CommentID,
		UploaderID: r.UploaderID, Name: r.Name, Size: r.Size, SHA256: r.SHA256, DownloadCount: r.DownloadCount,
		CreatedAt: domainTime(r.CreatedAt)}
}

// AttachmentStore implements ports.AttachmentStore with bun.
type AttachmentStore struct{ c conn }

var _ ports.AttachmentStore = (*AttachmentStore)(nil)

// Create inserts a's row and sets its ID.
func (st *AttachmentStore) Create(ctx context.Context, a *issue.Attachment) error {
	row := &attachmentRow{UUID: a.UUID, RepoID: a.RepoID, IssueID: a.IssueID, CommentID: a.CommentID,
		UploaderID: a.UploaderID, Name: a.Name, Size: a.Size, SHA256: a.SHA256, DownloadCount: a.DownloadCount,
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
	if ps := st.c.sqliteReadStmt(ctx, st.ofCommentsText()); ps != nil {
		// A comment page reads its comments' attachments on every request.
		if err := st.c.scanAll(ctx, ps, &rows, idsJSON(commentIDs)); err != nil {
			return nil, attachmentMapping.mapErr(err)
		}
	} else if err := st.c.r(ctx).NewSelect().Model(&rows).Where("at.comment_id IN (?)", bun.In(commentIDs)).
		Order("at.id ASC").Scan(ctx); err != nil {
		return nil, attachmentMapping.mapErr(err)
	}
	for i := range rows {
		a := rows[i].toDomain()
		out[a.CommentID] = append(out[a.CommentID], a)
	}
	return out, nil
}

// attachmentsOfCommentsKey is the shape of OfComments' prepared statement.
type attachmentsOfCommentsKey struct{}

// ofCommentsText is OfComments' SQLite statement, the ids as one JSON
// array (prepared_reads.go); "" without an owning SQLite DB.
func (st *AttachmentStore) ofCommentsText() string {
	d := st.c.owner
	if d == nil || d.dialect != DialectSQLite {
		return ""
	}
	return d.stmts.text(attachmentsOfCommentsKey{}, func() string {
		return d.read.NewSelect().Model((*attachmentRow)(nil)).
			Where("at.comment_id IN ?", bun.Safe("(SELECT value FROM json_each(?))")).Order("at.id ASC").String()
	})
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
