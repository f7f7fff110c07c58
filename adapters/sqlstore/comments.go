package sqlstore

// PLACEHOLDER: written by a helper; every method answers errTodo until then.

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ = time.Time{}
var _ issue.Issue

// CommentStore implements ports.CommentStore with bun.
type CommentStore struct{ c conn }

var _ ports.CommentStore = (*CommentStore)(nil)

func (st *CommentStore) Create(ctx context.Context, c *issue.Comment) error {
	return errTodo
}

func (st *CommentStore) GetByID(ctx context.Context, id int64) (*issue.Comment, error) {
	return nil, errTodo
}

func (st *CommentStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Comment, error) {
	return nil, errTodo
}

func (st *CommentStore) Update(ctx context.Context, c *issue.Comment) error {
	return errTodo
}

func (st *CommentStore) Delete(ctx context.Context, id int64) error {
	return errTodo
}

func (st *CommentStore) List(ctx context.Context, q ports.CommentQuery) ([]*issue.Comment, int64, error) {
	return nil, 0, errTodo
}

func (st *CommentStore) PosterIDs(ctx context.Context, issueID int64) ([]int64, error) {
	return nil, errTodo
}

// ReactionStore implements ports.ReactionStore with bun.
type ReactionStore struct{ c conn }

var _ ports.ReactionStore = (*ReactionStore)(nil)

func (st *ReactionStore) Add(ctx context.Context, r *issue.Reaction) error {
	return errTodo
}

func (st *ReactionStore) Remove(ctx context.Context, issueID, commentID, userID int64, typ string) error {
	return errTodo
}

func (st *ReactionStore) List(ctx context.Context, issueID, commentID int64, opts ports.ListOptions) ([]*issue.Reaction, int64, error) {
	return nil, 0, errTodo
}

// AttachmentStore implements ports.AttachmentStore with bun.
type AttachmentStore struct{ c conn }

var _ ports.AttachmentStore = (*AttachmentStore)(nil)

func (st *AttachmentStore) Create(ctx context.Context, a *issue.Attachment) error {
	return errTodo
}

func (st *AttachmentStore) GetByID(ctx context.Context, id int64) (*issue.Attachment, error) {
	return nil, errTodo
}

func (st *AttachmentStore) ListByIssue(ctx context.Context, issueID, commentID int64) ([]*issue.Attachment, error) {
	return nil, errTodo
}

func (st *AttachmentStore) OfComments(ctx context.Context, commentIDs []int64) (map[int64][]*issue.Attachment, error) {
	return nil, errTodo
}

func (st *AttachmentStore) Update(ctx context.Context, a *issue.Attachment) error {
	return errTodo
}

func (st *AttachmentStore) Delete(ctx context.Context, id int64) error {
	return errTodo
}
