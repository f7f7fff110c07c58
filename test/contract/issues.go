package contract

import "testing"

// PLACEHOLDER: written by a helper.

// issueTests is the Issues group of the store suite.
var issueTests = map[string]func(t *testing.T, f *fixture){}
