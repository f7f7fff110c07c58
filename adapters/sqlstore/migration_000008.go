package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000008, frozen once released: webhooks.

func up000008(ctx context.Context, tx bun.Tx) error {
	return nil
}

func down000008(ctx context.Context, tx bun.Tx) error {
	return nil
}
