package issue

import (
	"slices"

	"github.com/depothq/depot/domain/errs"
)

// allowedReactions are Gitea's default [ui] REACTIONS, in its order.
var allowedReactions = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

// AllowedReactions returns the reactions a user may give, in Gitea's order.
func AllowedReactions() []string { return slices.Clone(allowedReactions) }

// CheckReaction refuses a reaction outside the allowed set with Gitea's 403
// and message.
func CheckReaction(typ string) error {
	if !slices.Contains(allowedReactions, typ) {
		return errs.Forbidden("'" + typ + "' is not an allowed reaction")
	}
	return nil
}

// CanReact reports whether a doer may add or remove reactions on i: a
// locked issue takes them from writers only (Gitea's "no permission to
// change reaction").
func CanReact(i *Issue, writer bool) error {
	if i.IsLocked && !writer {
		return errs.Forbidden("no permission to change reaction")
	}
	return nil
}
