package sqlstore

import "github.com/depothq/depot/ports"

var _ ports.HookDeliveryStore = (*HookDeliveryStore)(nil)

// HookDeliveryStore is the SQL implementation of ports.HookDeliveryStore.
type HookDeliveryStore struct{ c conn }
