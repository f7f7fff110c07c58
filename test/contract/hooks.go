package contract

import "testing"

// hookTests is the contract of HookStore.
var hookTests = map[string]func(t *testing.T, f *fixture){}
