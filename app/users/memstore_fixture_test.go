package users_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// This file holds the one fixture of the package's use-case unit tests:
// the account use cases built on the in-memory store (adapters/memstore)
// and a fixed clock, without SQL, Git or HTTP.

type fixedClock struct{ at time.Time }

func (c fixedClock) Now() time.Time { return c.at }

// world is a site with the account use cases.
type world struct {
	t      *testing.T
	ctx    context.Context
	stores ports.Stores
	clock  fixedClock
	svc    *users.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db := memstore.New()
	w := &world{t: t, ctx: t.Context(), stores: db.Stores(), clock: fixedClock{time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w.svc = users.NewService(w.stores, db, nil, nil, nil, w.clock, nil, nil, nil, site.Settings{BaseURL: "http://localhost:3000"}, log)
	return w
}

func (w *world) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) user(name string, edit ...func(*user.User)) *user.User {
	w.t.Helper()
	u := &user.User{Name: name, LowerName: strings.ToLower(name), Email: name + "@example.com", IsActive: true,
		Visibility: user.VisibilityPublic, MaxRepoCreation: -1, Created: w.clock.at, Updated: w.clock.at}
	for _, e := range edit {
		e(u)
	}
	w.must(w.stores.Users.Create(w.ctx, u))
	return u
}

func admin(u *user.User) { u.IsAdmin = true }

func caller(u *user.User) auth.Caller { return auth.Caller{User: u} }

// org creates an organisation owned by owner, with members in a second team.
func (w *world) org(name string, owner *user.User, members ...*user.User) *org.Organization {
	w.t.Helper()
	o := &org.Organization{User: user.User{Name: name, LowerName: strings.ToLower(name), Visibility: user.VisibilityPublic,
		IsActive: true, MaxRepoCreation: -1, Created: w.clock.at, Updated: w.clock.at}}
	w.must(w.stores.Orgs.Create(w.ctx, o, owner.ID))
	if len(members) > 0 {
		t := &org.Team{OrgID: o.ID, Name: "crew"}
		w.must(w.stores.Orgs.CreateTeam(w.ctx, t))
		for _, m := range members {
			w.must(w.stores.Orgs.AddTeamMember(w.ctx, t.ID, m.ID))
		}
	}
	return o
}

// repo stores a repository of owner.
func (w *world) repo(owner *user.User, name string) *repository.Repository {
	w.t.Helper()
	r := &repository.Repository{Owner: repository.Owner{ID: owner.ID}, Name: name, DefaultBranch: "main",
		ObjectFormat: "sha1", Units: repository.DefaultUnits(), Created: w.clock.at, Updated: w.clock.at}
	w.must(w.stores.Repos.Create(w.ctx, r))
	return r
}

// blocked lists the names of the accounts blocker blocks.
func (w *world) blocked(blocker *user.User) []string {
	w.t.Helper()
	list, _, err := w.svc.Blocks().List(w.ctx, blocker, ports.ListOptions{Page: 1, Limit: 50})
	w.must(err)
	out := []string{}
	for _, u := range list {
		out = append(out, u.Name)
	}
	return out
}
