package sqlstore

import "github.com/depothq/depot/ports"

var _ ports.HookStore = (*HookStore)(nil)

// HookStore is the SQL implementation of ports.HookStore.
type HookStore struct {
	c               conn
	ports.HookStore // placeholder until implemented: remove
}
