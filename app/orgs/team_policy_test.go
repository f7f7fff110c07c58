package orgs_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// Teams: names, membership (which makes organisation membership), the
// Owners team's last member, blocked users, and which repositories a team
// may be given and by whom.
func TestTeamPolicyNames(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner := w.User("owner")
	w.org("acme", owner, user.VisibilityPublic)
	a := w.mustOpen(owner, "acme")

	_, err := w.svc.Teams().Create(w.Ctx, a, orgs.TeamInput{Name: org.OwnersTeamName, Permission: "read"})
	is.True(errors.Is(err, errs.ErrInvalid)) // the Owners team exists already
	w.team(a, orgs.TeamInput{Name: "crew", Permission: "read"})
	_, err = w.svc.Teams().Create(w.Ctx, a, orgs.TeamInput{Name: "CREW", Permission: "write"})
	is.True(errors.Is(err, errs.ErrInvalid)) // names are unique, case-insensitively
	teams, total, err := w.svc.Teams().List(w.Ctx, a, "", false, pageOne)
	is.NoErr(err)
	is.Equal(total, int64(2))
	is.Equal([]string{teams[0].Name, teams[1].Name}, []string{"crew", "Owners"})
}

func TestTeamPolicyMembershipFollowsTeams(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, dev := w.User("owner"), w.User("dev")
	o := w.org("acme", owner, user.VisibilityPublic)
	a := w.mustOpen(owner, "acme")
	one := w.team(a, orgs.TeamInput{Name: "one", Permission: "read"}, dev)
	two := w.team(a, orgs.TeamInput{Name: "two", Permission: "write"}, dev)

	m, err := w.Stores.Orgs.Membership(w.Ctx, o.ID, dev.ID)
	is.NoErr(err)
	is.True(m.IsMember && !m.IsOwner)
	is.Equal(m.MaxMode, permission.ModeWrite)

	is.NoErr(w.svc.TeamMembers().Remove(w.Ctx, one, dev))
	is.True(w.mustOpen(dev, "acme").Membership.IsMember) // still in team two
	is.NoErr(w.svc.TeamMembers().Remove(w.Ctx, two, dev))
	is.True(!w.mustOpen(dev, "acme").Membership.IsMember) // its last team: out of the organisation
	err = w.svc.TeamMembers().Remove(w.Ctx, two, dev)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestTeamPolicyOwnersTeamKeepsItsLastMember(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner := w.User("owner")
	o := w.org("acme", owner, user.VisibilityPublic)
	owners, err := w.Stores.Orgs.OwnersTeam(w.Ctx, o.ID)
	is.NoErr(err)
	ta, err := w.svc.OpenTeam(w.Ctx, caller(owner), owners.ID)
	is.NoErr(err)
	is.True(ta.IsMember)

	err = w.svc.TeamMembers().Remove(w.Ctx, ta, owner)
	is.True(errors.Is(err, org.ErrLastOwner))
	is.True(w.mustOpen(owner, "acme").Membership.IsOwner)
}

func TestTeamPolicyBlockedUserMayNotJoin(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, troll := w.User("owner"), w.User("troll")
	o := w.org("acme", owner, user.VisibilityPublic)
	crew := w.team(w.mustOpen(owner, "acme"), orgs.TeamInput{Name: "crew", Permission: "read"})
	is.NoErr(w.Stores.Blocks.Block(w.Ctx, &user.Block{BlockerID: o.ID, BlockeeID: troll.ID, Created: w.Clock.At}))

	err := w.svc.TeamMembers().Add(w.Ctx, crew, troll)
	is.True(errors.Is(err, errs.ErrForbidden))
	m, err := w.Stores.Orgs.Membership(w.Ctx, o.ID, troll.ID)
	is.NoErr(err)
	is.True(!m.IsMember)

	err = w.svc.TeamMembers().Add(w.Ctx, crew, &o.User)
	is.True(errors.Is(err, errs.ErrNotFound)) // an organisation joins no team
}

func TestTeamPolicyPrivateOrganisationsTeamsAreHidden(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, outsider := w.User("owner"), w.User("outsider")
	w.org("hidden", owner, user.VisibilityPrivate)
	crew := w.team(w.mustOpen(owner, "hidden"), orgs.TeamInput{Name: "crew", Permission: "read"})

	_, err := w.svc.OpenTeam(w.Ctx, caller(outsider), crew.Team.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.svc.OpenTeam(w.Ctx, caller(owner), crew.Team.ID+100)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestTeamPolicyRepositoriesOfTheOrganisationByTheirAdministrators(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, dev, stranger := w.User("owner"), w.User("dev"), w.User("stranger")
	o := w.org("acme", owner, user.VisibilityPublic)
	a := w.mustOpen(owner, "acme")
	crew := w.team(a, orgs.TeamInput{Name: "crew", Permission: "write"}, dev)
	tool := w.repo(&o.User, "tool")
	foreign := w.repo(stranger, "foreign")

	// dev does not see the private repository before the team has it.
	_, err := w.repos.OpenByID(w.Ctx, auth.Caller{User: dev}, tool.ID)
	is.True(errors.Is(err, errs.ErrNotFound))

	// A member of the team who only reads the repository (a read
	// collaborator) does not administer it, so may not give it.
	is.NoErr(w.Stores.Collaborators.Set(w.Ctx, repository.Collaborator{RepoID: tool.ID, UserID: dev.ID, Mode: permission.ModeRead}))
	devCrew, err := w.svc.OpenTeam(w.Ctx, caller(dev), crew.Team.ID)
	is.NoErr(err)
	devView, err := w.repos.OpenByID(w.Ctx, auth.Caller{User: dev}, tool.ID)
	is.NoErr(err)
	err = w.svc.TeamRepos().Add(w.Ctx, devCrew, devView)
	is.True(errors.Is(err, errs.ErrForbidden))
	is.NoErr(w.Stores.Collaborators.Remove(w.Ctx, tool.ID, dev.ID))
	ownerView, err := w.repos.OpenByID(w.Ctx, auth.Caller{User: owner}, tool.ID)
	is.NoErr(err)

	// Only the organisation's repositories.
	strangerView, err := w.repos.OpenByID(w.Ctx, auth.Caller{User: stranger}, foreign.ID)
	is.NoErr(err)
	err = w.svc.TeamRepos().Add(w.Ctx, crew, strangerView)
	is.True(errors.Is(err, errs.ErrNotFound))

	is.NoErr(w.svc.TeamRepos().Add(w.Ctx, crew, ownerView))
	got, err := w.repos.OpenByID(w.Ctx, auth.Caller{User: dev}, tool.ID)
	is.NoErr(err)
	is.True(got.Perm.CanWrite(permission.UnitCode)) // the team's mode
	is.True(!got.Perm.IsAdmin())

	is.NoErr(w.svc.TeamRepos().Remove(w.Ctx, crew, ownerView))
	_, err = w.repos.OpenByID(w.Ctx, auth.Caller{User: dev}, tool.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
}
