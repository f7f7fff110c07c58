package protection_test

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

// FuzzBranchRuleName feeds rule names and branch names through validation,
// compilation and matching: none may panic, a refused name is always a 422
// naming RuleName, and an accepted exact name always matches itself.
func FuzzBranchRuleName(f *testing.F) {
	for _, s := range []string{"main", "release/*", "**", "[a", "{a,b}", "\\", "a\x00b", "feature/**/x", "!x"} {
		f.Add(s, "main")
	}
	f.Fuzz(func(t *testing.T, name, branch string) {
		r := protection.BranchRule{Name: name, ProtectedFilePatterns: name, StatusCheckContexts: []string{name}}
		if _, err := protection.CompileName(name); err != nil {
			var e *errs.Error
			if !errors.Is(err, errs.ErrInvalid) || !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0] != "RuleName" {
				t.Fatalf("CompileName(%q) = %v", name, err)
			}
		}
		_ = r.Validate()
		set := protection.NewRuleSet([]*protection.BranchRule{&r})
		p := set.Match(branch)
		if !protection.IsGlob(name) && set.Match(name) == nil {
			t.Fatalf("exact rule %q does not match itself", name)
		}
		if p != nil {
			_ = p.CheckPush(protection.Doer{}, protection.RefUpdate{ChangedFiles: []string{branch}})
		}
	})
}
