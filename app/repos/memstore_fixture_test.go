package repos_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// This file holds the one fixture of the package's use-case unit tests:
// the repository use cases built on the in-memory store
// (adapters/memstore), a fixed clock, a silent event sink and a fake Git
// storage that only records which repository directories exist.

// fixedClock is a clock that never moves.
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

// fakeGit is the Git storage of the use cases tested here: directories as
// a set of "owner/name" paths. Methods a test reaches that it does not
// implement panic (the embedded interface is nil).
type fakeGit struct {
	ports.GitStorage
	mu   sync.Mutex
	dirs map[string]bool
}

func key(p ports.RepoPath) string { return strings.ToLower(p.Owner + "/" + p.Name) }

func (g *fakeGit) has(p ports.RepoPath) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dirs[key(p)]
}

func (g *fakeGit) Exists(_ context.Context, p ports.RepoPath) (bool, error) { return g.has(p), nil }

func (g *fakeGit) Delete(_ context.Context, p ports.RepoPath) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.dirs, key(p))
	return nil
}

func (g *fakeGit) Move(_ context.Context, from, to ports.RepoPath) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.dirs, key(from))
	g.dirs[key(to)] = true
	return nil
}

func (g *fakeGit) Fork(_ context.Context, _, to ports.RepoPath) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.dirs[key(to)] = true
	return nil
}

func (g *fakeGit) Size(context.Context, ports.RepoPath) (int64, error) { return 1024, nil }

func (g *fakeGit) JournalMove(_ context.Context, m ports.DirMove) (ports.DirMove, error) {
	m.ID = "move"
	return m, nil
}

func (g *fakeGit) SettleMove(context.Context, ports.DirMove) error { return nil }

// noHooks is the hook store of these tests: no site default hooks to copy.
type noHooks struct{ ports.HookStore }

func (noHooks) CopyDefaults(context.Context, int64, time.Time) error { return nil }

// hookedTx runs the memory store's transactions with noHooks as their
// hook store, which the memory store does not implement.
type hookedTx struct{ db *memstore.DB }

func (h hookedTx) InTx(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	return h.db.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		tx.Hooks = noHooks{}
		return fn(ctx, tx)
	})
}

// world is a site with a few accounts and repositories.
type world struct {
	t      *testing.T
	ctx    context.Context
	stores ports.Stores
	clock  fixedClock
	git    *fakeGit
	users  *users.Service
	svc    *repos.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db := memstore.New()
	w := &world{t: t, ctx: t.Context(), stores: db.Stores(), clock: fixedClock{time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)},
		git: &fakeGit{dirs: map[string]bool{}}}
	w.stores.Hooks = noHooks{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	settings := site.Settings{BaseURL: "http://localhost:3000"}
	w.users = users.NewService(w.stores, db, nil, nil, nil, w.clock, nil, w.git, nil, settings, log)
	w.svc = repos.NewService(w.stores, hookedTx{db}, w.git, nil, nil, nil, nil, w.clock, quietEvents{}, w.users, settings, log)
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

// repo stores a repository of owner (and its directory in the fake Git).
func (w *world) repo(owner *user.User, name string, edit ...func(*repository.Repository)) *repository.Repository {
	w.t.Helper()
	r := &repository.Repository{Owner: repository.Owner{ID: owner.ID}, Name: name, DefaultBranch: "main",
		ObjectFormat: "sha1", Units: repository.DefaultUnits(), Created: w.clock.at, Updated: w.clock.at}
	for _, e := range edit {
		e(r)
	}
	w.must(w.stores.Repos.Create(w.ctx, r))
	w.git.dirs[strings.ToLower(owner.Name+"/"+name)] = true
	return w.stored(r.ID)
}

func private(r *repository.Repository) { r.Private = true }

// org creates an organisation owned by owner.
func (w *world) org(name string, owner *user.User) *org.Organization {
	w.t.Helper()
	o := &org.Organization{User: user.User{Name: name, LowerName: strings.ToLower(name), Visibility: user.VisibilityPublic,
		IsActive: true, MaxRepoCreation: -1, Created: w.clock.at, Updated: w.clock.at}}
	w.must(w.stores.Orgs.Create(w.ctx, o, owner.ID))
	return o
}

// team adds a team to o with members.
func (w *world) team(o *org.Organization, name string, mode permission.AccessMode, canCreate bool, members ...*user.User) *org.Team {
	w.t.Helper()
	units := map[permission.Unit]permission.AccessMode{}
	for _, u := range repository.DefaultUnits() {
		units[u] = mode
	}
	t := &org.Team{OrgID: o.ID, Name: name, Mode: mode, Units: units, CanCreateOrgRepo: canCreate}
	w.must(w.stores.Orgs.CreateTeam(w.ctx, t))
	for _, m := range members {
		w.must(w.stores.Orgs.AddTeamMember(w.ctx, t.ID, m.ID))
	}
	return t
}

func (w *world) block(blocker, blockee *user.User) {
	w.t.Helper()
	w.must(w.stores.Blocks.Block(w.ctx, &user.Block{BlockerID: blocker.ID, BlockeeID: blockee.ID, Created: w.clock.at}))
}

// open opens r as u.
func (w *world) open(u *user.User, r *repository.Repository) (*repos.Access, error) {
	return w.svc.OpenByID(w.ctx, auth.Caller{User: u}, r.ID)
}

func (w *world) mustOpen(u *user.User, r *repository.Repository) *repos.Access {
	w.t.Helper()
	a, err := w.open(u, r)
	w.must(err)
	return a
}

// stored reads repository id back from the store.
func (w *world) stored(id int64) *repository.Repository {
	w.t.Helper()
	r, err := w.stores.Repos.GetByID(w.ctx, id)
	w.must(err)
	return r
}

// pathOf is the Git path of owner/name.
func pathOf(owner, name string) ports.RepoPath { return ports.RepoPath{Owner: owner, Name: name} }

// pageOne is the first page of up to fifty rows.
var pageOne = ports.ListOptions{Page: 1, Limit: 50}
