package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000023, frozen once released: pull request reviews (and
// review requests, which Gitea keeps among them), and the columns of the
// comments table that code comments, review entries and review requests
// use. Code comments stay comments, as in Gitea: they share the id space
// (their html_url anchors, reactions and edits go through the comment
// routes) and the issue's timeline reads one table.

// m000023PullReview is one review or review request. reviewer_team_id is
// set (and reviewer_id 0) for a team's request. type is Gitea's ReviewType.
type m000023PullReview struct {
	bun.BaseModel `bun:"table:pull_reviews"`

	ID             int64     `bun:"id,pk,autoincrement"`
	IssueID        int64     `bun:"issue_id,notnull"`
	Type           int       `bun:"type,notnull,default:0"`
	ReviewerID     int64     `bun:"reviewer_id,notnull,default:0"`
	ReviewerTeamID int64     `bun:"reviewer_team_id,notnull,default:0"`
	Content        string    `bun:"content,type:text,notnull,default:''"`
	CommitID       string    `bun:"commit_id,type:varchar(64),notnull,default:''"`
	Official       bool      `bun:"official,notnull,default:false"`
	Stale          bool      `bun:"stale,notnull,default:false"`
	Dismissed      bool      `bun:"dismissed,notnull,default:false"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
	UpdatedAt      time.Time `bun:"updated_at,notnull"`
}

// m000023CommentColumns are the columns added to comments.
var m000023CommentColumns = []string{
	"review_id BIGINT NOT NULL DEFAULT 0",
	"assignee_team_id BIGINT NOT NULL DEFAULT 0",
	"tree_path TEXT NOT NULL DEFAULT ''",
	"line BIGINT NOT NULL DEFAULT 0",
	"commit_sha VARCHAR(64) NOT NULL DEFAULT ''",
	"patch TEXT NOT NULL DEFAULT ''",
	"invalidated BOOLEAN NOT NULL DEFAULT false",
	"resolve_doer_id BIGINT NOT NULL DEFAULT 0",
}

func up000023(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000023PullReview)(nil)).IfNotExists().
		ForeignKey(cascadeToPullIssue).Exec(ctx); err != nil {
		return err
	}
	// A pull request's reviews in order; a reviewer's latest review.
	if _, err := tx.NewCreateIndex().Table("pull_reviews").Index("idx_pull_reviews_issue_reviewer").
		Column("issue_id", "reviewer_id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	for _, col := range m000023CommentColumns {
		if _, err := tx.ExecContext(ctx, "ALTER TABLE comments ADD COLUMN "+col); err != nil {
			return err
		}
	}
	// The comments of a review (code comments, its entry, dismissals).
	_, err := tx.NewCreateIndex().Table("comments").Index("idx_comments_review").
		Column("review_id").IfNotExists().Exec(ctx)
	return err
}

func down000023(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, "DROP INDEX IF EXISTS idx_comments_review"); err != nil {
		return err
	}
	for i := len(m000023CommentColumns) - 1; i >= 0; i-- {
		name, _, _ := strings.Cut(m000023CommentColumns[i], " ")
		if _, err := tx.ExecContext(ctx, "ALTER TABLE comments DROP COLUMN "+name); err != nil {
			return err
		}
	}
	_, err := tx.NewDropTable().Model((*m000023PullReview)(nil)).IfExists().Exec(ctx)
	return err
}
