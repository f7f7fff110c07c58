package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000045, frozen once released: /notifications/new counts a
// user's unread threads per repository from the index alone.
func up000045(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewCreateIndex().Table("notifications").Index("notifications_user_status_repo").
		Column("user_id", "status", "repo_id").IfNotExists().Exec(ctx)
	return err
}

func down000045(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropIndex().Index("notifications_user_status_repo").IfExists().Exec(ctx)
	return err
}
