package protection_test

import (
	"strconv"
	"testing"

	"github.com/depothq/depot/domain/protection"
)

// BenchmarkBranchRuleMatch is the cost a push pays per ref once the rules
// are cached: matching a branch against 50 rules (exact and globs), far
// under the 5 ms budget of a protected push's extra work.
func BenchmarkBranchRuleMatch(b *testing.B) {
	var rules []*protection.BranchRule
	for i := 0; i < 25; i++ {
		rules = append(rules, &protection.BranchRule{ID: int64(2 * i), Name: "branch-" + strconv.Itoa(i)},
			&protection.BranchRule{ID: int64(2*i + 1), Name: "release-" + strconv.Itoa(i) + "/**"})
	}
	set := protection.NewRuleSet(rules)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if set.Match("feature/unprotected") != nil {
			b.Fatal("matched")
		}
	}
}
