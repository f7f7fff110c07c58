package pull

import (
	"fmt"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
)

// Messages of refused actions, Gitea's words where it has them.
const (
	msgCannotRead      = "Can't read pulls or can't read UnitTypeCode"
	msgCannotReadHead  = "Can't read headRepo UnitTypeCode"
	msgArchived        = "repo is archived"
	msgNoMergeRight    = "User not allowed to merge PR"
	msgWorkInProgress  = "Work in progress PRs cannot be merged"
	msgNotMergeable    = "Please try again later"
	msgAlreadyMerged   = "The pull request has already been merged"
	msgMergedNoState   = "cannot change state of this pull request, it was already merged"
	msgNoEditRight     = "user should have permission to edit the pull request"
	msgNoUpdateRight   = "user is not allowed to update the pull request's head branch"
	msgUpdateMerged    = "the pull request is merged"
	msgUpdateClosed    = "the pull request is closed"
	msgMaintainerEdits = "SetAllowEdits: user not allowed to do this action"
)

// CanOpen decides whether a doer with these permissions on the base and the
// head repository may open a pull request between them. As Gitea does, a
// doer who cannot read the pull requests and code of the base, or the code
// of the head, is told nothing exists (404).
func CanOpen(base, head permission.Permission, baseRepo *repository.Repository) error {
	if baseRepo.Archived {
		return errs.Locked(msgArchived)
	}
	if !base.CanRead(permission.UnitPulls) || !base.CanRead(permission.UnitCode) {
		return errs.NotFound(msgCannotRead)
	}
	if !head.CanRead(permission.UnitCode) {
		return errs.NotFound(msgCannotReadHead)
	}
	return nil
}

// CanEdit decides whether a doer may change a pull request's title, body,
// deadline, state or base: its poster or a writer of pull requests.
func CanEdit(doerID, posterID int64, base permission.Permission) error {
	if doerID == 0 || (doerID != posterID && !base.CanWrite(permission.UnitPulls)) {
		return errs.Forbidden(msgNoEditRight)
	}
	return nil
}

// CanEditMetadata reports whether a doer's changes to assignees, labels and
// milestone take effect (Gitea ignores them from others).
func CanEditMetadata(base permission.Permission) bool { return base.CanWrite(permission.UnitPulls) }

// CanChangeState refuses to close or reopen a merged pull request (412).
func CanChangeState(p *PullRequest) error {
	if p.HasMerged {
		return errs.PreconditionFailed(msgMergedNoState)
	}
	return nil
}

// CanAllowMaintainerEdit decides who may flip allow_maintainer_edit, as
// Gitea does: the poster, and only while a writer of the head repository's
// code (a maintainer of the base is no poster, so it may not).
func CanAllowMaintainerEdit(doerID, posterID int64, head permission.Permission) error {
	if doerID == 0 || doerID != posterID || !head.CanWrite(permission.UnitCode) {
		return errs.Forbidden(msgMaintainerEdits)
	}
	return nil
}

// StyleAllowed reports whether the repository's settings allow a style.
func StyleAllowed(s repository.MergeSettings, style Style) bool {
	switch style {
	case StyleMerge:
		return s.AllowMerge
	case StyleRebase:
		return s.AllowRebase
	case StyleRebaseMerge:
		return s.AllowRebaseMerge
	case StyleSquash:
		return s.AllowSquash
	case StyleFastForwardOnly:
		return s.AllowFastForwardOnly
	case StyleManuallyMerged:
		return s.AllowManualMerge
	}
	return false
}

// MergeRequest is what a merge is judged on.
type MergeRequest struct {
	Pull     *PullRequest
	Title    string
	IsClosed bool
	// Base is the doer's permission on the base repository.
	Base     permission.Permission
	Settings repository.MergeSettings
	Style    Style
	// Auto is a merge scheduled for when the checks succeed: the present
	// mergeability does not matter yet.
	Auto bool
}

// CanMerge decides whether a merge may start, in Gitea's order: closed
// (404), no right (403), already merged (405), work in progress (405), a
// style the settings forbid (405), not mergeable now (405). A manual merge
// mark skips the mergeability, which it contradicts.
func CanMerge(m MergeRequest) error {
	if m.IsClosed && !m.Pull.HasMerged {
		return errs.NotFound("the pull request is closed")
	}
	if !m.Base.CanWrite(permission.UnitCode) {
		return errs.Forbidden(msgNoMergeRight)
	}
	if m.Pull.HasMerged {
		return errs.NotAllowed(msgAlreadyMerged)
	}
	if IsWorkInProgress(m.Title) {
		return errs.NotAllowed(msgWorkInProgress)
	}
	if !StyleAllowed(m.Settings, m.Style) {
		return errs.NotAllowed(fmt.Sprintf("%s is not allowed an allowed merge style for this repository", m.Style))
	}
	if m.Style == StyleManuallyMerged || m.Auto {
		return nil
	}
	switch m.Pull.Status {
	case StatusMergeable, StatusEmpty:
		return nil
	}
	return errs.NotAllowed(msgNotMergeable)
}

// UpdateRights are the ways a doer may bring a head branch up to date.
type UpdateRights struct{ ByMerge, ByRebase bool }

// CanUpdate decides how a doer may update a pull request's head with its
// base: a writer of the head repository's code may, and so may a writer of
// the base's when the poster allows maintainer edits. Rebasing rewrites the
// head, so it also needs the base repository's AllowRebaseUpdate.
func CanUpdate(p *PullRequest, isClosed bool, head, base permission.Permission, s repository.MergeSettings) (UpdateRights, error) {
	if p.HasMerged {
		return UpdateRights{}, errs.Invalid(msgUpdateMerged, "index")
	}
	if isClosed {
		return UpdateRights{}, errs.Invalid(msgUpdateClosed, "index")
	}
	writer := head.CanWrite(permission.UnitCode) ||
		(p.AllowMaintainerEdit && base.CanWrite(permission.UnitCode))
	if !writer {
		return UpdateRights{}, errs.Forbidden(msgNoUpdateRight)
	}
	return UpdateRights{ByMerge: true, ByRebase: s.AllowRebaseUpdate}, nil
}

// CheckUpdateStyle refuses a style the rights do not cover (403).
func (r UpdateRights) CheckUpdateStyle(rebase bool) error {
	if (rebase && !r.ByRebase) || (!rebase && !r.ByMerge) {
		return errs.Forbidden(msgNoUpdateRight)
	}
	return nil
}
