package permission_test

import (
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// Ids used across the tests.
const (
	ownerID      = 1
	plainID      = 2
	adminID      = 3
	restrictedID = 4
	orgUserID    = 5
	orgID        = 100
	repoID       = 7
	otherRepoID  = 8
)

// standardUnits are the units enabled on most fixture repositories.
func standardUnits() []permission.Unit {
	return []permission.Unit{
		permission.UnitCode, permission.UnitIssues, permission.UnitPulls,
		permission.UnitReleases, permission.UnitWiki,
	}
}

// repoOpt adjusts a fixture repository.
type repoOpt func(*permission.Repo)

func private(r *permission.Repo)  { r.Private = true }
func archived(r *permission.Repo) { r.Archived = true }
func orgOwned(r *permission.Repo) {
	r.OwnerID, r.OwnerIsOrg, r.FullName = orgID, true, "acme/demo"
}

func ownerVis(v user.Visibility) repoOpt {
	return func(r *permission.Repo) { r.OwnerVisibility = v }
}

func units(us ...permission.Unit) repoOpt {
	return func(r *permission.Repo) { r.EnabledUnits = us }
}

// repo returns a public repository of a public individual, adjusted by opts.
func repo(opts ...repoOpt) permission.Repo {
	r := permission.Repo{
		ID: repoID, OwnerID: ownerID, OwnerVisibility: user.VisibilityPublic,
		EnabledUnits: standardUnits(), FullName: "alice/demo",
	}
	for _, o := range opts {
		o(&r)
	}
	return r
}

func anonymous() permission.Actor { return permission.Actor{Kind: permission.ActorAnonymous} }

func signedIn(id int64) permission.Actor {
	return permission.Actor{Kind: permission.ActorUser, UserID: id, IsActive: true, IsActivated: true}
}

func plainUser() permission.Actor { return signedIn(plainID) }
func repoOwner() permission.Actor { return signedIn(ownerID) }
func orgUser() permission.Actor   { return signedIn(orgUserID) }

func siteAdmin() permission.Actor {
	a := signedIn(adminID)
	a.IsSiteAdmin = true
	return a
}

func restrictedUser() permission.Actor {
	a := signedIn(restrictedID)
	a.IsRestricted = true
	return a
}

func tokenUser(scopes ...token.Scope) permission.Actor {
	a := plainUser()
	a.ViaToken, a.Scopes = true, scopes
	return a
}

func workflowRun(repo int64, fork bool) permission.Actor {
	return permission.Actor{Kind: permission.ActorWorkflowRun, RunRepoID: repo, RunFromFork: fork}
}

// grid is the mode of every unit, zeros included, so that tests compare
// permissions without caring how the map was built.
type grid map[permission.Unit]permission.AccessMode

func gridOf(p permission.Permission) grid {
	g := grid{}
	for _, u := range permission.AllUnits() {
		g[u] = p.UnitMode(u)
	}
	return g
}

// on builds a grid with m on the given units and None elsewhere.
func on(m permission.AccessMode, us ...permission.Unit) grid {
	g := grid{}
	for _, u := range permission.AllUnits() {
		g[u] = permission.ModeNone
	}
	for _, u := range us {
		g[u] = m
	}
	return g
}

// with overrides some units of g.
func (g grid) with(m permission.AccessMode, us ...permission.Unit) grid {
	out := grid{}
	for k, v := range g {
		out[k] = v
	}
	for _, u := range us {
		out[u] = m
	}
	return out
}

// everywhere builds a grid with m on the standard units.
func everywhere(m permission.AccessMode) grid { return on(m, standardUnits()...) }
