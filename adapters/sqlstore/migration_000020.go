package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000020, frozen once released: pull requests, what they
// have beyond their issue row, and their scheduled automatic merges.

// m000020PullRequest is one pull request. head_repo_id has no foreign key:
// a fork may be deleted while its pull requests stay (the column is then
// 0). conflicted_files holds the paths one per line.
type m000020PullRequest struct {
	bun.BaseModel `bun:"table:pull_requests"`

	ID                  int64      `bun:"id,pk,autoincrement"`
	IssueID             int64      `bun:"issue_id,notnull,unique"`
	BaseRepoID          int64      `bun:"base_repo_id,notnull"`
	Idx                 int64      `bun:"idx,notnull"`
	HeadRepoID          int64      `bun:"head_repo_id,notnull,default:0"`
	HeadBranch          string     `bun:"head_branch,type:varchar(255),notnull"`
	BaseBranch          string     `bun:"base_branch,type:varchar(255),notnull"`
	HeadCommitID        string     `bun:"head_commit_id,type:varchar(64),notnull,default:''"`
	Status              string     `bun:"status,type:varchar(32),notnull,default:'checking'"`
	MergeBase           string     `bun:"merge_base,type:varchar(64),notnull,default:''"`
	ConflictedFiles     string     `bun:"conflicted_files,type:text,notnull,default:''"`
	CommitsAhead        int        `bun:"commits_ahead,notnull,default:0"`
	CommitsBehind       int        `bun:"commits_behind,notnull,default:0"`
	Additions           int        `bun:"additions,notnull,default:0"`
	Deletions           int        `bun:"deletions,notnull,default:0"`
	ChangedFiles        int        `bun:"changed_files,notnull,default:0"`
	HasMerged           bool       `bun:"has_merged,notnull,default:false"`
	MergedAt            *time.Time `bun:"merged_at"`
	MergedByID          int64      `bun:"merged_by_id,notnull,default:0"`
	MergeCommitID       string     `bun:"merge_commit_id,type:varchar(64),notnull,default:''"`
	AllowMaintainerEdit bool       `bun:"allow_maintainer_edit,notnull,default:false"`
}

// m000020AutoMerge is a merge scheduled for when the checks succeed.
type m000020AutoMerge struct {
	bun.BaseModel `bun:"table:pull_auto_merges"`

	PullID       int64     `bun:"pull_id,pk"`
	DoerID       int64     `bun:"doer_id,notnull"`
	Style        string    `bun:"style,type:varchar(32),notnull"`
	Message      string    `bun:"message,type:text,notnull,default:''"`
	DeleteBranch bool      `bun:"delete_branch,notnull,default:false"`
	HeadCommitID string    `bun:"head_commit_id,type:varchar(64),notnull,default:''"`
	Created      time.Time `bun:"created,notnull"`
}

const (
	cascadeToPullIssue = `("issue_id") REFERENCES "issues" ("id") ON DELETE CASCADE`
	cascadeToBaseRepo  = `("base_repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`
	cascadeToPull      = `("pull_id") REFERENCES "pull_requests" ("id") ON DELETE CASCADE`
)

func up000020(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000020PullRequest)(nil)).IfNotExists().
		ForeignKey(cascadeToPullIssue).ForeignKey(cascadeToBaseRepo).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000020AutoMerge)(nil)).IfNotExists().
		ForeignKey(cascadeToPull).Exec(ctx); err != nil {
		return err
	}
	for name, cols := range map[string][]string{
		// by index; by base branch (retarget, rechecks after a push to the
		// base); by head branch (a push to the head); by merge commit.
		"idx_pull_requests_base_idx":     {"base_repo_id", "idx"},
		"idx_pull_requests_base_branch":  {"base_repo_id", "base_branch"},
		"idx_pull_requests_head_branch":  {"head_repo_id", "head_branch"},
		"idx_pull_requests_merge_commit": {"base_repo_id", "merge_commit_id"},
	} {
		q := tx.NewCreateIndex().Table("pull_requests").Index(name).Column(cols...).IfNotExists()
		if name == "idx_pull_requests_base_idx" {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000020(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000020AutoMerge)(nil), (*m000020PullRequest)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
