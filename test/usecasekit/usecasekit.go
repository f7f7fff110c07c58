// Package usecasekit is what the use-case tests of app/ share: an in-memory
// store (adapters/memstore) seeded with accounts, organisations and
// repositories, a fixed clock and a quiet event sink, with no SQL, Git or
// HTTP. Each app package's fixture embeds a World and adds its services.
package usecasekit

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/memstore"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Clock is a clock that never moves.
type Clock struct{ At time.Time }

// Now is the clock's one instant.
func (c Clock) Now() time.Time { return c.At }

// QuietEvents takes every event and keeps none.
type QuietEvents struct{}

// Pushed takes a push event.
func (QuietEvents) Pushed(context.Context, ports.Stores, ports.PushEvent) error { return nil }

// RepositoryCreated takes a creation event.
func (QuietEvents) RepositoryCreated(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}

// RepositoryDeleted takes a deletion event.
func (QuietEvents) RepositoryDeleted(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}

// IssueChanged takes an issue event.
func (QuietEvents) IssueChanged(context.Context, ports.Stores, ports.IssueEvent) error { return nil }

// RepositoryMoved takes a rename or transfer.
func (QuietEvents) RepositoryMoved(context.Context, ports.Stores, ports.RepoMoveEvent) error {
	return nil
}

// MirrorSynced takes a mirror's sync.
func (QuietEvents) MirrorSynced(context.Context, ports.Stores, ports.MirrorSyncEvent) error {
	return nil
}

// WikiChanged takes a wiki event.
func (QuietEvents) WikiChanged(context.Context, ports.Stores, ports.WikiEvent) error { return nil }

// ReleaseChanged takes a release event.
func (QuietEvents) ReleaseChanged(context.Context, ports.Stores, ports.ReleaseEvent) error {
	return nil
}

// World is one test's memory store and what the services are built with.
type World struct {
	T        *testing.T
	Ctx      context.Context
	DB       *memstore.DB
	Stores   ports.Stores
	Clock    Clock
	Log      *slog.Logger
	Settings site.Settings
}

// New gives the test a fresh, empty memory store.
func New(t *testing.T) *World {
	t.Helper()
	db := memstore.New()
	return &World{T: t, Ctx: t.Context(), DB: db, Stores: db.Stores(),
		Clock:    Clock{At: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)},
		Log:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		Settings: site.Settings{BaseURL: "http://localhost:3000"}}
}

// Must fails the test on err.
func (w *World) Must(err error) {
	w.T.Helper()
	if err != nil {
		w.T.Fatal(err)
	}
}

// User stores an active public account (edited by edit first).
func (w *World) User(name string, edit ...func(*user.User)) *user.User {
	w.T.Helper()
	u := &user.User{Name: name, LowerName: strings.ToLower(name), Email: name + "@example.com", IsActive: true,
		Visibility: user.VisibilityPublic, MaxRepoCreation: -1, Created: w.Clock.At, Updated: w.Clock.At}
	for _, e := range edit {
		e(u)
	}
	w.Must(w.Stores.Users.Create(w.Ctx, u))
	return u
}

// Admin makes an account a site administrator (an edit for User).
func Admin(u *user.User) { u.IsAdmin = true }

// Org stores a public organisation owned by owner.
func (w *World) Org(name string, owner *user.User) *org.Organization {
	w.T.Helper()
	o := &org.Organization{User: user.User{Name: name, LowerName: strings.ToLower(name), Visibility: user.VisibilityPublic,
		IsActive: true, MaxRepoCreation: -1, Created: w.Clock.At, Updated: w.Clock.At}}
	w.Must(w.Stores.Orgs.Create(w.Ctx, o, owner.ID))
	return o
}

// Repo stores a repository of owner with the default units (edited by
// edit first) and returns it as stored.
func (w *World) Repo(owner *user.User, name string, edit ...func(*repository.Repository)) *repository.Repository {
	w.T.Helper()
	r := &repository.Repository{Owner: repository.Owner{ID: owner.ID}, Name: name, DefaultBranch: "main",
		ObjectFormat: "sha1", Units: repository.DefaultUnits(), Created: w.Clock.At, Updated: w.Clock.At}
	for _, e := range edit {
		e(r)
	}
	w.Must(w.Stores.Repos.Create(w.Ctx, r))
	stored, err := w.Stores.Repos.GetByID(w.Ctx, r.ID)
	w.Must(err)
	return stored
}
