package contract

import "testing"

// jobTests is the contract of JobStore.
var jobTests = map[string]func(t *testing.T, f *fixture){}
