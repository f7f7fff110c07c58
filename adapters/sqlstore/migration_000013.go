package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
)

// Schema version 000013, frozen once released: the issue full-text search
// index (SQLite FTS5, Postgres tsvector with a GIN index).

func up000013(ctx context.Context, tx bun.Tx) error {
	return nil // PLACEHOLDER: issue search index (helper "issues core")
}

func down000013(ctx context.Context, tx bun.Tx) error {
	return nil
}
