package contract

import "testing"

// hookDeliveryTests is the contract of HookDeliveryStore.
var hookDeliveryTests = map[string]func(t *testing.T, f *fixture){}
