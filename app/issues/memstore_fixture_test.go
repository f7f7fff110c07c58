package issues_test

import (
	"context"
	"sync"
	"testing"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// This file holds the one fixture of the package's use-case unit tests:
// the issue use cases built on the in-memory store (adapters/memstore), a
// fixed clock and an event recorder, without SQL, Git or HTTP.

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
func (e *recordedEvents) WikiChanged(context.Context, ports.Stores, ports.WikiEvent) error {
	return nil
}
func (e *recordedEvents) RepositoryMoved(context.Context, ports.Stores, ports.RepoMoveEvent) error {
	return nil
}
func (e *recordedEvents) MirrorSynced(context.Context, ports.Stores, ports.MirrorSyncEvent) error {
	return nil
}
func (e *recordedEvents) ReleaseChanged(context.Context, ports.Stores, ports.ReleaseEvent) error {
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
	*usecasekit.World
	events *recordedEvents
	users  *users.Service
	repos  *repos.Service
	svc    *issues.Service

	owner, writer, reader, poster, stranger, admin *user.User
	repo                                           *repository.Repository
}

func newTracker(t *testing.T) *tracker {
	t.Helper()
	f := &tracker{World: usecasekit.New(t), events: &recordedEvents{}}
	f.users = users.NewService(f.Stores, f.DB, nil, nil, nil, f.Clock, nil, nil, nil, nil, nil, f.Settings, f.Log)
	f.repos = repos.NewService(f.Stores, f.DB, nil, nil, nil, nil, nil, nil, f.Clock, f.events, f.users, f.Settings, f.Log, nil)
	f.svc = issues.NewService(f.Stores, f.DB, f.Clock, f.events, nil, nil, f.users, f.repos, f.Settings, f.Log)

	f.owner = f.User("owner")
	f.writer = f.User("writer")
	f.reader = f.User("reader")
	f.poster = f.User("poster")
	f.stranger = f.User("stranger")
	f.admin = f.User("admin", func(u *user.User) { u.IsAdmin = true })
	f.repo = &repository.Repository{Owner: repository.Owner{ID: f.owner.ID}, Name: "tracker", Private: true,
		DefaultBranch: "main", ObjectFormat: "sha1", Units: repository.DefaultUnits(),
		Tracker: repository.IssueTracker{EnableIssueDependencies: true, Style: repository.TrackerNumeric},
		Created: f.Clock.At, Updated: f.Clock.At}
	f.Must(f.Stores.Repos.Create(f.Ctx, f.repo))
	f.collaborator(f.writer, permission.ModeWrite)
	f.collaborator(f.reader, permission.ModeRead)
	f.collaborator(f.poster, permission.ModeRead)
	return f
}

func (f *tracker) collaborator(u *user.User, mode permission.AccessMode) {
	f.T.Helper()
	f.Must(f.Stores.Collaborators.Set(f.Ctx, repository.Collaborator{RepoID: f.repo.ID, UserID: u.ID, Mode: mode}))
}

// issue stores an open issue by poster and returns it as stored.
func (f *tracker) issue(poster *user.User, title string, edit ...func(*issue.Issue)) *issue.Issue {
	f.T.Helper()
	i := &issue.Issue{RepoID: f.repo.ID, PosterID: poster.ID, Title: title, Body: "about " + title,
		CreatedAt: f.Clock.At, UpdatedAt: f.Clock.At}
	for _, e := range edit {
		e(i)
	}
	f.Must(f.Stores.Issues.Create(f.Ctx, i))
	return i
}

// comment stores a plain comment by poster on i.
func (f *tracker) comment(i *issue.Issue, poster *user.User, body string) *issue.Comment {
	f.T.Helper()
	c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: i.RepoID, PosterID: poster.ID, Body: body,
		CreatedAt: f.Clock.At, UpdatedAt: f.Clock.At}
	f.Must(f.Stores.Comments.Create(f.Ctx, c))
	return c
}

// access opens the tracker's repository as u (nil for anonymous).
func (f *tracker) access(u *user.User) (*repos.Access, error) {
	return f.repos.Open(f.Ctx, auth.Caller{User: u}, f.owner.Name, f.repo.Name)
}

// mustAccess opens the repository as u, failing the test when u cannot.
func (f *tracker) mustAccess(u *user.User) *repos.Access {
	f.T.Helper()
	a, err := f.access(u)
	f.Must(err)
	return a
}

// stored reads issue id back from the store.
func (f *tracker) stored(id int64) *issue.Issue {
	f.T.Helper()
	i, err := f.Stores.Issues.GetByID(f.Ctx, id)
	f.Must(err)
	return i
}

// timeline lists the types of the events recorded on issue id.
func (f *tracker) timeline(id int64) []issue.CommentType {
	f.T.Helper()
	list, _, err := f.Stores.Comments.List(f.Ctx, ports.CommentQuery{IssueID: id})
	f.Must(err)
	var out []issue.CommentType
	for _, c := range list {
		out = append(out, c.Type)
	}
	return out
}

func ptr[T any](v T) *T { return &v }
