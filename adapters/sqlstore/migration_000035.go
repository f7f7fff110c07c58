package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000035, frozen once released: activity records of the
// feeds (Gitea's action table). A record dies with its repository and with
// its actor; created_unix is in seconds so the heatmap buckets in SQL.
type m000035Activity struct {
	bun.BaseModel `bun:"table:activities"`

	ID          int64  `bun:"id,pk,autoincrement"`
	UserID      int64  `bun:"user_id,notnull"`
	ActUserID   int64  `bun:"act_user_id,notnull"`
	OpType      string `bun:"op_type,type:varchar(40),notnull"`
	RepoID      int64  `bun:"repo_id,notnull"`
	RepoOwnerID int64  `bun:"repo_owner_id,notnull"`
	CommentID   int64  `bun:"comment_id,notnull,default:0"`
	RefName     string `bun:"ref_name,type:text,notnull,default:''"`
	Content     string `bun:"content,type:text,notnull,default:''"`
	IsPrivate   bool   `bun:"is_private,notnull,default:false"`
	CreatedUnix int64  `bun:"created_unix,notnull"`
}

func up000035(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000035Activity)(nil)).IfNotExists().
		ForeignKey(`("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`).
		ForeignKey(`("act_user_id") REFERENCES "users" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	// Each feed pages newest first by its own index.
	for name, cols := range map[string][]string{
		"activities_repo":  {"repo_id", "created_unix"},
		"activities_actor": {"act_user_id", "created_unix"},
		"activities_owner": {"repo_owner_id", "created_unix"},
		"activities_user":  {"user_id", "created_unix"},
	} {
		if _, err := tx.NewCreateIndex().Table("activities").Index(name).Column(cols...).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000035(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000035Activity)(nil)).IfExists().Exec(ctx)
	return err
}
