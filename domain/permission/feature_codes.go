package permission

import "github.com/depothq/depot/domain/errs"

// The feature codes hide or refuse a route while a feature is off. Gitea
// applies each as a group middleware in routers/api/v1/api.go
// (mustEnableIssuesOrPulls, mustEnableIssues, mustEnableAttachments,
// reqGitHook). A row checks its codes in the order it lists them, so where a
// code stands decides which refusal wins: IssuesOrPulls stands first on the
// R/issues rows (a hidden tracker is 404 to an anonymous writer too, as
// Gitea's group middleware runs before reqToken); on the other rows the
// feature code stands last, where the use case used to check it.

// Messages of the feature codes; they are the words the use cases answered
// before the rules moved into the route rows.
const (
	msgIssuesOff      = "issues are disabled or not readable"
	msgAttachmentsOff = "attachments are disabled"
	msgGitHooksDenied = "must be allowed to edit Git hooks"
)

// checkIssuesEnabled is IssuesEnabled, Gitea's mustEnableIssues: the
// repository has the issues unit and the actor reads it (a site admin reads
// every enabled unit), else 404.
func checkIssuesEnabled(f Facts) error {
	if !f.Repo.HasUnit(UnitIssues) || !(f.Perm.CanRead(UnitIssues) || f.Actor.IsAdmin()) {
		return errs.NotFound(msgIssuesOff)
	}
	return nil
}

// checkAttachments is Attachments, Gitea's mustEnableAttachments: 404 while
// the site disables attachments, for everyone.
func checkAttachments(f Facts) error {
	if !f.AttachmentsEnabled {
		return errs.NotFound(msgAttachmentsOff)
	}
	return nil
}

// checkGitHooks is GitHooks, Gitea's reqGitHook (User.CanEditGitHook): the
// site enables Git hooks and the actor is a site admin or an account
// allowed to edit them, else 403.
func checkGitHooks(f Facts) error {
	if !f.GitHooksEnabled || !(f.Actor.IsAdmin() || f.AllowGitHook) {
		return errs.Forbidden(msgGitHooksDenied)
	}
	return nil
}
