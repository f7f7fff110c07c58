package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.ReactionStore = (*ReactionStore)(nil)

// ReactionStore is the in-memory ports.ReactionStore.
type ReactionStore struct{ d *DB }

func (s *state) reactionOf(issueID, commentID, userID int64, typ string) (issue.Reaction, bool) {
	for _, r := range s.reactions {
		if r.IssueID == issueID && r.CommentID == commentID && r.UserID == userID && r.Type == typ {
			return r, true
		}
	}
	return issue.Reaction{}, false
}

func (s *ReactionStore) Add(ctx context.Context, r *issue.Reaction) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.reactionOf(r.IssueID, r.CommentID, r.UserID, r.Type); ok {
		return errs.Conflict("reaction already exists")
	}
	if _, ok := st.issues[r.IssueID]; !ok {
		return errIssueNotFound
	}
	row := *r
	row.CreatedAt = dbTime(row.CreatedAt)
	row.ID = st.next("reactions")
	st.reactions[row.ID] = row
	r.ID = row.ID
	return nil
}

func (s *ReactionStore) Get(ctx context.Context, issueID, commentID, userID int64, typ string) (*issue.Reaction, error) {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.reactionOf(issueID, commentID, userID, typ)
	if !ok {
		return nil, errs.NotFound("reaction does not exist")
	}
	return &r, nil
}

func (s *ReactionStore) Remove(ctx context.Context, issueID, commentID, userID int64, typ string) error {
	defer s.d.lock(ctx)()
	if r, ok := s.d.s.reactionOf(issueID, commentID, userID, typ); ok {
		delete(s.d.s.reactions, r.ID)
	}
	return nil
}

func (s *ReactionStore) List(ctx context.Context, issueID, commentID int64, opts ports.ListOptions) ([]*issue.Reaction, int64, error) {
	defer s.d.lock(ctx)()
	var list []*issue.Reaction
	for _, r := range s.d.s.reactions {
		if r.IssueID == issueID && r.CommentID == commentID {
			list = append(list, &r)
		}
	}
	slices.SortFunc(list, func(a, b *issue.Reaction) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return page(list, opts), int64(len(list)), nil
}
