package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000003, frozen: commit statuses. These types describe the
// tables as this migration creates them.

// m000003CommitStatus is one status. idx counts the statuses of one
// (repo_id, sha) from 1, as Gitea's index column does; the API shows it as
// the status's id. creator_id has no foreign key on purpose: a status
// outlives the account that reported it (the API then shows no creator).
type m000003CommitStatus struct {
	bun.BaseModel `bun:"table:commit_statuses"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id,notnull,unique:commit_statuses_repo_sha_idx"`
	SHA         string    `bun:"sha,type:varchar(64),notnull,unique:commit_statuses_repo_sha_idx"`
	Idx         int64     `bun:"idx,notnull,unique:commit_statuses_repo_sha_idx"`
	State       string    `bun:"state,type:varchar(16),notnull"`
	TargetURL   string    `bun:"target_url,notnull,default:''"`
	Description string    `bun:"description,notnull,default:''"`
	Context     string    `bun:"context,notnull,default:''"`
	CreatorID   int64     `bun:"creator_id,notnull,default:0"`
	Created     time.Time `bun:"created,nullzero"`
	Updated     time.Time `bun:"updated,nullzero"`
}

// m000003CommitStatusIndex holds the last index given out per commit; the
// upsert on its row serialises concurrent creations on one commit.
type m000003CommitStatusIndex struct {
	bun.BaseModel `bun:"table:commit_status_index"`

	RepoID   int64  `bun:"repo_id,pk"`
	SHA      string `bun:"sha,pk,type:varchar(64)"`
	MaxIndex int64  `bun:"max_index,notnull,default:0"`
}

func up000003(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000003CommitStatus)(nil), (*m000003CommitStatusIndex)(nil)} {
		// Statuses die with their repository, by cascade.
		if _, err := tx.NewCreateTable().Model(model).IfNotExists().ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
			return err
		}
	}
	// The unique (repo_id, sha, idx) serves listings by commit in index
	// order; this one serves "latest per context" (GROUP BY context, MAX(idx)).
	_, err := tx.NewCreateIndex().Table("commit_statuses").Index("idx_commit_statuses_repo_sha_context").
		Column("repo_id", "sha", "context", "idx").IfNotExists().Exec(ctx)
	return err
}

func down000003(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000003CommitStatusIndex)(nil), (*m000003CommitStatus)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
