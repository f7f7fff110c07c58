package permission

import "github.com/depothq/depot/domain/errs"

// msgTrackerOff is the 404 of a repository whose issues and pull requests
// the caller cannot read.
const msgTrackerOff = "issues and pull requests are disabled or not readable"

// PullsPossible reports whether r can take pull requests at all: Gitea's
// Repository.CanEnablePulls (models/repo/repo.go, "return !repo.IsMirror &&
// !repo.IsEmpty"). A mirror or a repository without a commit has none, so
// its pulls unit opens no issue route.
func (r Repo) PullsPossible() bool { return !r.IsMirror && !r.Empty }

// IssueTrackerReadable is the rule of every route under R/issues, Gitea's
// mustEnableIssuesOrPulls (routers/api/v1/api.go): the caller reads the
// issues unit, or reads the pulls unit of a repository that can take pull
// requests. Permission holds only enabled units, so a switched-off unit is
// unreadable to everyone, the owner and a site admin included — as Gitea's
// Permission.UnitAccessMode answers AccessModeNone for a unit the repository
// does not have, whatever the caller's overall mode.
func IssueTrackerReadable(f Facts) bool {
	if f.Repo == nil {
		return false
	}
	return f.Perm.CanRead(UnitIssues) || (f.Repo.PullsPossible() && f.Perm.CanRead(UnitPulls))
}

// CheckIssueTracker answers 404 unless IssueTrackerReadable: a disabled
// feature is hidden rather than refused (spec section 7).
func CheckIssueTracker(f Facts) error {
	if !IssueTrackerReadable(f) {
		return errs.NotFound(msgTrackerOff)
	}
	return nil
}
