package issue

import "github.com/depothq/depot/domain/errs"

// DependencyFacts are what decides whether an issue may depend on another.
type DependencyFacts struct {
	// Issue depends on (is blocked by) DependsOn.
	Issue, DependsOn *Issue
	// Exists says the dependency is already recorded.
	Exists bool
	// Reverse says DependsOn already depends on Issue, directly or through
	// other issues: the new dependency would close a cycle.
	Reverse bool
}

// CheckNewDependency returns nil when the dependency may be added: not on
// itself, not twice, not closing a cycle.
func CheckNewDependency(f DependencyFacts) error {
	if f.Issue.ID == f.DependsOn.ID {
		return errs.Invalid("an issue cannot depend on itself", "Index")
	}
	if f.Exists {
		return errs.Conflict("issue dependency does already exist")
	}
	if f.Reverse {
		return errs.Invalid("circular dependencies are not allowed: the other issue already depends on this one", "Index")
	}
	return nil
}
