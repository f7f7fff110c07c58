package permission

import (
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// ActorKind tells who is calling.
type ActorKind int

// The kinds of actor.
const (
	// ActorAnonymous is a caller without credentials.
	ActorAnonymous ActorKind = iota
	// ActorUser is a signed-in account, by password, token or sudo.
	ActorUser
	// ActorWorkflowRun is the token of a workflow run, bound to one repository.
	ActorWorkflowRun
)

// Actor is the caller as policy sees it.
type Actor struct {
	Kind ActorKind
	// UserID is the account's id; 0 for anonymous callers and workflow runs.
	UserID int64

	IsSiteAdmin        bool
	IsActive           bool
	ProhibitLogin      bool
	MustChangePassword bool
	// IsActivated is whether the account's e-mail address was confirmed.
	IsActivated  bool
	IsRestricted bool

	// ViaToken is set when an access token authenticated the request; only
	// then do Scopes limit it.
	ViaToken bool
	Scopes   token.Scopes

	// RunRepoID is the repository a workflow run belongs to.
	RunRepoID int64
	// RunFromFork is set when the run was triggered by a pull request from a fork.
	RunFromFork bool
}

// SignedIn reports whether the actor counts as authenticated: a user or a workflow run.
func (a Actor) SignedIn() bool { return a.Kind == ActorUser || a.Kind == ActorWorkflowRun }

// IsAdmin reports whether the actor is a signed-in site administrator.
func (a Actor) IsAdmin() bool { return a.Kind == ActorUser && a.IsSiteAdmin }

// Repo holds the facts of a repository that permissions depend on.
type Repo struct {
	ID      int64
	OwnerID int64
	// OwnerIsOrg is set when an organisation owns the repository.
	OwnerIsOrg      bool
	OwnerVisibility user.Visibility
	Private         bool
	Archived        bool
	// IsMirror is carried for rules outside Compute (mirror-sync answers 404 on non-mirrors).
	IsMirror bool
	// Empty is set while the Git repository has no commit (no pull
	// request can be opened on it, see PullsPossible).
	Empty bool
	// EnabledUnits are the units switched on; every other unit answers None.
	EnabledUnits []Unit
	// FullName is "owner/name", used in the archived (423) message.
	FullName string
}

// HasUnit reports whether u is enabled on the repository.
func (r Repo) HasUnit(u Unit) bool {
	for _, e := range r.EnabledUnits {
		if e == u {
			return true
		}
	}
	return false
}

// Relations are the actor's ties to a repository, looked up by the
// application. They are ignored for anonymous callers and workflow runs.
type Relations struct {
	// IsOwner is set when the actor personally owns the repository. An actor
	// whose UserID equals the repository's OwnerID counts as owner too.
	IsOwner bool
	// CollaboratorMode is the actor's collaborator mode, ModeNone when not a collaborator.
	CollaboratorMode AccessMode
	// TeamUnits holds, per unit, the highest mode any of the actor's teams
	// with access to the repository grants; empty when no such team. A team
	// of admin level (Admin or Owner on its units) makes the actor an owner
	// of the repository, as in Gitea.
	TeamUnits map[Unit]AccessMode
	// IsOrgOwner is set when the actor owns the organisation that owns the repository.
	IsOrgOwner bool
	// IsOrgMember is set when the actor is a member of the owning organisation.
	IsOrgMember bool
}
