// Package protection holds the rules that protect a repository's branches:
// what a rule is, which rule applies to a branch (rule names are exact
// names or globs, and the highest-priority match wins), and the pure
// decisions built on it: may this pusher update, force-push or delete this
// branch, may these changed files be written, may this doer merge. It does
// no I/O: the application gathers the facts (the pusher's teams, whether an
// update is a fast-forward, the files it changes) and asks.
package protection

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
	"github.com/gobwas/glob"
)

// BranchRule is one branch protection rule of a repository, with every
// option of Gitea's CreateBranchProtectionOption. Allowlists hold user and
// team ids; the adapters turn them into names.
type BranchRule struct {
	ID     int64
	RepoID int64
	// Name is the rule's name: a branch name, or a glob ("release/*", "**").
	Name string
	// Priority orders rules of the same kind (exact or glob): lower first.
	Priority int64

	// EnablePush lets writers (or, with the allowlist, those it names) push.
	EnablePush              bool
	EnablePushAllowlist     bool
	PushAllowlistUserIDs    []int64
	PushAllowlistTeamIDs    []int64
	PushAllowlistDeployKeys bool

	// EnableForcePush lets pushers (or, with its allowlist, those it names
	// who may also push) rewrite the branch.
	EnableForcePush              bool
	EnableForcePushAllowlist     bool
	ForcePushAllowlistUserIDs    []int64
	ForcePushAllowlistTeamIDs    []int64
	ForcePushAllowlistDeployKeys bool

	// EnableMergeAllowlist limits merges of pull requests into the branch
	// to those it names (otherwise: writers of code).
	EnableMergeAllowlist  bool
	MergeAllowlistUserIDs []int64
	MergeAllowlistTeamIDs []int64

	// EnableStatusCheck requires every status whose context matches one of
	// StatusCheckContexts (globs) to succeed on a pull request's head.
	EnableStatusCheck   bool
	StatusCheckContexts []string

	// The review options. They are stored and reported; merges enforce them
	// once reviews exist.
	RequiredApprovals             int64
	EnableApprovalsAllowlist      bool
	ApprovalsAllowlistUserIDs     []int64
	ApprovalsAllowlistTeamIDs     []int64
	BlockOnRejectedReviews        bool
	BlockOnOfficialReviewRequests bool
	DismissStaleApprovals         bool
	IgnoreStaleApprovals          bool

	// BlockOnOutdatedBranch refuses merges whose head is behind the base.
	BlockOnOutdatedBranch bool
	// RequireSignedCommits refuses pushes bringing commits whose signature
	// is not verified, and API writes Depot would not sign.
	RequireSignedCommits bool
	// ProtectedFilePatterns and UnprotectedFilePatterns are
	// semicolon-separated globs over file paths (case-insensitive).
	ProtectedFilePatterns   string
	UnprotectedFilePatterns string
	// BlockAdminMergeOverride keeps repository admins from merging past
	// the rule's merge conditions.
	BlockAdminMergeOverride bool

	Created, Updated time.Time
}

// MaxNameLength bounds a rule name (Gitea's column is a varchar(255)).
const MaxNameLength = 255

// MaxPatternsLength bounds the file pattern lists and each status context.
const MaxPatternsLength = 4096

// MaxContexts bounds the required status check contexts of one rule.
const MaxContexts = 100

// Gitea's messages.
const (
	msgRuleExists = "Branch protection already exist"
)

// ErrRuleExists is the answer to a second rule of the same name (422).
func ErrRuleExists() error { return errs.Invalid(msgRuleExists, "RuleName") }

// isSpecial reports whether b makes a rule name a glob.
func isSpecial(b byte) bool { return strings.IndexByte("*?[]{}\\!", b) >= 0 }

// IsGlob reports whether a rule name is a glob rather than a branch name.
func IsGlob(name string) bool {
	for i := 0; i < len(name); i++ {
		if isSpecial(name[i]) {
			return true
		}
	}
	return false
}

// CompileName compiles a rule name: nil for an exact name, a glob (with /
// separating path segments, so * stays within one) otherwise. An invalid
// glob is errs.Invalid naming RuleName.
func CompileName(name string) (*glob.Pattern, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if !IsGlob(name) {
		return nil, nil
	}
	g, err := glob.Compile(name, '/')
	if err != nil {
		return nil, errs.Invalid(fmt.Sprintf("rule_name %q is not a valid glob: %v", name, err), "RuleName")
	}
	return g, nil
}

// checkName refuses empty, overlong or control-character names.
func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errs.Invalid("rule_name is required", "RuleName")
	}
	if len(name) > MaxNameLength {
		return errs.Invalid(fmt.Sprintf("rule_name must be at most %d characters", MaxNameLength), "RuleName")
	}
	if !utf8.ValidString(name) {
		return errs.Invalid("rule_name must be valid UTF-8", "RuleName")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return errs.Invalid("rule_name must not contain control characters", "RuleName")
		}
	}
	return nil
}

// compilePatterns compiles a semicolon-separated list of file globs, lower
// case, with . and / as separators as Gitea does. An invalid one is
// errs.Invalid naming field.
func compilePatterns(list, field string) ([]*glob.Pattern, error) {
	var out []*glob.Pattern
	for _, p := range strings.Split(strings.ToLower(list), ";") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		g, err := glob.Compile(p, '.', '/')
		if err != nil {
			return nil, errs.Invalid(fmt.Sprintf("%q is not a valid glob: %v", p, err), field)
		}
		out = append(out, g)
	}
	return out, nil
}

// Normalize applies the options' dependencies as Gitea stores them: the
// push allowlist needs push, force push needs push, its allowlist needs
// force push, deploy keys need their allowlist; a negative approval count
// is none. Lists are kept sorted and without duplicates.
func (r *BranchRule) Normalize() {
	r.EnablePushAllowlist = r.EnablePush && r.EnablePushAllowlist
	r.PushAllowlistDeployKeys = r.EnablePushAllowlist && r.PushAllowlistDeployKeys
	r.EnableForcePush = r.EnablePush && r.EnableForcePush
	r.EnableForcePushAllowlist = r.EnableForcePush && r.EnableForcePushAllowlist
	r.ForcePushAllowlistDeployKeys = r.EnableForcePushAllowlist && r.ForcePushAllowlistDeployKeys
	if r.RequiredApprovals < 0 {
		r.RequiredApprovals = 0
	}
	for _, ids := range []*[]int64{&r.PushAllowlistUserIDs, &r.PushAllowlistTeamIDs, &r.ForcePushAllowlistUserIDs,
		&r.ForcePushAllowlistTeamIDs, &r.MergeAllowlistUserIDs, &r.MergeAllowlistTeamIDs,
		&r.ApprovalsAllowlistUserIDs, &r.ApprovalsAllowlistTeamIDs} {
		*ids = sortedIDs(*ids)
	}
	if r.StatusCheckContexts == nil {
		r.StatusCheckContexts = []string{}
	}
}

func sortedIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []int64{}
	}
	return out
}

// Validate checks a rule before it is stored: its name and file patterns
// compile and its status contexts compile as globs. Errors are
// errs.Invalid naming the field.
func (r *BranchRule) Validate() error {
	if _, err := CompileName(r.Name); err != nil {
		return err
	}
	if len(r.ProtectedFilePatterns) > MaxPatternsLength {
		return errs.Invalid(fmt.Sprintf("must be at most %d characters", MaxPatternsLength), "ProtectedFilePatterns")
	}
	if len(r.UnprotectedFilePatterns) > MaxPatternsLength {
		return errs.Invalid(fmt.Sprintf("must be at most %d characters", MaxPatternsLength), "UnprotectedFilePatterns")
	}
	if _, err := compilePatterns(r.ProtectedFilePatterns, "ProtectedFilePatterns"); err != nil {
		return err
	}
	if _, err := compilePatterns(r.UnprotectedFilePatterns, "UnprotectedFilePatterns"); err != nil {
		return err
	}
	if len(r.StatusCheckContexts) > MaxContexts {
		return errs.Invalid(fmt.Sprintf("at most %d contexts", MaxContexts), "StatusCheckContexts")
	}
	for _, c := range r.StatusCheckContexts {
		if strings.TrimSpace(c) == "" || len(c) > MaxPatternsLength {
			return errs.Invalid("a status check context must be a non-empty glob", "StatusCheckContexts")
		}
		if _, err := glob.Compile(c); err != nil {
			return errs.Invalid(fmt.Sprintf("%q is not a valid glob: %v", c, err), "StatusCheckContexts")
		}
	}
	return nil
}
