package orgs_test

import (
	"testing"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// This file holds the one fixture of the package's use-case unit tests:
// the organisation use cases built on the in-memory store
// (adapters/memstore) and a fixed clock, without SQL, Git or HTTP.

// world is the organisation use cases on a memory store (usecasekit).
type world struct {
	*usecasekit.World
	repos *repos.Service
	svc   *orgs.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{World: usecasekit.New(t)}
	us := users.NewService(w.Stores, w.DB, nil, nil, nil, w.Clock, nil, nil, nil, nil, nil, w.Settings, w.Log)
	w.repos = repos.NewService(w.Stores, w.DB, nil, nil, nil, nil, nil, nil, w.Clock, usecasekit.QuietEvents{}, us, w.Settings, w.Log, nil)
	w.svc = orgs.NewService(w.Stores, w.DB, w.Clock, us, w.repos, nil, w.Log)
	return w
}

var admin = usecasekit.Admin

func mayCreateOrgs(u *user.User) { u.AllowCreateOrganization = true }

func caller(u *user.User) auth.Caller { return auth.Caller{User: u} }

// org creates an organisation of visibility vis owned by owner, through the use case.
func (s *world) org(name string, owner *user.User, vis user.Visibility) *org.Organization {
	s.T.Helper()
	root := &user.User{IsAdmin: true}
	o, err := s.svc.Create(s.Ctx, caller(root), owner, orgs.CreateInput{Name: name, Profile: org.Profile{Visibility: vis}})
	s.Must(err)
	return o
}

// open opens organisation name as u (nil: anonymous).
func (s *world) open(u *user.User, name string) (*orgs.Access, error) {
	return s.svc.Open(s.Ctx, caller(u), name)
}

func (s *world) mustOpen(u *user.User, name string) *orgs.Access {
	s.T.Helper()
	a, err := s.open(u, name)
	s.Must(err)
	return a
}

// team creates a team of o through the use case, as its first owner, with members.
func (s *world) team(a *orgs.Access, in orgs.TeamInput, members ...*user.User) *orgs.TeamAccess {
	s.T.Helper()
	t, err := s.svc.Teams().Create(s.Ctx, a, in)
	s.Must(err)
	ta, err := s.svc.OpenTeam(s.Ctx, a.Caller, t.ID)
	s.Must(err)
	for _, m := range members {
		s.Must(s.svc.TeamMembers().Add(s.Ctx, ta, m))
	}
	return ta
}

// repo stores a private repository of the account owner.
func (s *world) repo(owner *user.User, name string) *repository.Repository {
	s.T.Helper()
	return s.Repo(owner, name, func(r *repository.Repository) { r.Private = true })
}

// names lists the names of users.
func names(list []*user.User) []string {
	out := make([]string, len(list))
	for i, u := range list {
		out[i] = u.Name
	}
	return out
}

var pageOne = ports.ListOptions{Page: 1, Limit: 50}
