package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000009, frozen once released: hook_deliveries.

func up000009(ctx context.Context, tx bun.Tx) error {
	return nil
}

func down000009(ctx context.Context, tx bun.Tx) error {
	return nil
}
