package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

var _ ports.PullReviewStore = (*PullReviewStore)(nil)

var reviewMapping = mapping{op: "review", notFound: "review does not exist", missingRef: "pull request does not exist"}

// reviewRow is the query model of pull_reviews (migration 000023).
type reviewRow struct {
	bun.BaseModel `bun:"table:pull_reviews,alias:rv"`

	ID             int64     `bun:"id,pk,autoincrement"`
	IssueID        int64     `bun:"issue_id"`
	Type           int       `bun:"type"`
	ReviewerID     int64     `bun:"reviewer_id"`
	ReviewerTeamID int64     `bun:"reviewer_team_id"`
	Content        string    `bun:"content"`
	CommitID       string    `bun:"commit_id"`
	Official       bool      `bun:"official"`
	Stale          bool      `bun:"stale"`
	Dismissed      bool      `bun:"dismissed"`
	CreatedAt      time.Time `bun:"created_at"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

func reviewRowOf(r *pull.Review) *reviewRow {
	return &reviewRow{ID: r.ID, IssueID: r.IssueID, Type: int(r.State), ReviewerID: r.ReviewerID,
		ReviewerTeamID: r.ReviewerTeamID, Content: r.Body, CommitID: r.CommitID, Official: r.Official,
		Stale: r.Stale, Dismissed: r.Dismissed, CreatedAt: dbTime(r.CreatedAt), UpdatedAt: dbTime(r.UpdatedAt)}
}

func (r *reviewRow) toDomain() *pull.Review {
	return &pull.Review{ID: r.ID, IssueID: r.IssueID, State: pull.ReviewState(r.Type), ReviewerID: r.ReviewerID,
		ReviewerTeamID: r.ReviewerTeamID, Body: r.Content, CommitID: r.CommitID, Official: r.Official,
		Stale: r.Stale, Dismissed: r.Dismissed, CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTime(r.UpdatedAt)}
}

// verdictTypes are the review types a reviewer's latest state is read from
// (approvals, rejections and requests), as Gitea's GetReviewByIssueIDAndUserID.
var verdictTypes = []int{int(pull.ReviewApproved), int(pull.ReviewRequestChanges), int(pull.ReviewRequest)}

// PullReviewStore is the SQL implementation of ports.PullReviewStore.
type PullReviewStore struct{ c conn }

// Create inserts r and sets r.ID.
func (s *PullReviewStore) Create(ctx context.Context, r *pull.Review) error {
	row := reviewRowOf(r)
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return reviewMapping.mapErr(err)
	}
	r.ID = row.ID
	return nil
}

func (s *PullReviewStore) getOne(ctx context.Context, q func(*bun.SelectQuery) *bun.SelectQuery) (*pull.Review, error) {
	var row reviewRow
	if err := q(s.c.r(ctx).NewSelect().Model(&row)).Limit(1).Scan(ctx); err != nil {
		return nil, reviewMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByID finds a review.
func (s *PullReviewStore) GetByID(ctx context.Context, id int64) (*pull.Review, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("rv.id = ?", id) })
}

// Update writes r's mutable columns.
func (s *PullReviewStore) Update(ctx context.Context, r *pull.Review) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*reviewRow)(nil)).
		Set("type = ?", int(r.State)).Set("content = ?", r.Body).Set("commit_id = ?", r.CommitID).
		Set("official = ?", r.Official).Set("stale = ?", r.Stale).Set("dismissed = ?", r.Dismissed).
		Set("updated_at = ?", dbTime(r.UpdatedAt)).Where("id = ?", r.ID).Exec(ctx)
	return reviewMapping.affected(res, err)
}

// Delete removes the review with its comments (code comments, its
// entry, its dismissals) and their reactions and attachment rows.
func (s *PullReviewStore) Delete(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		types := []int{int(issue.CommentCode), int(issue.CommentReview), int(issue.CommentDismissReview)}
		owned := tx.NewSelect().Model((*commentRow)(nil)).Column("c.id").
			Where("c.review_id = ?", id).Where("c.type IN (?)", bun.In(types))
		if _, err := tx.NewDelete().Model((*reactionRow)(nil)).Where("comment_id IN (?)", owned).Exec(ctx); err != nil {
			return reviewMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*attachmentRow)(nil)).Where("comment_id IN (?)", owned).Exec(ctx); err != nil {
			return reviewMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*commentRow)(nil)).Where("review_id = ?", id).
			Where("type IN (?)", bun.In(types)).Exec(ctx); err != nil {
			return reviewMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*reviewRow)(nil)).Where("id = ?", id).Exec(ctx)
		return reviewMapping.affected(res, err)
	})
}

// List returns one page of an issue's reviews, oldest first, and the total.
func (s *PullReviewStore) List(ctx context.Context, issueID int64, opts ports.ListOptions) ([]*pull.Review, int64, error) {
	var rows []reviewRow
	sel := page(s.c.r(ctx).NewSelect().Model(&rows).Where("rv.issue_id = ?", issueID).Order("rv.id ASC"), opts)
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, reviewMapping.mapErr(err)
	}
	return domainAll(rows, (*reviewRow).toDomain), int64(total), nil
}

// All returns every review of these issues, oldest first, by issue.
func (s *PullReviewStore) All(ctx context.Context, issueIDs []int64) (map[int64][]*pull.Review, error) {
	out := map[int64][]*pull.Review{}
	if len(issueIDs) == 0 {
		return out, nil
	}
	var rows []reviewRow
	if ps := s.c.sqliteReadStmt(ctx, s.reviewsOfIssuesText()); ps != nil {
		// A pull request page reads its pages' reviews on every request.
		if err := s.c.scanAll(ctx, ps, &rows, idsJSON(issueIDs)); err != nil {
			return nil, reviewMapping.mapErr(err)
		}
	} else if err := s.c.r(ctx).NewSelect().Model(&rows).Where("rv.issue_id IN (?)", bun.In(issueIDs)).
		Order("rv.id ASC").Scan(ctx); err != nil {
		return nil, reviewMapping.mapErr(err)
	}
	for i := range rows {
		out[rows[i].IssueID] = append(out[rows[i].IssueID], rows[i].toDomain())
	}
	return out, nil
}

// reviewsOfIssuesKey is the shape of All's prepared statement.
type reviewsOfIssuesKey struct{}

// reviewsOfIssuesText is All's SQLite statement, the ids as one JSON array
// (prepared_reads.go); "" without an owning SQLite DB.
func (s *PullReviewStore) reviewsOfIssuesText() string {
	d := s.c.owner
	if d == nil || d.dialect != DialectSQLite {
		return ""
	}
	return d.stmts.text(reviewsOfIssuesKey{}, func() string {
		return d.read.NewSelect().Model((*reviewRow)(nil)).
			Where("rv.issue_id IN ?", bun.Safe("(SELECT value FROM json_each(?))")).Order("rv.id ASC").String()
	})
}

// Pending returns reviewerID's pending review of the issue.
func (s *PullReviewStore) Pending(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("rv.issue_id = ? AND rv.reviewer_id = ? AND rv.type = ?", issueID, reviewerID, int(pull.ReviewPending)).
			Order("rv.id DESC")
	})
}

// Latest returns reviewerID's latest verdict or request on the issue.
func (s *PullReviewStore) Latest(ctx context.Context, issueID, reviewerID int64) (*pull.Review, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("rv.issue_id = ? AND rv.reviewer_id = ?", issueID, reviewerID).
			Where("rv.type IN (?)", bun.In(verdictTypes)).Order("rv.id DESC")
	})
}

// TeamRequest returns the team's latest request on the issue.
func (s *PullReviewStore) TeamRequest(ctx context.Context, issueID, teamID int64) (*pull.Review, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("rv.issue_id = ? AND rv.reviewer_team_id = ?", issueID, teamID).Order("rv.id DESC")
	})
}

// ClearOfficial unsets official on reviewerID's reviews of the issue.
func (s *PullReviewStore) ClearOfficial(ctx context.Context, issueID, reviewerID int64) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*reviewRow)(nil)).Set("official = ?", false).
		Where("issue_id = ? AND reviewer_id = ?", issueID, reviewerID).Exec(ctx)
	return reviewMapping.mapErr(err)
}

// SetOfficial sets official on one review.
func (s *PullReviewStore) SetOfficial(ctx context.Context, id int64, official bool) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*reviewRow)(nil)).Set("official = ?", official).
		Where("id = ?", id).Exec(ctx)
	return reviewMapping.affected(res, err)
}

// DeleteRequests removes reviewerID's user requests on the issue.
func (s *PullReviewStore) DeleteRequests(ctx context.Context, issueID, reviewerID int64) error {
	_, err := s.c.w(ctx).NewDelete().Model((*reviewRow)(nil)).
		Where("issue_id = ? AND reviewer_id = ? AND type = ?", issueID, reviewerID, int(pull.ReviewRequest)).Exec(ctx)
	return reviewMapping.mapErr(err)
}

// DismissVerdicts dismisses reviewerID's approvals and rejections.
func (s *PullReviewStore) DismissVerdicts(ctx context.Context, issueID, reviewerID int64) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*reviewRow)(nil)).Set("dismissed = ?", true).
		Where("issue_id = ? AND reviewer_id = ?", issueID, reviewerID).
		Where("type IN (?)", bun.In([]int{int(pull.ReviewApproved), int(pull.ReviewRequestChanges)})).Exec(ctx)
	return reviewMapping.mapErr(err)
}

// MarkStale marks the issue's reviews stale unless they judged head (one
// statement: Gitea's MarkReviewsAsStale then MarkReviewsAsNotStale).
func (s *PullReviewStore) MarkStale(ctx context.Context, issueID int64, head string) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*reviewRow)(nil)).
		Set("stale = (commit_id <> '' AND commit_id <> ?)", head).Where("issue_id = ?", issueID).Exec(ctx)
	return reviewMapping.mapErr(err)
}

// CodeComments returns the code comments of these reviews by review.
func (s *PullReviewStore) CodeComments(ctx context.Context, reviewIDs []int64) (map[int64][]*issue.Comment, error) {
	out := map[int64][]*issue.Comment{}
	if len(reviewIDs) == 0 {
		return out, nil
	}
	var rows []commentRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("c.review_id IN (?)", bun.In(reviewIDs)).
		Where("c.type = ?", int(issue.CommentCode)).Order("c.created_at ASC", "c.id ASC").Scan(ctx); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	for i := range rows {
		out[rows[i].ReviewID] = append(out[rows[i].ReviewID], rows[i].toDomain())
	}
	return out, nil
}

// ValidCodeComments returns the issue's code comments not invalidated yet.
func (s *PullReviewStore) ValidCodeComments(ctx context.Context, issueID int64, limit int) ([]*issue.Comment, error) {
	var rows []commentRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("c.issue_id = ?", issueID).
		Where("c.type = ?", int(issue.CommentCode)).Where("c.invalidated = ?", false).
		Order("c.created_at ASC", "c.id ASC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	out := make([]*issue.Comment, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// InvalidateComments marks these code comments outdated.
func (s *PullReviewStore) InvalidateComments(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.c.w(ctx).NewUpdate().Model((*commentRow)(nil)).Set("invalidated = ?", true).
		Where("id IN (?)", bun.In(ids)).Where("type = ?", int(issue.CommentCode)).Exec(ctx)
	return commentMapping.mapErr(err)
}

// CodeCommentCounts counts the code comments of these reviews.
func (s *PullReviewStore) CodeCommentCounts(ctx context.Context, reviewIDs []int64) (map[int64]int, error) {
	out := map[int64]int{}
	if len(reviewIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ReviewID int64 `bun:"review_id"`
		N        int   `bun:"n"`
	}
	if err := s.c.r(ctx).NewSelect().Model((*commentRow)(nil)).ColumnExpr("c.review_id, count(*) AS n").
		Where("c.review_id IN (?)", bun.In(reviewIDs)).Where("c.type = ?", int(issue.CommentCode)).
		Group("c.review_id").Scan(ctx, &rows); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.ReviewID] = r.N
	}
	return out, nil
}

// Entries returns the timeline entry of each of these reviews.
func (s *PullReviewStore) Entries(ctx context.Context, reviewIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(reviewIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ReviewID int64 `bun:"review_id"`
		ID       int64 `bun:"id"`
	}
	if err := s.c.r(ctx).NewSelect().Model((*commentRow)(nil)).ColumnExpr("c.review_id, min(c.id) AS id").
		Where("c.review_id IN (?)", bun.In(reviewIDs)).Where("c.type = ?", int(issue.CommentReview)).
		Group("c.review_id").Scan(ctx, &rows); err != nil {
		return nil, commentMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.ReviewID] = r.ID
	}
	return out, nil
}

// Teams finds these teams with their units (two queries).
func (s *PullReviewStore) Teams(ctx context.Context, ids []int64) (map[int64]*org.Team, error) {
	out := map[int64]*org.Team{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []teamRow
	if err := selectTeams(s.c.r(ctx), &rows).Where("t.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, teamMapping.mapErr(err)
	}
	list := domainAll(rows, (*teamRow).toDomain)
	if err := (&OrgStore{c: s.c}).loadUnits(ctx, list); err != nil {
		return nil, err
	}
	for _, t := range list {
		out[t.ID] = t
	}
	return out, nil
}
