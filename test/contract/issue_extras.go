package contract

import "testing"

// PLACEHOLDER: written by a helper.

// issueExtraTests is the IssueExtras group of the store suite.
var issueExtraTests = map[string]func(t *testing.T, f *fixture){}
