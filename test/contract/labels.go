package contract

import "testing"

// PLACEHOLDER: written by a helper.

// labelTests is the Labels group of the store suite.
var labelTests = map[string]func(t *testing.T, f *fixture){}
