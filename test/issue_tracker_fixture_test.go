package test

import (
	"strconv"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/test/testserver"
)

// trackerWorld is the shared fixture of the tests of time tracking, dependencies,
// subscriptions, pins, locks, templates and their timeline events: a public
// repository exowner/r with a write collaborator, and a stranger.
type trackerWorld struct {
	srv                            *testserver.Server
	admin, owner, writer, stranger *gitea.Client
}

const trackerRepo = "/repos/exowner/r"

func trackerSetup(t *testing.T, opts ...testserver.Option) *trackerWorld {
	t.Helper()
	srv := testserver.Start(t, opts...)
	w := &trackerWorld{srv: srv, admin: srv.AdminClient()}
	_, w.owner = newAccount(t, srv, "exowner", gitea.VisibleTypePublic)
	_, w.writer = newAccount(t, srv, "exwriter", gitea.VisibleTypePublic)
	_, w.stranger = newAccount(t, srv, "exstranger", gitea.VisibleTypePublic)
	createRepo(t, w.owner, gitea.CreateRepoOption{Name: "r"})
	perm := gitea.AccessModeWrite
	if _, err := w.owner.AddCollaborator("exowner", "r", "exwriter", gitea.AddCollaboratorOption{Permission: &perm}); err != nil {
		t.Fatalf("add collaborator: %v", err)
	}
	return w
}

// issue opens an issue in exowner/r as c.
func (w *trackerWorld) issue(t *testing.T, c *gitea.Client, title string) *gitea.Issue {
	t.Helper()
	i, _, err := c.CreateIssue("exowner", "r", gitea.CreateIssueOption{Title: title})
	if err != nil {
		t.Fatalf("create issue %q: %v", title, err)
	}
	return i
}

// tracker sets exowner/r's internal tracker options.
func (w *trackerWorld) tracker(t *testing.T, timeTracker, onlyContributors, dependencies bool) {
	t.Helper()
	on := true // Gitea reads the tracker options only along with has_issues
	_, _, err := w.owner.EditRepo("exowner", "r", gitea.EditRepoOption{HasIssues: &on, InternalTracker: &gitea.InternalTracker{
		EnableTimeTracker: timeTracker, AllowOnlyContributorsToTrackTime: onlyContributors, EnableIssueDependencies: dependencies,
	}})
	if err != nil {
		t.Fatalf("edit tracker: %v", err)
	}
}

// wantStatus fails the test unless r has the status.
func wantStatus(t *testing.T, r testserver.Response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d (body %s)", r.Status, status, r.Body)
	}
}

// itoa64 writes an id for a path.
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// openIssueIn opens an issue in exowner/name (another repository than r) as the owner.
func (w *trackerWorld) openIssueIn(t *testing.T, name string) {
	t.Helper()
	if _, _, err := w.owner.CreateIssue("exowner", name, gitea.CreateIssueOption{Title: "x"}); err != nil {
		t.Fatalf("create issue: %v", err)
	}
}
