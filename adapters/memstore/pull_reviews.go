package memstore

import (
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

var _ ports.PullReviewStore = (*PullReviewStore)(nil)

// PullReviewStore is the in-memory ports.PullReviewStore.
type PullReviewStore struct{ d *DB }

var errReviewNotFound = errs.NotFound("review does not exist")

// reviewIn copies r as the store keeps it (times as a column keeps them).
func reviewIn(r *pull.Review) pull.Review {
	c := *r
	c.CreatedAt, c.UpdatedAt = dbTime(r.CreatedAt), dbTime(r.UpdatedAt)
	return c
}

// Create inserts r; its issue must exist.
func (s *PullReviewStore) Create(ctx context.Context, r *pull.Review) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.issues[r.IssueID]; !ok {
		return errs.NotFound("pull request does not exist")
	}
	row := reviewIn(r)
	row.ID = st.next("reviews")
	st.reviews[row.ID] = row
	r.ID = row.ID
	return nil
}

func (s *PullReviewStore) GetByID(ctx context.Context, id int64) (*pull.Review, error) {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.reviews[id]
	if !ok {
		return nil, errReviewNotFound
	}
	return &r, nil
}

// Update writes r's mutable fields (not its creation time).
func (s *PullReviewStore) Update(ctx context.Context, r *pull.Review) error {
	defer s.d.lock(ctx)()
	old, ok := s.d.s.reviews[r.ID]
	if !ok {
		return errReviewNotFound
	}
	row := reviewIn(r)
	row.IssueID, row.ReviewerID, row.ReviewerTeamID, row.CreatedAt = old.IssueID, old.ReviewerID, old.ReviewerTeamID, old.CreatedAt
	s.d.s.reviews[r.ID] = row
	return nil
}

// Delete removes the review with its code comments, entry and dismissals.
func (s *PullReviewStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.reviews[id]; !ok {
		return errReviewNotFound
	}
	delete(st.reviews, id)
	for cid, c := range st.comments {
		if c.ReviewID == id && (c.Type == issue.CommentCode || c.Type == issue.CommentReview || c.Type == issue.CommentDismissReview) {
			st.deleteComment(cid)
		}
	}
	return nil
}

// reviewsWhere returns the reviews keep accepts, by id.
func (s *state) reviewsWhere(keep func(r pull.Review) bool) []*pull.Review {
	var out []*pull.Review
	for _, id := range sortedKeys(s.reviews) {
		if r := s.reviews[id]; keep(r) {
			out = append(out, &r)
		}
	}
	return out
}

func (s *PullReviewStore) List(ctx context.Context, issueID int64, opts ports.ListOptions) ([]*pull.Review, int64, error) {
	defer s.d.lock(ctx)()
	all := s.d.s.reviewsWhere(func(r pull.Review) bool { return r.IssueID == issueID })
	return page(all, opts), int64(len(all)), nil
}

func (s *PullReviewStore) All(ctx context.Context, issueIDs []int64) (map[int64][]*pull.Review, error) {
	defer s.d.lock(ctx)()
	out := map[int64][]*pull.Review{}
	for _, r := range s.d.s.reviewsWhere(func(r pull.Review) bool { return slices.Contains(issueIDs, r.IssueID) }) {
		out[r.IssueID] = append(out[r.IssueID], r)
	}
	return out, nil
}

// last returns the newest review keep accepts.
func (s *PullReviewStore) last(ctx context.Context, keep func(r pull.Review) bool) (*pull.Review, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.reviewsWhere(keep)
	if len(list) == 0 {
		return nil, errReviewNotFound
	}
	return list[len(list)-1], nil
}

func (s *PullReviewStore) Pending(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error) {
	return s.last(ctx, func(r pull.Review) bool {
		return r.IssueID == issueID && r.ReviewerID == reviewerID && r.State == pull.ReviewPending
	})
}

func (s *PullReviewStore) Latest(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error) {
	return s.last(ctx, func(r pull.Review) bool {
		return r.IssueID == issueID && r.ReviewerID == reviewerID && (r.State.IsVerdict() || r.State == pull.ReviewRequest)
	})
}

func (s *PullReviewStore) TeamRequest(ctx context.Context, issueID, teamID int64) (*pull.Review, error) {
	return s.last(ctx, func(r pull.Review) bool { return r.IssueID == issueID && r.ReviewerTeamID == teamID })
}

// update applies edit to every review keep accepts.
func (s *PullReviewStore) update(ctx context.Context, keep func(r pull.Review) bool, edit func(r *pull.Review)) {
	defer s.d.lock(ctx)()
	for id, r := range s.d.s.reviews {
		if keep(r) {
			edit(&r)
			s.d.s.reviews[id] = r
		}
	}
}

func (s *PullReviewStore) ClearOfficial(ctx context.Context, issueID, reviewerID int64) error {
	s.update(ctx, func(r pull.Review) bool { return r.IssueID == issueID && r.ReviewerID == reviewerID },
		func(r *pull.Review) { r.Official = false })
	return nil
}

func (s *PullReviewStore) SetOfficial(ctx context.Context, id int64, official bool) error {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.reviews[id]
	if !ok {
		return errReviewNotFound
	}
	r.Official = official
	s.d.s.reviews[id] = r
	return nil
}

func (s *PullReviewStore) DeleteRequests(ctx context.Context, issueID, reviewerID int64) error {
	defer s.d.lock(ctx)()
	for id, r := range s.d.s.reviews {
		if r.IssueID == issueID && r.ReviewerID == reviewerID && r.State == pull.ReviewRequest {
			delete(s.d.s.reviews, id)
		}
	}
	return nil
}

func (s *PullReviewStore) DismissVerdicts(ctx context.Context, issueID, reviewerID int64) error {
	s.update(ctx, func(r pull.Review) bool {
		return r.IssueID == issueID && r.ReviewerID == reviewerID && r.State.IsVerdict()
	}, func(r *pull.Review) { r.Dismissed = true })
	return nil
}

func (s *PullReviewStore) MarkStale(ctx context.Context, issueID int64, head string) error {
	s.update(ctx, func(r pull.Review) bool { return r.IssueID == issueID },
		func(r *pull.Review) { r.Stale = r.CommitID != "" && r.CommitID != head })
	return nil
}

// codeComments returns the code comments of these reviews, oldest first.
func (s *state) codeComments(reviewIDs []int64) []issue.Comment {
	var out []issue.Comment
	for _, id := range sortedKeys(s.comments) {
		if c := s.comments[id]; c.Type == issue.CommentCode && slices.Contains(reviewIDs, c.ReviewID) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b issue.Comment) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out
}

func (s *PullReviewStore) CodeComments(ctx context.Context, reviewIDs []int64) (map[int64][]*issue.Comment, error) {
	defer s.d.lock(ctx)()
	out := map[int64][]*issue.Comment{}
	for _, c := range s.d.s.codeComments(reviewIDs) {
		out[c.ReviewID] = append(out[c.ReviewID], &c)
	}
	return out, nil
}

func (s *PullReviewStore) ValidCodeComments(ctx context.Context, issueID int64, limit int) ([]*issue.Comment, error) {
	defer s.d.lock(ctx)()
	var out []*issue.Comment
	for _, id := range sortedKeys(s.d.s.comments) {
		if c := s.d.s.comments[id]; c.Type == issue.CommentCode && c.IssueID == issueID && !c.Invalidated {
			out = append(out, &c)
		}
	}
	slices.SortStableFunc(out, func(a, b *issue.Comment) int { return a.CreatedAt.Compare(b.CreatedAt) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (s *PullReviewStore) InvalidateComments(ctx context.Context, ids []int64) error {
	defer s.d.lock(ctx)()
	for _, id := range ids {
		if c, ok := s.d.s.comments[id]; ok && c.Type == issue.CommentCode {
			c.Invalidated = true
			s.d.s.comments[id] = c
		}
	}
	return nil
}

func (s *PullReviewStore) CodeCommentCounts(ctx context.Context, reviewIDs []int64) (map[int64]int, error) {
	defer s.d.lock(ctx)()
	out := map[int64]int{}
	for _, c := range s.d.s.codeComments(reviewIDs) {
		out[c.ReviewID]++
	}
	return out, nil
}

func (s *PullReviewStore) Entries(ctx context.Context, reviewIDs []int64) (map[int64]int64, error) {
	defer s.d.lock(ctx)()
	out := map[int64]int64{}
	for _, id := range sortedKeys(s.d.s.comments) {
		c := s.d.s.comments[id]
		if _, seen := out[c.ReviewID]; !seen && c.Type == issue.CommentReview && slices.Contains(reviewIDs, c.ReviewID) {
			out[c.ReviewID] = c.ID
		}
	}
	return out, nil
}

func (s *PullReviewStore) Teams(ctx context.Context, ids []int64) (map[int64]*org.Team, error) {
	defer s.d.lock(ctx)()
	out := map[int64]*org.Team{}
	for _, id := range ids {
		if t, ok := s.d.s.teams[id]; ok {
			out[id] = s.d.s.teamOut(t)
		}
	}
	return out, nil
}

// deleteReviewsOfIssue removes the reviews of an issue being deleted.
func (s *state) deleteReviewsOfIssue(issueID int64) {
	for id, r := range s.reviews {
		if r.IssueID == issueID {
			delete(s.reviews, id)
		}
	}
}
