package protection

import (
	"slices"
	"strings"

	"github.com/gobwas/glob"
)

// compiledRule is a rule with its name's glob (nil for an exact name) and
// its file patterns, compiled once.
type compiledRule struct {
	*BranchRule
	name        *glob.Pattern
	protected   []*glob.Pattern
	unprotected []*glob.Pattern
	contexts    []*glob.Pattern
}

// RuleSet is a repository's rules, compiled and ordered as Gitea applies
// them: rules with an exact name before globs, then by priority (lower
// first), then by age. The first rule whose name matches a branch is the
// one that protects it. A RuleSet is immutable, safe to share.
type RuleSet struct {
	rules []compiledRule
}

// NewRuleSet compiles and orders rules. A stored name or pattern that no
// longer compiles (stored before a stricter check) matches literally, and
// an invalid file pattern is skipped, as Gitea does.
func NewRuleSet(rules []*BranchRule) *RuleSet {
	out := make([]compiledRule, 0, len(rules))
	for _, r := range rules {
		c := compiledRule{BranchRule: r}
		if IsGlob(r.Name) {
			// A name that does not compile (stored before a stricter
			// check) matches only itself, literally.
			if g, err := glob.Compile(r.Name, '/'); err == nil {
				c.name = g
			}
		}
		c.protected = compileLenient(r.ProtectedFilePatterns)
		c.unprotected = compileLenient(r.UnprotectedFilePatterns)
		for _, ctx := range r.StatusCheckContexts {
			if g, err := glob.Compile(ctx); err == nil {
				c.contexts = append(c.contexts, g)
			}
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b compiledRule) int {
		if ae, be := !IsGlob(a.Name), !IsGlob(b.Name); ae != be {
			if ae {
				return -1
			}
			return 1
		}
		if a.Priority != b.Priority {
			if a.Priority < b.Priority {
				return -1
			}
			return 1
		}
		if a.ID < b.ID {
			return -1
		} else if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return &RuleSet{rules: out}
}

func compileLenient(list string) []*glob.Pattern {
	var out []*glob.Pattern
	for _, p := range strings.Split(strings.ToLower(list), ";") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if g, err := glob.Compile(p, '.', '/'); err == nil {
			out = append(out, g)
		}
	}
	return out
}

// Len is the number of rules.
func (s *RuleSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.rules)
}

// Rules returns the rules in the order they apply.
func (s *RuleSet) Rules() []*BranchRule {
	if s == nil {
		return nil
	}
	out := make([]*BranchRule, len(s.rules))
	for i := range s.rules {
		out[i] = s.rules[i].BranchRule
	}
	return out
}

// Match returns the rule that protects branch, or nil when none does. An
// exact name matches case-insensitively, as Gitea's does.
func (s *RuleSet) Match(branch string) *Protection {
	if s == nil {
		return nil
	}
	for i := range s.rules {
		r := &s.rules[i]
		if r.name == nil {
			if strings.EqualFold(r.Name, branch) {
				return &Protection{r: r, Branch: branch}
			}
		} else if r.name.Match(branch) {
			return &Protection{r: r, Branch: branch}
		}
	}
	return nil
}

// Protection is the rule that applies to one branch, ready for decisions.
type Protection struct {
	r *compiledRule
	// Branch is the protected branch's name.
	Branch string
}

// Rule is the rule that applies.
func (p *Protection) Rule() *BranchRule { return p.r.BranchRule }

// RequiresSignedCommits reports whether every commit new to the branch
// must carry a verified signature.
func (p *Protection) RequiresSignedCommits() bool { return p.r.RequireSignedCommits }

// HasFilePatterns reports whether the rule protects or unprotects files,
// so that a push's changed files are worth computing.
func (p *Protection) HasFilePatterns() bool {
	return len(p.r.protected) > 0 || len(p.r.unprotected) > 0
}

// NeedsTeams reports whether any allowlist names teams, so that the
// doer's teams are worth looking up.
func (p *Protection) NeedsTeams() bool {
	r := p.r
	return len(r.PushAllowlistTeamIDs)+len(r.ForcePushAllowlistTeamIDs)+len(r.MergeAllowlistTeamIDs) > 0
}

// IsProtectedFile reports whether path matches a protected file pattern.
func (p *Protection) IsProtectedFile(path string) bool {
	return matchAny(p.r.protected, path)
}

// IsUnprotectedFile reports whether path matches an unprotected file pattern.
func (p *Protection) IsUnprotectedFile(path string) bool {
	return matchAny(p.r.unprotected, path)
}

func matchAny(globs []*glob.Pattern, path string) bool {
	lp := strings.ToLower(strings.TrimSpace(path))
	for _, g := range globs {
		if g.Match(lp) {
			return true
		}
	}
	return false
}

// RequiresContext reports whether a status context is one the rule
// requires to succeed.
func (p *Protection) RequiresContext(context string) bool {
	for _, g := range p.r.contexts {
		if g.Match(context) {
			return true
		}
	}
	return false
}

// RequiredContexts are the rule's required status check patterns, or none
// when status checks are off.
func (p *Protection) RequiredContexts() []string {
	if !p.r.EnableStatusCheck {
		return nil
	}
	return p.r.StatusCheckContexts
}

// NeedsTeams reports whether any rule's allowlists name teams.
func (s *RuleSet) NeedsTeams() bool {
	if s == nil {
		return false
	}
	for i := range s.rules {
		if (&Protection{r: &s.rules[i]}).NeedsTeams() {
			return true
		}
	}
	return false
}
