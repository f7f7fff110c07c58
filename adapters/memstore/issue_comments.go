package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.CommentStore = (*CommentStore)(nil)

// CommentStore is the in-memory ports.CommentStore.
type CommentStore struct{ d *DB }

var errCommentNotFound = errs.NotFound("comment does not exist")

// countComment adds delta to the issue's comment counter and, when at is
// set, moves its updated_at there.
func (s *state) countComment(issueID int64, delta int, at *issue.Comment) {
	i, ok := s.issues[issueID]
	if !ok {
		return
	}
	i.NumComments = max(i.NumComments+delta, 0)
	if at != nil {
		i.UpdatedAt = at.CreatedAt
	}
	s.issues[issueID] = i
}

func (s *CommentStore) Create(ctx context.Context, c *issue.Comment) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.issues[c.IssueID]; !ok {
		return errIssueNotFound
	}
	row := *c
	row.CreatedAt, row.UpdatedAt = dbTime(row.CreatedAt), dbTime(row.UpdatedAt)
	row.ID = st.next("comments")
	st.comments[row.ID] = row
	c.ID = row.ID
	if c.Type == issue.CommentPlain {
		st.countComment(c.IssueID, 1, &row)
	}
	return nil
}

func (s *CommentStore) GetByID(ctx context.Context, id int64) (*issue.Comment, error) {
	defer s.d.lock(ctx)()
	c, ok := s.d.s.comments[id]
	if !ok {
		return nil, errCommentNotFound
	}
	return &c, nil
}

func (s *CommentStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Comment, error) {
	defer s.d.lock(ctx)()
	var out []*issue.Comment
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if c, ok := s.d.s.comments[id]; ok {
			out = append(out, &c)
		}
	}
	return out, nil
}

func (s *CommentStore) Update(ctx context.Context, c *issue.Comment) error {
	defer s.d.lock(ctx)()
	row, ok := s.d.s.comments[c.ID]
	if !ok {
		return errCommentNotFound
	}
	row.Body, row.Content, row.UpdatedAt = c.Body, c.Content, dbTime(c.UpdatedAt)
	s.d.s.comments[c.ID] = row
	return nil
}

func (s *CommentStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	c, ok := st.comments[id]
	if !ok {
		return errCommentNotFound
	}
	st.deleteComment(id)
	if c.Type == issue.CommentPlain {
		st.countComment(c.IssueID, -1, nil)
	}
	return nil
}

// deleteComment removes a comment with its reactions and attachment rows.
func (s *state) deleteComment(id int64) {
	delete(s.comments, id)
	for k, a := range s.attachments {
		if a.CommentID == id {
			delete(s.attachments, k)
		}
	}
	for k, r := range s.reactions {
		if r.CommentID == id {
			delete(s.reactions, k)
		}
	}
}

// List keeps every field of each comment, q.TextOnly or not (the port
// allows it).
func (s *CommentStore) List(ctx context.Context, q ports.CommentQuery) ([]*issue.Comment, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []*issue.Comment
	for _, c := range st.comments {
		switch {
		case q.IssueID != 0 && c.IssueID != q.IssueID, q.RepoID != 0 && c.RepoID != q.RepoID,
			len(q.Types) > 0 && !slices.Contains(q.Types, c.Type),
			!q.Since.IsZero() && c.UpdatedAt.Before(dbTime(q.Since)),
			!q.Before.IsZero() && c.UpdatedAt.After(dbTime(q.Before)):
			continue
		}
		if q.IsPull != nil {
			if i, ok := st.issues[c.IssueID]; !ok || i.IsPull != *q.IsPull {
				continue
			}
		}
		list = append(list, &c)
	}
	slices.SortFunc(list, func(a, b *issue.Comment) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *CommentStore) PosterIDs(ctx context.Context, issueID int64) ([]int64, error) {
	defer s.d.lock(ctx)()
	var ids []int64
	for _, c := range s.d.s.comments {
		if c.IssueID == issueID && c.Type == issue.CommentPlain {
			ids = append(ids, c.PosterID)
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(ids))), nil
}

func (s *CommentStore) RefsFrom(ctx context.Context, refIssueID, refCommentID int64) ([]*issue.Comment, error) {
	defer s.d.lock(ctx)()
	var out []*issue.Comment
	for _, id := range sortedKeys(s.d.s.comments) {
		c := s.d.s.comments[id]
		if c.RefIssueID == refIssueID && c.RefCommentID == refCommentID &&
			(c.Type == issue.CommentIssueRef || c.Type == issue.CommentCommentRef || c.Type == issue.CommentPullRef) {
			out = append(out, &c)
		}
	}
	return out, nil
}
