package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000036, frozen once released: runner registration tokens.
//
// An account's token has owner_id, a repository's repo_id, the site's
// neither; the foreign keys make a token die with its account or
// repository. The token is matched by its hash (unique) and kept sealed so
// the scope's admins can read it again until they reset it.
type m000036ActionRunnerToken struct {
	bun.BaseModel `bun:"table:action_runner_tokens"`

	ID        int64     `bun:"id,pk,autoincrement"`
	OwnerID   int64     `bun:"owner_id,nullzero"`
	RepoID    int64     `bun:"repo_id,nullzero"`
	TokenHash string    `bun:"token_hash,type:varchar(64),notnull,unique"`
	Sealed    string    `bun:"sealed,type:text,notnull"`
	Created   time.Time `bun:"created,notnull"`
}

const actionRunnerTokenToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000036(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000036ActionRunnerToken)(nil)).IfNotExists().
		ForeignKey(actionRunnerTokenToOwner).ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
		return err
	}
	// A scope's lookup and the cascades walk these.
	for _, ix := range []struct{ name, column string }{
		{"action_runner_tokens_owner", "owner_id"},
		{"action_runner_tokens_repo", "repo_id"},
	} {
		if _, err := tx.NewCreateIndex().Table("action_runner_tokens").Index(ix.name).
			Column(ix.column).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000036(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000036ActionRunnerToken)(nil)).IfExists().Exec(ctx)
	return err
}
