//go:build !unix

package sqlstore

import "context"

// lockFile is a no-op where flock does not exist. Migration 000001 is
// idempotent, and SQLite's single writer serialises each step, so concurrent
// migrators there can at worst record a version twice.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }
