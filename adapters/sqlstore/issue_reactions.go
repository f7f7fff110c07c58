package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var reactionMapping = mapping{op: "reaction", notFound: "reaction does not exist",
	conflict: "reaction already exists", missingRef: "issue does not exist"}

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
