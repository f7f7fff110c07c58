package orgs_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	site "github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// This file holds the one fixture of the package's use-case unit tests:
// the organisation use cases built on the in-memory store
// (adapters/memstore) and a fixed clock, without SQL, Git or HTTP.

type fixedClock struct{ at time.Time }

func (c fixedClock) Now() time.Time { return c.at }

// quietEvents accepts every event and sends nothing.
type quietEvents struct{}

func (quietEvents) Pushed(context.Context, ports.Stores, ports.PushEvent) error { return nil }
func (quietEvents) RepositoryCreated(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}
func (quietEvents) RepositoryDeleted(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}
func (quietEvents) IssueChanged(context.Context, ports.Stores, ports.IssueEvent) error { return nil }

// world is an empty site with the organisation use cases.
type world struct {
	t      *testing.T
	ctx    context.Context
	stores ports.Stores
	clock  fixedClock
	repos  *repos.Service
	svc    *orgs.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db := memstore.New()
	s := &world{t: t, ctx: t.Context(), stores: db.Stores(), clock: fixedClock{time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	settings := site.Settings{BaseURL: "http://localhost:3000"}
	us := users.NewService(s.stores, db, nil, nil, nil, s.clock, nil, nil, nil, settings, log)
	s.repos = repos.NewService(s.stores, db, nil, nil, nil, nil, nil, s.clock, quietEvents{}, us, settings, log)
	s.svc = orgs.NewService(s.stores, db, s.clock, us, s.repos, nil, log)
	return s
}

func (s *world) must(err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatal(err)
	}
}

func (s *world) user(name string, edit ...func(*user.User)) *user.User {
	s.t.Helper()
	u := &user.User{Name: name, LowerName: strings.ToLower(name), Email: name + "@example.com", IsActive: true,
		Visibility: user.VisibilityPublic, MaxRepoCreation: -1, Created: s.clock.at, Updated: s.clock.at}
	for _, e := range edit {
		e(u)
	}
	s.must(s.stores.Users.Create(s.ctx, u))
	return u
}

func admin(u *user.User) { u.IsAdmin = true }

func mayCreateOrgs(u *user.User) { u.AllowCreateOrganization = true }

func caller(u *user.User) auth.Caller { return auth.Caller{User: u} }

// org creates an organisation of visibility vis owned by owner, through the use case.
func (s *world) org(name string, owner *user.User, vis user.Visibility) *org.Organization {
	s.t.Helper()
	root := &user.User{IsAdmin: true}
	o, err := s.svc.Create(s.ctx, caller(root), owner, orgs.CreateInput{Name: name, Profile: org.Profile{Visibility: vis}})
	s.must(err)
	return o
}

// open opens organisation name as u (nil: anonymous).
func (s *world) open(u *user.User, name string) (*orgs.Access, error) {
	return s.svc.Open(s.ctx, caller(u), name)
}

func (s *world) mustOpen(u *user.User, name string) *orgs.Access {
	s.t.Helper()
	a, err := s.open(u, name)
	s.must(err)
	return a
}

// team creates a team of o through the use case, as its first owner, with members.
func (s *world) team(a *orgs.Access, in orgs.TeamInput, members ...*user.User) *orgs.TeamAccess {
	s.t.Helper()
	t, err := s.svc.Teams().Create(s.ctx, a, in)
	s.must(err)
	ta, err := s.svc.OpenTeam(s.ctx, a.Caller, t.ID)
	s.must(err)
	for _, m := range members {
		s.must(s.svc.TeamMembers().Add(s.ctx, ta, m))
	}
	return ta
}

// repo stores a repository of the account owner.
func (s *world) repo(owner *user.User, name string) *repository.Repository {
	s.t.Helper()
	r := &repository.Repository{Owner: repository.Owner{ID: owner.ID}, Name: name, Private: true, DefaultBranch: "main",
		ObjectFormat: "sha1", Units: repository.DefaultUnits(), Created: s.clock.at, Updated: s.clock.at}
	s.must(s.stores.Repos.Create(s.ctx, r))
	return r
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
