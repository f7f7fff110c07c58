package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000007, frozen once released: mirrors.

func up000007(ctx context.Context, tx bun.Tx) error {
	return nil
}

func down000007(ctx context.Context, tx bun.Tx) error {
	return nil
}
