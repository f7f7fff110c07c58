package permission

import (
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
)

// Messages of the checks every request goes through, as Gitea words them
// (verifyAuthWithOptions and repoAssignment in routers/api/v1/api.go, and
// APIContext.NotFound).
const (
	msgNotActivated      = "This account is not activated."
	msgProhibitLogin     = "This account is prohibited from signing in, please contact your site administrator."
	msgMustChangePasswd  = "You must change your password. Change it at: "
	msgSignInRequired    = "Only signed in user is allowed to call APIs."
	msgNotFound          = "The target couldn't be found."
	msgAdminOnlyEndpoint = "You have no permission to request for this."
)

// CheckAccount applies the account checks of every signed-in request (spec
// section 5 rule 8), in Gitea's order: an unconfirmed account when the site
// requires confirmation, then an inactive or login-prohibited account, then
// an account that must change its password. Anonymous callers and workflow
// runs pass.
//
// changePasswordURL ends the must-change message. Gitea writes its AppURL,
// which always ends in "/", followed by "/user/change_password", so with a
// base URL of "http://h:3000" Gitea's exact text ends in
// "http://h:3000//user/change_password"; the caller chooses.
func CheckAccount(a Actor, requireEmailConfirmation bool, changePasswordURL string) error {
	if a.Kind != ActorUser {
		return nil
	}
	if requireEmailConfirmation && !a.IsActivated {
		return errs.Forbidden(msgNotActivated)
	}
	if !a.IsActive || a.ProhibitLogin {
		return errs.Forbidden(msgProhibitLogin)
	}
	if a.MustChangePassword {
		return errs.Forbidden(msgMustChangePasswd + changePasswordURL)
	}
	return nil
}

// CheckSignInRequired refuses anonymous callers when the site requires
// sign-in to view (spec section 5 rule 9). A workflow run counts as signed in.
func CheckSignInRequired(a Actor, required bool) error {
	if required && !a.SignedIn() {
		return errs.Forbidden(msgSignInRequired)
	}
	return nil
}

// CheckRepoVisible is the rule every route under a repository applies after
// resolving it: 404 when the actor may not read any unit, which includes a
// workflow run on a repository other than its own.
func CheckRepoVisible(a Actor, r Repo, p Permission) error {
	if a.Kind == ActorWorkflowRun && a.RunRepoID != r.ID {
		return errs.NotFound(msgNotFound)
	}
	if !p.HasAnyAccess() {
		return errs.NotFound(msgNotFound)
	}
	return nil
}

// AdminOnlyError is Gitea's answer on its web admin-only pages. The API's
// /admin routes do not use it: they answer with SA's "user should be the site
// admin". It is kept for routes that document it (spec section 7).
func AdminOnlyError() error { return errs.Forbidden(msgAdminOnlyEndpoint) }

// CheckScope applies a token's scopes to a route of the given categories:
// write for POST, PUT, PATCH and DELETE, read otherwise. Only requests
// authenticated by an access token are limited; password sign-in and
// workflow runs pass. See token.Scopes.Require for the message.
func CheckScope(a Actor, write bool, cats ...token.Category) error {
	if a.Kind != ActorUser || !a.ViaToken {
		return nil
	}
	return a.Scopes.Require(write, cats...)
}

// PublicTarget says which resources of a request are not public, for the
// public-only token rule.
type PublicTarget struct {
	// RepoPrivate is set when the route's repository is private.
	RepoPrivate bool
	// OrgNotPublic is set when the route's organisation (or the path's user,
	// being an organisation) is limited or private.
	OrgNotPublic bool
	// UserNotPublic is set when the path's user is an individual whose
	// visibility is limited or private.
	UserNotPublic bool
	// PackageOwnerNotPublic is set when the package's owner is limited or private.
	PackageOwnerNotPublic bool
}

// CheckPublicOnly refuses a public-only token on a route of the given
// categories that touches a non-public resource (spec section 5 rule 5;
// Gitea's checkTokenPublicOnly). Callers that are not public-only tokens pass.
func CheckPublicOnly(a Actor, cats []token.Category, t PublicTarget) error {
	if a.Kind != ActorUser || !a.ViaToken || !a.Scopes.PublicOnly() {
		return nil
	}
	for _, c := range cats {
		hit := false
		switch c {
		case token.CategoryRepository, token.CategoryIssue, token.CategoryNotification:
			hit = t.RepoPrivate
		case token.CategoryOrganization:
			hit = t.OrgNotPublic
		case token.CategoryUser, token.CategoryActivityPub:
			hit = t.UserNotPublic
		case token.CategoryPackage:
			hit = t.PackageOwnerNotPublic
		}
		if hit {
			return token.PublicOnlyError(c)
		}
	}
	return nil
}
