package packages

import (
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// OwnerRelation is what decides a caller's access to an owner's packages:
// who the caller is to the owner, gathered by the application.
type OwnerRelation struct {
	// Self is set when the caller is the owner (a user).
	Self bool
	// OwnerIsOrg is set when the owner is an organisation.
	OwnerIsOrg bool
	// IsOrgOwner and IsOrgMember relate the caller to an owning organisation.
	IsOrgOwner, IsOrgMember bool
	// TeamMode is the highest packages-unit mode of the caller's teams in an
	// owning organisation.
	TeamMode permission.AccessMode
	// Visibility is the owner's; SignedIn and Admin describe the caller.
	Visibility      user.Visibility
	SignedIn, Admin bool
}

// Visible reports whether the caller may see the owner's packages at all:
// a public owner to everyone, a limited one to signed-in callers, a
// private one to itself, its organisation's members and site admins.
// Packages of an owner the caller may not see answer 404.
func Visible(r OwnerRelation) bool {
	switch {
	case r.Visibility == user.VisibilityPublic, r.Self, r.Admin, r.IsOrgMember, r.IsOrgOwner:
		return true
	case r.Visibility == user.VisibilityLimited:
		return r.SignedIn
	}
	return false
}

// Access is the caller's access to the packages of an owner it may see
// (the owner resolved for it already): the owner itself and an
// organisation's owners own them; an organisation's members get their
// teams' packages-unit mode, at least read; everyone else who sees the
// owner reads. Gitea's determineAccessMode, for a visible owner.
func Access(r OwnerRelation) permission.AccessMode {
	switch {
	case r.Self, r.OwnerIsOrg && r.IsOrgOwner:
		return permission.ModeOwner
	case r.OwnerIsOrg && r.IsOrgMember && r.TeamMode > permission.ModeRead:
		return r.TeamMode
	}
	return permission.ModeRead
}
