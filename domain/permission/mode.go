// Package permission is the permission core: what an actor may do in a
// repository, and the access codes of the route catalogue as rules over that.
// It is pure: the application gathers the facts (actor, repository,
// relations) and asks; nothing here reads a store.
//
// The semantics follow Gitea's models/perm/access/repo_permission.go and the
// req* checks of routers/api/v1/api.go, re-expressed over plain facts.
package permission

import (
	"fmt"
	"strings"
)

// AccessMode is a level of access to a repository or one of its units.
type AccessMode int

// The access modes, ordered: each includes the ones before it.
const (
	ModeNone AccessMode = iota
	ModeRead
	ModeWrite
	ModeAdmin
	ModeOwner
)

// String returns the mode as Gitea spells it in the API ("none", "read", ...).
func (m AccessMode) String() string {
	switch m {
	case ModeNone:
		return "none"
	case ModeRead:
		return "read"
	case ModeWrite:
		return "write"
	case ModeAdmin:
		return "admin"
	case ModeOwner:
		return "owner"
	}
	return fmt.Sprintf("AccessMode(%d)", int(m))
}

// Unit is a part of a repository that can be switched on and off and that
// carries its own access mode. The values are Gitea's unit names.
type Unit string

// The repository units.
const (
	UnitCode      Unit = "repo.code"
	UnitIssues    Unit = "repo.issues"
	UnitPulls     Unit = "repo.pulls"
	UnitReleases  Unit = "repo.releases"
	UnitWiki      Unit = "repo.wiki"
	UnitExtWiki   Unit = "repo.ext_wiki"
	UnitExtIssues Unit = "repo.ext_issues"
	UnitProjects  Unit = "repo.projects"
	UnitPackages  Unit = "repo.packages"
	UnitActions   Unit = "repo.actions"
)

// AllUnits returns every unit, in Gitea's order.
func AllUnits() []Unit {
	return []Unit{
		UnitCode, UnitIssues, UnitPulls, UnitReleases, UnitWiki,
		UnitExtWiki, UnitExtIssues, UnitProjects, UnitPackages, UnitActions,
	}
}

// Short returns the unit's name without the "repo." prefix, as access codes
// write it: RR(code), RW(pulls).
func (u Unit) Short() string { return strings.TrimPrefix(string(u), "repo.") }

// ParseUnit reads a unit name as the route catalogue writes it: the short
// name ("code", "pulls", "ext_wiki"), the full name ("repo.code"), or the
// catalogue's prose for pull requests ("pull requests", "pull_requests").
func ParseUnit(s string) (Unit, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	name = strings.TrimPrefix(name, "repo.")
	switch name {
	case "pull requests", "pull_requests", "pullrequests", "pr", "prs":
		name = "pulls"
	case "external wiki", "external_wiki":
		name = "ext_wiki"
	case "external tracker", "external_tracker", "external issues", "external_issues":
		name = "ext_issues"
	}
	for _, u := range AllUnits() {
		if u.Short() == name {
			return u, nil
		}
	}
	return "", fmt.Errorf("permission: unknown unit %q", s)
}
