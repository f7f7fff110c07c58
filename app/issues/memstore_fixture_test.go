package issues_test

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
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// This file holds the one fixture of the package's use-case unit tests:
// the issue use cases built on the in-memory store (adapters/memstore), a
// fixed clock and an event recorder, without SQL, Git or HTTP.

// fixedClock is a clock that never moves.
type fixedClock struct{ at time.Time }

func (c fixedClock) Now() time.Time { return c.at }

// recordedEvents collects the events the use cases emit.
type recordedEvents struct {
	mu     sync.Mutex
	issues []ports.IssueEvent
}

func (e *recordedEvents) Pushed(context.Context, ports.Stores, ports.PushEvent) error { return nil }
func (e *recordedEvents) RepositoryCreated(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}
func (e *recordedEvents) RepositoryDeleted(context.Context, ports.Stores, ports.RepoEvent) error {
	return nil
}
func (e *recordedEvents) IssueChanged(_ context.Context, _ ports.Stores, ev ports.IssueEvent) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.issues = append(e.issues, ev)
	return nil
}

// actions lists the kinds and actions of the issue events recorded.
func (e *recordedEvents) actions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.issues {
		out = append(out, string(ev.Kind)+":"+ev.Action)
	}
	return out
}

// tracker is one private repository with an issue tracker and the people
// around it: its owner, a write collaborator, a read collaborator, the
// poster of its issues (a read collaborator too) and a stranger.
type tracker struct {
	t      *testing.T
	ctx    context.Context
	db     *memstore.DB
	stores ports.Stores
	clock  fixedClock
	events *recordedEvents
	users  *users.Service
	repos  *repos.Service
	svc    *issues.Service

	owner, writer, reader, poster, stranger, admin *user.User
	repo                                           *repository.Repository
}

func newTracker(t *testing.T) *tracker {
	t.Helper()
	db := memstore.New()
	f := &tracker{t: t, ctx: t.Context(), db: db, stores: db.Stores(),
		clock: fixedClock{time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)}, events: &recordedEvents{}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	settings := site.Settings{BaseURL: "http://localhost:3000"}
	f.users = users.NewService(f.stores, db, nil, nil, nil, f.clock, nil, nil, nil, settings, log)
	f.repos = repos.NewService(f.stores, db, nil, nil, nil, nil, nil, f.clock, f.events, f.users, settings, log)
	f.svc = issues.NewService(f.stores, db, f.clock, f.events, nil, nil, f.users, f.repos, settings, log)

	f.owner = f.user("owner")
	f.writer = f.user("writer")
	f.reader = f.user("reader")
	f.poster = f.user("poster")
	f.stranger = f.user("stranger")
	f.admin = f.user("admin", func(u *user.User) { u.IsAdmin = true })
	f.repo = &repository.Repository{Owner: repository.Owner{ID: f.owner.ID}, Name: "tracker", Private: true,
		DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits(),
		Tracker: repository.IssueTracker{EnableIssueDependencies: true, Style: repository.TrackerNumeric},
		Created: f.clock.at, Updated: f.clock.at}
	f.must(f.stores.Repos.Create(f.ctx, f.repo))
	f.collaborator(f.writer, permission.ModeWrite)
	f.collaborator(f.reader, permission.ModeRead)
	f.collaborator(f.poster, permission.ModeRead)
	return f
}

func (f *tracker) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *tracker) user(name string, edit ...func(*user.User)) *user.User {
	f.t.Helper()
	u := &user.User{Name: name, LowerName: strings.ToLower(name), Email: name + "@example.com", IsActive: true,
		Visibility: user.VisibilityPublic, MaxRepoCreation: -1, Created: f.clock.at, Updated: f.clock.at}
	for _, e := range edit {
		e(u)
	}
	f.must(f.stores.Users.Create(f.ctx, u))
	return u
}

func (f *tracker) collaborator(u *user.User, mode permission.AccessMode) {
	f.t.Helper()
	f.must(f.stores.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: f.repo.ID, UserID: u.ID, Mode: mode}))
}

// issue stores an open issue by poster and returns it as stored.
func (f *tracker) issue(poster *user.User, title string, edit ...func(*issue.Issue)) *issue.Issue {
	f.t.Helper()
	i := &issue.Issue{RepoID: f.repo.ID, PosterID: poster.ID, Title: title, Body: "about " + title,
		CreatedAt: f.clock.at, UpdatedAt: f.clock.at}
	for _, e := range edit {
		e(i)
	}
	f.must(f.stores.Issues.Create(f.ctx, i))
	return i
}

// comment stores a plain comment by poster on i.
func (f *tracker) comment(i *issue.Issue, poster *user.User, body string) *issue.Comment {
	f.t.Helper()
	c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: i.RepoID, PosterID: poster.ID, Body: body,
		CreatedAt: f.clock.at, UpdatedAt: f.clock.at}
	f.must(f.stores.Comments.Create(f.ctx, c))
	return c
}

// access opens the tracker's repository as u (nil for anonymous).
func (f *tracker) access(u *user.User) (*repos.Access, error) {
	return f.repos.Open(f.ctx, auth.Caller{User: u}, f.owner.Name, f.repo.Name)
}

// mustAccess opens the repository as u, failing the test when u cannot.
func (f *tracker) mustAccess(u *user.User) *repos.Access {
	f.t.Helper()
	a, err := f.access(u)
	f.must(err)
	return a
}

// stored reads issue id back from the store.
func (f *tracker) stored(id int64) *issue.Issue {
	f.t.Helper()
	i, err := f.stores.Issues.GetByID(f.ctx, id)
	f.must(err)
	return i
}

// timeline lists the types of the events recorded on issue id.
func (f *tracker) timeline(id int64) []issue.CommentType {
	f.t.Helper()
	list, _, err := f.stores.Comments.List(f.ctx, ports.CommentQuery{IssueID: id})
	f.must(err)
	var out []issue.CommentType
	for _, c := range list {
		out = append(out, c.Type)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
