package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000006, frozen once released: jobs.

func up000006(ctx context.Context, tx bun.Tx) error {
	return nil
}

func down000006(ctx context.Context, tx bun.Tx) error {
	return nil
}
