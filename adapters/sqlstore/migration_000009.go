package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000009, frozen once released: hook_deliveries.
//
// A delivery is written with the event that causes it (the outbox row the
// job queue's job points at) and keeps the last attempt's request and
// answer. It dies with its hook. repo_id has no foreign key: a system or
// owner hook's record outlives the repository the event was about.

type m000009HookDelivery struct {
	bun.BaseModel `bun:"table:hook_deliveries"`

	ID              int64     `bun:"id,pk,autoincrement"`
	UUID            string    `bun:"uuid,type:varchar(36),notnull,unique:hook_deliveries_uuid"`
	HookID          int64     `bun:"hook_id,notnull"`
	RepoID          int64     `bun:"repo_id,notnull,default:0"`
	Event           string    `bun:"event,type:varchar(64),notnull"`
	EventType       string    `bun:"event_type,type:varchar(64),notnull"`
	Payload         string    `bun:"payload,notnull"`
	Attempts        int       `bun:"attempts,notnull,default:0"`
	RequestURL      string    `bun:"request_url,notnull,default:''"`
	RequestMethod   string    `bun:"request_method,type:varchar(16),notnull,default:''"`
	RequestHeaders  string    `bun:"request_headers,notnull,default:''"`
	ResponseStatus  int       `bun:"response_status,notnull,default:0"`
	ResponseHeaders string    `bun:"response_headers,notnull,default:''"`
	ResponseBody    string    `bun:"response_body,notnull,default:''"`
	Success         bool      `bun:"success,notnull,default:false"`
	Delivered       time.Time `bun:"delivered,nullzero"`
	Created         time.Time `bun:"created,nullzero"`
}

// cascadeToHooks removes a hook's deliveries with it.
const cascadeToHooks = `("hook_id") REFERENCES "webhooks" ("id") ON DELETE CASCADE`

func up000009(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000009HookDelivery)(nil)).IfNotExists().
		ForeignKey(cascadeToHooks).Exec(ctx); err != nil {
		return err
	}
	// Serves a hook's history, newest first, and the cascade from hooks.
	_, err := tx.NewCreateIndex().Table("hook_deliveries").Index("idx_hook_deliveries_hook").
		Column("hook_id", "id").IfNotExists().Exec(ctx)
	return err
}

func down000009(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000009HookDelivery)(nil)).IfExists().Exec(ctx)
	return err
}
