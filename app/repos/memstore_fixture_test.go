package repos_test

import (
	"context"
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
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// This file holds the one fixture of the package's use-case unit tests:
// the repository use cases built on the in-memory store
// (adapters/memstore), a fixed clock, a silent event sink and a fake Git
// storage that only records which repository directories exist.

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

// world is a site with a few accounts and repositories: the repository
// use cases on a memory store (usecasekit) and the fake Git storage.
type world struct {
	*usecasekit.World
	git   *fakeGit
	users *users.Service
	svc   *repos.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{World: usecasekit.New(t), git: &fakeGit{dirs: map[string]bool{}}}
	w.Stores.Hooks = noHooks{}
	w.users = users.NewService(w.Stores, w.DB, nil, nil, nil, w.Clock, nil, w.git, nil, nil, nil, w.Settings, w.Log)
	w.svc = repos.NewService(w.Stores, hookedTx{w.DB}, w.git, nil, nil, nil, nil, nil, w.Clock, usecasekit.QuietEvents{}, w.users, w.Settings, w.Log, nil)
	return w
}

var admin = usecasekit.Admin

// repo stores a repository of owner (and its directory in the fake Git).
func (w *world) repo(owner *user.User, name string, edit ...func(*repository.Repository)) *repository.Repository {
	w.T.Helper()
	r := w.Repo(owner, name, edit...)
	w.git.dirs[strings.ToLower(owner.Name+"/"+name)] = true
	return r
}

func private(r *repository.Repository) { r.Private = true }

// org creates an organisation owned by owner.
func (w *world) org(name string, owner *user.User) *org.Organization { return w.Org(name, owner) }

// team adds a team to o with members.
func (w *world) team(o *org.Organization, name string, mode permission.AccessMode, canCreate bool, members ...*user.User) *org.Team {
	w.T.Helper()
	units := map[permission.Unit]permission.AccessMode{}
	for _, u := range repository.DefaultUnits() {
		units[u] = mode
	}
	t := &org.Team{OrgID: o.ID, Name: name, Mode: mode, Units: units, CanCreateOrgRepo: canCreate}
	w.Must(w.Stores.Orgs.CreateTeam(w.Ctx, t))
	for _, m := range members {
		w.Must(w.Stores.Orgs.AddTeamMember(w.Ctx, t.ID, m.ID))
	}
	return t
}

func (w *world) block(blocker, blockee *user.User) {
	w.T.Helper()
	w.Must(w.Stores.Blocks.Block(w.Ctx, &user.Block{BlockerID: blocker.ID, BlockeeID: blockee.ID, Created: w.Clock.At}))
}

// open opens r as u.
func (w *world) open(u *user.User, r *repository.Repository) (*repos.Access, error) {
	return w.svc.OpenByID(w.Ctx, auth.Caller{User: u}, r.ID)
}

func (w *world) mustOpen(u *user.User, r *repository.Repository) *repos.Access {
	w.T.Helper()
	a, err := w.open(u, r)
	w.Must(err)
	return a
}

// stored reads repository id back from the store.
func (w *world) stored(id int64) *repository.Repository {
	w.T.Helper()
	r, err := w.Stores.Repos.GetByID(w.Ctx, id)
	w.Must(err)
	return r
}

// pathOf is the Git path of owner/name.
func pathOf(owner, name string) ports.RepoPath { return ports.RepoPath{Owner: owner, Name: name} }

// pageOne is the first page of up to fifty rows.
var pageOne = ports.ListOptions{Page: 1, Limit: 50}
