package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// MigrationCount is how many schema versions the package defines, for
// tests that check each was recorded once.
func MigrationCount() int { return len(migrations().Sorted()) }

// MigrationStep runs the up (or down) step of schema version name alone,
// in a transaction, for the tests of what one step does to existing rows.
func (d *DB) MigrationStep(ctx context.Context, name string, up bool) error {
	steps := map[string][2]func(context.Context, bun.Tx) error{"000055": {up000055, down000055}}
	s, ok := steps[name]
	if !ok {
		return fmt.Errorf("no step %s", name)
	}
	fn := s[1]
	if up {
		fn = s[0]
	}
	return d.write.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}
