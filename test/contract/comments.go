package contract

import "testing"

// PLACEHOLDER: written by a helper.

// commentTests is the Comments group of the store suite.
var commentTests = map[string]func(t *testing.T, f *fixture){}
