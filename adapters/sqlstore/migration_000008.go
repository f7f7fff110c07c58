package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000008, frozen once released: webhooks.
//
// One table holds every scope: a repository hook has repo_id, an account
// hook owner_id, and a site hook neither (is_system tells a system hook from
// a default one). The scope columns are NULL when unused, so the foreign
// keys hold and a hook dies with its repository or account.

type m000008Webhook struct {
	bun.BaseModel `bun:"table:webhooks"`

	ID       int64 `bun:"id,pk,autoincrement"`
	RepoID   int64 `bun:"repo_id,nullzero"`
	OwnerID  int64 `bun:"owner_id,nullzero"`
	IsSystem bool  `bun:"is_system,notnull,default:false"`
	// Kind is the type as the client named it ("gitea" or "service" for the
	// native kind).
	Kind                string    `bun:"kind,type:varchar(32),notnull"`
	URL                 string    `bun:"url,notnull"`
	HTTPMethod          string    `bun:"http_method,type:varchar(16),notnull,default:'POST'"`
	ContentType         string    `bun:"content_type,type:varchar(16),notnull"`
	Secret              string    `bun:"secret,notnull,default:''"`
	Events              string    `bun:"events,notnull,default:''"`
	BranchFilter        string    `bun:"branch_filter,notnull,default:''"`
	AuthorizationHeader string    `bun:"authorization_header,notnull,default:''"`
	Meta                string    `bun:"meta,notnull,default:''"`
	Active              bool      `bun:"active,notnull,default:false"`
	Created             time.Time `bun:"created,nullzero"`
	Updated             time.Time `bun:"updated,nullzero"`
}

const cascadeHookToOwner = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`

func up000008(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000008Webhook)(nil)).IfNotExists().
		ForeignKey(cascadeToRepos).ForeignKey(cascadeHookToOwner).Exec(ctx); err != nil {
		return err
	}
	// Each scope's listing walks its index in id order; ActiveFor is the
	// union of the three (repository, owner, active system hooks), each an
	// index range. The repository and owner indexes also serve the cascades.
	indexes := []struct {
		name    string
		columns []string
		where   string
	}{
		{"idx_webhooks_repo", []string{"repo_id", "id"}, ""},
		{"idx_webhooks_owner", []string{"owner_id", "id"}, ""},
		{"idx_webhooks_site", []string{"is_system", "id"}, "repo_id IS NULL AND owner_id IS NULL"},
	}
	for _, ix := range indexes {
		q := tx.NewCreateIndex().Table("webhooks").Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.where != "" {
			q = q.Where(ix.where)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000008(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000008Webhook)(nil)).IfExists().Exec(ctx)
	return err
}
