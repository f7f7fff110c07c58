package user

import (
	"time"

	"github.com/depothq/depot/domain/errs"
)

// Block is one account's block of a user: the blocker (a user or an
// organisation) no longer deals with the blockee.
type Block struct {
	ID        int64
	BlockerID int64
	BlockeeID int64
	// Note is the blocker's private reminder of why.
	Note    string
	Created time.Time
}

// The block errors, with Gitea's messages: the three refusals are 400s, and
// an action a block forbids is a 403.
var (
	ErrBlockOrganization = errs.BadRequest("cannot block an organization")
	ErrCannotBlock       = errs.BadRequest("cannot block the user")
	ErrCannotUnblock     = errs.BadRequest("cannot unblock the user")
	ErrBlocked           = errs.Forbidden("user is blocked")
)

// BlockFacts are what the block rules look at: who asks, for which blocker,
// against whom, and the ties between them.
type BlockFacts struct {
	DoerID      int64
	DoerIsAdmin bool

	BlockerID    int64
	BlockerIsOrg bool
	// DoerOwnsBlocker is whether the doer owns the blocking organisation.
	DoerOwnsBlocker bool

	BlockeeID    int64
	BlockeeIsOrg bool
	// BlockeeIsMember is whether the blockee belongs to the blocking organisation.
	BlockeeIsMember bool

	// Blocked is whether the blocker already blocks the blockee.
	Blocked bool
}

// mayActFor reports whether the doer may manage the blocker's blocks: its
// own as a user, an organisation's as its owner, anyone's as a site admin.
func (f BlockFacts) mayActFor() bool {
	if f.DoerIsAdmin {
		return true
	}
	if f.BlockerIsOrg {
		return f.DoerOwnsBlocker
	}
	return f.DoerID == f.BlockerID
}

// CanBlock decides whether the doer may make the blocker block the blockee,
// as Gitea's CanBlockUser: never an organisation, never oneself (as blocker
// or as doer), never twice, never a member of the blocking organisation.
func CanBlock(f BlockFacts) error {
	if f.BlockeeIsOrg {
		return ErrBlockOrganization
	}
	if f.BlockerID == f.BlockeeID || f.DoerID == f.BlockeeID || f.Blocked {
		return ErrCannotBlock
	}
	if f.BlockerIsOrg && f.BlockeeIsMember {
		return ErrCannotBlock
	}
	if !f.mayActFor() {
		return ErrCannotBlock
	}
	return nil
}

// CanUnblock decides whether the doer may lift the blocker's block of the
// blockee, as Gitea's CanUnblockUser: only an existing block, never by the
// blockee itself.
func CanUnblock(f BlockFacts) error {
	if f.BlockeeIsOrg {
		return ErrBlockOrganization
	}
	if f.DoerID == f.BlockeeID || !f.Blocked {
		return ErrCannotUnblock
	}
	if !f.mayActFor() {
		return ErrCannotUnblock
	}
	return nil
}

// HeldBack reports whether a block recorded against blockee takes effect:
// site administrators are never held back by one, as in Gitea's
// IsUserBlockedBy.
func HeldBack(blockee *User, blocked bool) bool {
	return blocked && blockee != nil && !blockee.IsAdmin
}
