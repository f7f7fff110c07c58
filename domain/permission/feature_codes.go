package permission

import (
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
)

// The feature codes hide or refuse a route while a feature is off. Gitea
// applies each as a group middleware in routers/api/v1/api.go
// (mustEnableIssuesOrPulls, mustEnableIssues, mustEnableAttachments,
// reqGitHook). A row checks its codes in the order it lists them, so where a
// code stands decides which refusal wins: IssuesOrPulls stands first on the
// R/issues rows (a hidden tracker is 404 to an anonymous writer too, as
// Gitea's group middleware runs before reqToken); on the other rows the
// feature code stands last, where the use case used to check it.

// msgIssuesOff is the 404 of IssuesEnabled, as the time use cases worded it
// before the rule moved into the route rows.
const msgIssuesOff = "issues are disabled or not readable"

// checkIssuesEnabled is IssuesEnabled, Gitea's mustEnableIssues: the
// repository has the issues unit and the actor reads it (a site admin reads
// every enabled unit), else 404.
func checkIssuesEnabled(f Facts) error {
	if !f.Repo.HasUnit(UnitIssues) || !(f.Perm.CanRead(UnitIssues) || f.Actor.IsAdmin()) {
		return errs.NotFound(msgIssuesOff)
	}
	return nil
}

// msgPullsOff is the 404 of Pulls.
const msgPullsOff = "pull requests are disabled or not readable"

// checkPullsEnabled is Pulls, Gitea's mustAllowPulls: the repository has
// the pull request unit and the actor reads it (a site admin reads every
// enabled unit), else 404 for the whole pull request group.
func checkPullsEnabled(f Facts) error {
	if !f.Repo.HasUnit(UnitPulls) || !(f.Perm.CanRead(UnitPulls) || f.Actor.IsAdmin()) {
		return errs.NotFound(msgPullsOff)
	}
	return nil
}

// msgWikiOff is the 404 of Wiki.
const msgWikiOff = "wiki is disabled or not readable"

// checkWikiEnabled is Wiki, Gitea's reqRepoReader(unit.TypeWiki) on the
// wiki group as the catalogue words it: the repository has the wiki unit
// and the actor reads it (a site admin reads every enabled unit), else 404.
func checkWikiEnabled(f Facts) error {
	if !f.Repo.HasUnit(UnitWiki) || !(f.Perm.CanRead(UnitWiki) || f.Actor.IsAdmin()) {
		return errs.NotFound(msgWikiOff)
	}
	return nil
}

// checkAttachments is Attachments, Gitea's mustEnableAttachments: 404 while
// the site disables attachments, for everyone (issue.AttachmentRules).
func checkAttachments(f Facts) error {
	return issue.AttachmentRules{Enabled: f.AttachmentsEnabled}.CheckEnabled()
}

// checkGitHooks is GitHooks, Gitea's reqGitHook (User.CanEditGitHook): the
// site enables Git hooks and the actor is a site admin or an account
// allowed to edit them, else 403 (hook.CanEditGitHooks, which also decides
// whether a repository generated from a template copies its Git hooks).
func checkGitHooks(f Facts) error {
	return hook.CanEditGitHooks(f.GitHooksEnabled, f.Actor.IsAdmin(), f.AllowGitHook)
}

// checkNotBlocked is NotBlocked, Gitea's rule that whom a repository's owner
// blocked may not open issues, comment, star, watch or fork there: 403
// "user is blocked" (user.ErrBlocked). The facts say whether the owner
// blocked the actor; a site administrator is never held back (the adapter
// leaves BlockedByOwner false for one, as user.HeldBack does).
func checkNotBlocked(f Facts) error {
	if f.BlockedByOwner && !f.Actor.IsAdmin() {
		return user.ErrBlocked
	}
	return nil
}
