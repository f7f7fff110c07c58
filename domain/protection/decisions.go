package protection

import (
	"fmt"
	"slices"

	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
)

// Doer is who writes to a protected branch, as the rules see them.
type Doer struct {
	// UserID is the account; for a deploy key, the account the push runs as.
	UserID int64
	// UserName is the account's name, for Gitea's messages.
	UserName string
	// TeamIDs are the teams of the repository's organisation the account
	// belongs to (needed only when Protection.NeedsTeams).
	TeamIDs []int64
	// DeployKey says a deploy key pushes: only the rule's deploy key
	// switches count then.
	DeployKey bool
	// CanWriteCode is the doer's write access to the repository's code
	// (the deploy key's, for a deploy key).
	CanWriteCode bool
}

func (d Doer) listed(userIDs, teamIDs []int64) bool {
	if slices.Contains(userIDs, d.UserID) {
		return true
	}
	for _, t := range d.TeamIDs {
		if slices.Contains(teamIDs, t) {
			return true
		}
	}
	return false
}

// CanPush reports whether d may push (fast-forward) to the branch: push
// must be enabled, and then the allowlist decides, or write access when
// there is none. A deploy key counts only through the allowlist's switch.
func (p *Protection) CanPush(d Doer) bool {
	r := p.r
	if !r.EnablePush {
		return false
	}
	if d.DeployKey {
		return d.CanWriteCode && (!r.EnablePushAllowlist || r.PushAllowlistDeployKeys)
	}
	if !r.EnablePushAllowlist {
		return d.CanWriteCode
	}
	return d.listed(r.PushAllowlistUserIDs, r.PushAllowlistTeamIDs)
}

// CanForcePush reports whether d may rewrite the branch: force push must
// be enabled, and d must be on its allowlist (when there is one) and may
// push at all, as Gitea's CanUserForcePush.
func (p *Protection) CanForcePush(d Doer) bool {
	r := p.r
	if !r.EnableForcePush {
		return false
	}
	if d.DeployKey {
		return d.CanWriteCode && r.EnablePush && (!r.EnableForcePushAllowlist || r.ForcePushAllowlistDeployKeys)
	}
	if r.EnableForcePushAllowlist && !d.listed(r.ForcePushAllowlistUserIDs, r.ForcePushAllowlistTeamIDs) {
		return false
	}
	return p.CanPush(d)
}

// CanMerge reports whether d may merge pull requests into the branch:
// those on the merge allowlist when there is one, else writers of code.
func (p *Protection) CanMerge(d Doer) bool {
	r := p.r
	if !r.EnableMergeAllowlist {
		return d.CanWriteCode
	}
	return d.listed(r.MergeAllowlistUserIDs, r.MergeAllowlistTeamIDs)
}

// RefUpdate is one change a push makes to the protected branch.
type RefUpdate struct {
	// Delete: the branch is removed.
	Delete bool
	// Create: the branch did not exist.
	Create bool
	// ForcePush: the old head is not an ancestor of the new one.
	ForcePush bool
	// ChangedFiles are the paths that differ between the old and the new
	// head (needed only when Protection.HasFilePatterns).
	ChangedFiles []string
	// UnverifiedCommit is the first commit new to the branch whose
	// signature is not verified, "" when all are (needed only when
	// Protection.RequiresSignedCommits).
	UnverifiedCommit string
}

// The refusals of pushes, in Gitea's words (routers/private/hook_pre_receive.go).
const (
	fmtNoDelete       = "branch %s is protected from deletion"
	fmtNoForcePush    = "branch %s is protected from force push"
	fmtProtectedFile  = "branch %s is protected from changing file %s"
	fmtNoPush         = "Not allowed to push to protected branch %s"
	fmtNoForcePushing = "Not allowed to force-push to protected branch %s"
	fmtUnverified     = "branch %s is protected from unverified commit %s"
	fmtUnsignedMerge  = "Protected branch %s requires signed commits but this merge would not be signed"
	// The contents API's refusals (services/repository/files).
	fmtCannotCommit  = "user cannot commit to repo [user: %s]"
	fmtPathProtected = "path is protected and can not be changed [path: %s]"
)

// CheckPush decides whether d may make update u to the branch, in Gitea's
// order: a protected branch is never deleted, never rewritten unless force
// push is on, its protected files change only through pull requests, and
// then the push (or force push) allowlist decides, except that a change
// touching only unprotected files passes. Refusals are errs.Forbidden with
// Gitea's message.
func (p *Protection) CheckPush(d Doer, u RefUpdate) error {
	b := p.Branch
	if u.Delete {
		return errs.Forbidden(fmt.Sprintf(fmtNoDelete, b))
	}
	if u.ForcePush && !p.r.EnableForcePush {
		return errs.Forbidden(fmt.Sprintf(fmtNoForcePush, b))
	}
	if p.r.RequireSignedCommits && u.UnverifiedCommit != "" {
		return errs.Forbidden(fmt.Sprintf(fmtUnverified, b, u.UnverifiedCommit))
	}
	protectedFile := ""
	for _, f := range u.ChangedFiles {
		if p.IsProtectedFile(f) {
			protectedFile = f
			break
		}
	}
	var allowed bool
	if u.ForcePush {
		allowed = p.CanForcePush(d)
	} else {
		allowed = p.CanPush(d)
	}
	if protectedFile == "" && allowed {
		return nil
	}
	if protectedFile != "" {
		return errs.Forbidden(fmt.Sprintf(fmtProtectedFile, b, protectedFile))
	}
	if p.onlyUnprotected(u.ChangedFiles) {
		return nil
	}
	if u.ForcePush {
		return errs.Forbidden(fmt.Sprintf(fmtNoForcePushing, b))
	}
	return errs.Forbidden(fmt.Sprintf(fmtNoPush, b))
}

// onlyUnprotected reports whether some files changed and every one matches
// an unprotected file pattern.
func (p *Protection) onlyUnprotected(files []string) bool {
	if len(p.r.unprotected) == 0 || len(files) == 0 {
		return false
	}
	for _, f := range files {
		if !p.IsUnprotectedFile(f) {
			return false
		}
	}
	return true
}

// CheckSignedMerge refuses a merge into a branch requiring signed commits
// when Depot will not sign it (willSign false): errs.NotAllowed (405) with
// Gitea's message.
func (p *Protection) CheckSignedMerge(willSign bool) error {
	if p.r.RequireSignedCommits && !willSign {
		return errs.NotAllowed(fmt.Sprintf(fmtUnsignedMerge, p.Branch))
	}
	return nil
}

// CheckSignedWrite refuses a write of files through the API to a branch
// requiring signed commits when Depot will not sign the commit: Gitea's
// VerifyBranchProtection answers errs.Forbidden, the doer cannot commit.
func (p *Protection) CheckSignedWrite(d Doer, willSign bool) error {
	if p.r.RequireSignedCommits && !willSign {
		return errs.Forbidden(fmt.Sprintf(fmtCannotCommit, d.UserName))
	}
	return nil
}

// CheckFiles decides whether d may write these paths to the branch
// through the contents API, as Gitea's VerifyBranchProtection: a doer who
// may not push may still change unprotected files, and nobody changes a
// protected file there. Refusals are errs.Forbidden with Gitea's message.
func (p *Protection) CheckFiles(d Doer, paths []string) error {
	canPush := p.CanPush(d)
	for _, path := range paths {
		if !canPush && !p.IsUnprotectedFile(path) {
			return errs.Forbidden(fmt.Sprintf(fmtCannotCommit, d.UserName))
		}
		if p.IsProtectedFile(path) {
			return errs.Forbidden(fmt.Sprintf(fmtPathProtected, path))
		}
	}
	return nil
}

// MergeFacts are what a pull request's merge into the branch is checked
// against.
type MergeFacts struct {
	// Statuses are the latest status of each context on the head.
	Statuses map[string]commitstatus.State
	// HeadBehind: the base has commits the head lacks.
	HeadBehind bool
	// ChangedFiles are the files the pull request changes (needed only when
	// the rule has protected file patterns).
	ChangedFiles []string
}

// The refusals of merges (services/pull/check.go CheckPullBranchProtections).
const (
	MsgStatusChecks    = "Not all required status checks successful"
	MsgOutdated        = "The head branch is behind the base branch"
	MsgProtectedFiles  = "Changed protected files"
	MsgNotAllowedMerge = "User not allowed to merge PR"
)

// StatusChecksPass reports whether the required status checks allow a
// merge: off, or every required context pattern matches at least one
// status and every status it matches succeeded.
func (p *Protection) StatusChecksPass(statuses map[string]commitstatus.State) bool {
	if !p.r.EnableStatusCheck || len(p.r.contexts) == 0 {
		return true
	}
	for _, g := range p.r.contexts {
		matched := false
		for ctx, st := range statuses {
			if !g.Match(ctx) {
				continue
			}
			matched = true
			if st != commitstatus.Success {
				return false
			}
		}
		if !matched {
			return false
		}
	}
	return true
}

// CheckMerge decides whether the rule's merge conditions hold, in Gitea's
// order: required status checks, an up-to-date head, no protected file
// changed. (The review conditions join once reviews exist.) A refusal is
// errs.NotAllowed (405) with Gitea's message.
func (p *Protection) CheckMerge(f MergeFacts) error {
	if !p.StatusChecksPass(f.Statuses) {
		return errs.NotAllowed(MsgStatusChecks)
	}
	if p.r.BlockOnOutdatedBranch && f.HeadBehind {
		return errs.NotAllowed(MsgOutdated)
	}
	for _, file := range f.ChangedFiles {
		if p.IsProtectedFile(file) {
			return errs.NotAllowed(MsgProtectedFiles)
		}
	}
	return nil
}

// AdminMayOverride reports whether a repository administrator who asks to
// force the merge may pass the merge conditions.
func (p *Protection) AdminMayOverride() bool { return !p.r.BlockAdminMergeOverride }
