package permission

import (
	"github.com/depothq/depot/domain/user"
)

// Permission is what an actor may do in one repository: an overall mode,
// which decides repo-admin and owner questions, and a mode per enabled unit.
// The zero value grants nothing.
type Permission struct {
	// Mode is the overall mode (Gitea's Permission.AccessMode).
	Mode AccessMode
	// Units holds the mode of every enabled unit; absent units are None.
	Units map[Unit]AccessMode
}

// UnitMode returns the mode on unit u; None for a disabled unit.
func (p Permission) UnitMode(u Unit) AccessMode { return p.Units[u] }

// CanRead reports whether the actor may read unit u.
func (p Permission) CanRead(u Unit) bool { return p.UnitMode(u) >= ModeRead }

// CanWrite reports whether the actor may write to unit u.
func (p Permission) CanWrite(u Unit) bool { return p.UnitMode(u) >= ModeWrite }

// IsAdmin reports whether the actor administers the repository (Admin or Owner).
func (p Permission) IsAdmin() bool { return p.Mode >= ModeAdmin }

// IsOwner reports whether the actor owns the repository: its personal owner,
// an owner of its organisation, a member of an admin team, or a site admin.
func (p Permission) IsOwner() bool { return p.Mode >= ModeOwner }

// HasAnyAccess reports whether the actor may read anything of the repository.
// As in Gitea, an overall Read counts even when no unit is enabled.
func (p Permission) HasAnyAccess() bool {
	if p.Mode >= ModeRead {
		return true
	}
	for _, m := range p.Units {
		if m >= ModeRead {
			return true
		}
	}
	return false
}

// uniform grants m on every enabled unit of r.
func uniform(r Repo, m AccessMode) Permission {
	if m == ModeNone {
		return Permission{}
	}
	units := make(map[Unit]AccessMode, len(r.EnabledUnits))
	for _, u := range r.EnabledUnits {
		units[u] = m
	}
	return Permission{Mode: m, Units: units}
}

// Compute returns the actor's permission in repository r.
//
//   - A workflow run gets Write on every enabled unit of its own repository
//     (Read when triggered from a fork) and nothing on any other.
//   - An anonymous caller gets Read on a public repository whose owner is
//     public, and nothing otherwise.
//   - A site admin, the personal owner and an owner of the owning
//     organisation get Owner.
//   - Anyone else who cannot see the owner (a private owner, or any owner for
//     a restricted user, unless a member of the owning organisation) gets
//     nothing unless a collaborator.
//   - Otherwise the base is Read on a public repository (None for restricted
//     users), raised by the collaborator mode. In an organisation's
//     repository, team unit modes then apply per unit, with collaborator and
//     base as floors; an admin-level team makes the actor an owner.
//
// Archived repositories keep their modes: writes are refused by the NA code
// with 423, as in Gitea. Disabled units are always None.
func Compute(a Actor, r Repo, rel Relations) Permission {
	switch a.Kind {
	case ActorWorkflowRun:
		if a.RunRepoID == 0 || a.RunRepoID != r.ID {
			return Permission{}
		}
		if a.RunFromFork {
			return uniform(r, ModeRead)
		}
		return uniform(r, ModeWrite)
	case ActorUser:
	default:
		if r.Private || r.OwnerVisibility != user.VisibilityPublic {
			return Permission{}
		}
		return uniform(r, ModeRead)
	}

	if a.IsSiteAdmin || rel.IsOwner || (a.UserID != 0 && a.UserID == r.OwnerID) {
		return uniform(r, ModeOwner)
	}
	isCollaborator := rel.CollaboratorMode > ModeNone
	if !ownerVisible(a, r, rel) && !isCollaborator {
		return Permission{}
	}
	if r.OwnerIsOrg && rel.IsOrgOwner {
		return uniform(r, ModeOwner)
	}

	base := ModeNone
	if !r.Private && !a.IsRestricted {
		base = ModeRead
	}
	mode := max(base, rel.CollaboratorMode)
	if !r.OwnerIsOrg || len(rel.TeamUnits) == 0 {
		return uniform(r, mode)
	}

	best := ModeNone
	for _, m := range rel.TeamUnits {
		best = max(best, m)
	}
	if best >= ModeAdmin {
		return uniform(r, ModeOwner)
	}
	p := Permission{Mode: max(mode, best), Units: make(map[Unit]AccessMode, len(r.EnabledUnits))}
	for _, u := range r.EnabledUnits {
		if m := max(mode, rel.TeamUnits[u]); m > ModeNone {
			p.Units[u] = m
		}
	}
	return p
}

// ownerVisible reports whether a signed-in, non-admin, non-owner user may see
// the repository's owner (Gitea's HasOrgOrUserVisible): a private owner, or
// any owner for a restricted user, is visible only to members of the owning
// organisation.
func ownerVisible(a Actor, r Repo, rel Relations) bool {
	member := r.OwnerIsOrg && (rel.IsOrgMember || rel.IsOrgOwner)
	if (r.OwnerVisibility == user.VisibilityPrivate || a.IsRestricted) && !member {
		return false
	}
	return true
}
