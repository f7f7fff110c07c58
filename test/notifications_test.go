package test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// threadsOf lists c's threads with opt, failing the test on an error.
func threadsOf(t *testing.T, c *gitea.Client, opt gitea.ListNotificationOptions) []*gitea.NotificationThread {
	t.Helper()
	list, _, err := c.ListNotifications(opt)
	if err != nil {
		t.Fatalf("list notifications: %v", err)
	}
	return list
}

// waitUnread waits until c has n unread threads (the fan-out runs in the
// background).
func waitUnread(t *testing.T, c *gitea.Client, n int64) {
	t.Helper()
	testkit.Eventually(t, "unread notifications", func() bool {
		got, _, err := c.CheckNotifications()
		return err == nil && got == n
	})
}

// threadAbout is c's thread about the issue titled title, nil when none.
func threadAbout(t *testing.T, c *gitea.Client, title string) *gitea.NotificationThread {
	t.Helper()
	for _, th := range threadsOf(t, c, gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{"unread", "read", "pinned"}}) {
		if th.Subject != nil && th.Subject.Title == title {
			return th
		}
	}
	return nil
}

func TestNotificationThreads(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		_, err := w.stranger.WatchRepo("exowner", "r")
		is.NoErr(err)

		// The owner opens an issue: the watcher hears of it, the actor not.
		start := time.Now().Add(-time.Minute)
		w.issue(t, w.owner, "hello")
		waitUnread(t, w.stranger, 1)
		th := threadAbout(t, w.stranger, "hello")
		is.True(th != nil)
		is.True(th.Unread)
		is.True(!th.Pinned)
		is.Equal(th.Subject.Type, gitea.NotifySubjectIssue)
		is.Equal(th.Subject.State, gitea.NotifySubjectOpen)
		is.True(strings.HasSuffix(th.Subject.URL, "/api/v1/repos/exowner/r/issues/1"))
		is.True(strings.HasSuffix(th.Subject.HTMLURL, "/exowner/r/issues/1"))
		is.True(strings.HasSuffix(th.URL, "/api/v1/notifications/threads/"+itoa64(th.ID)))
		is.Equal(th.Repository.FullName, "exowner/r")
		is.True(th.Repository.Permissions == nil)
		is.Equal(threadAbout(t, w.owner, "hello"), nil)

		// The watcher comments: the owner (poster, watcher) hears of it,
		// with the comment's address; the commenter's own thread stays as
		// it was.
		c, _, err := w.stranger.CreateIssueComment("exowner", "r", 1, gitea.CreateIssueCommentOption{Body: "me too"})
		is.NoErr(err)
		waitUnread(t, w.owner, 1)
		own := threadAbout(t, w.owner, "hello")
		is.True(strings.HasSuffix(own.Subject.LatestCommentURL, "/api/v1/repos/exowner/r/issues/comments/"+itoa64(c.ID)))
		is.True(strings.HasSuffix(own.Subject.LatestCommentHTMLURL, "/exowner/r/issues/1#issuecomment-"+itoa64(c.ID)))
		n, _, err := w.stranger.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(1))

		// A mention reaches a user who does not watch the repository.
		_, err = w.writer.UnWatchRepo("exowner", "r")
		is.NoErr(err)
		_, _, err = w.owner.CreateIssue("exowner", "r", gitea.CreateIssueOption{Title: "ping", Body: "cc @exwriter"})
		is.NoErr(err)
		waitUnread(t, w.writer, 1)
		is.True(threadAbout(t, w.writer, "ping") != nil)
		waitUnread(t, w.stranger, 2)

		// Filters: subject type, status, time, paging with the total.
		all := threadsOf(t, w.stranger, gitea.ListNotificationOptions{})
		is.Equal(len(all), 2)
		is.Equal(all[0].Subject.Title, "ping") // newest first
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{SubjectTypes: []gitea.NotifySubjectType{gitea.NotifySubjectPull}})), 0)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{SubjectTypes: []gitea.NotifySubjectType{gitea.NotifySubjectIssue}})), 2)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{gitea.NotifyStatusRead}})), 0)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{Before: start})), 0)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{Since: start})), 2)
		page, resp, err := w.stranger.ListNotifications(gitea.ListNotificationOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
		is.NoErr(err)
		is.Equal(len(page), 1)
		is.Equal(resp.Header.Get("X-Total-Count"), "2")

		// One thread read, then pinned; the default list keeps pinned ones.
		hello := threadAbout(t, w.stranger, "hello")
		got, resp, err := w.stranger.ReadNotification(hello.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusResetContent)
		is.True(!got.Unread)
		waitUnread(t, w.stranger, 1)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{})), 1)
		got, _, err = w.stranger.ReadNotification(hello.ID, gitea.NotifyStatusPinned)
		is.NoErr(err)
		is.True(got.Pinned)
		is.Equal(len(threadsOf(t, w.stranger, gitea.ListNotificationOptions{})), 2)
		one, _, err := w.stranger.GetNotification(hello.ID)
		is.NoErr(err)
		is.True(one.Pinned)

		// The owner closes the issue: the pinned thread stays pinned and
		// shows the state.
		closed := gitea.StateClosed
		_, _, err = w.owner.EditIssue("exowner", "r", 1, gitea.EditIssueOption{State: &closed})
		is.NoErr(err)
		testkit.Eventually(t, "the closed state", func() bool {
			th, _, err := w.stranger.GetNotification(hello.ID)
			return err == nil && th.Subject.State == gitea.NotifySubjectClosed && th.Pinned
		})

		// Mark all unread as read: 205 with the changed threads.
		changed, resp, err := w.stranger.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusResetContent)
		is.Equal(len(changed), 1)
		is.Equal(changed[0].Subject.Title, "ping")
		is.True(!changed[0].Unread)
		waitUnread(t, w.stranger, 0)

		// The repository's own routes.
		repoList, _, err := w.stranger.ListRepoNotifications("exowner", "r", gitea.ListNotificationOptions{
			Status: []gitea.NotifyStatus{gitea.NotifyStatusRead, gitea.NotifyStatusPinned}})
		is.NoErr(err)
		is.Equal(len(repoList), 2)
		changed, resp, err = w.stranger.ReadRepoNotifications("exowner", "r", gitea.MarkNotificationOptions{
			Status: []gitea.NotifyStatus{gitea.NotifyStatusRead}, ToStatus: gitea.NotifyStatusUnread})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusResetContent)
		is.Equal(len(changed), 1)
		is.True(changed[0].Unread)
		waitUnread(t, w.stranger, 1)

		// Someone else's thread does not exist for the caller.
		_, resp, err = w.writer.GetNotification(hello.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = w.writer.ReadNotification(hello.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = w.stranger.GetNotification(hello.ID + 1000)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})
}

func TestNotificationBadRequests(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		auth := basicAs("exstranger")
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{"GET", "/notifications", http.StatusUnauthorized},
			{"GET", "/notifications/new", http.StatusUnauthorized},
			{"PUT", "/notifications", http.StatusUnauthorized},
			{"GET", "/notifications/threads/1", http.StatusUnauthorized},
			{"PATCH", "/notifications/threads/1", http.StatusUnauthorized},
			{"GET", "/repos/exowner/r/notifications", http.StatusUnauthorized},
			{"PUT", "/repos/exowner/r/notifications", http.StatusUnauthorized},
		} {
			wantStatus(t, w.srv.Do(c.method, c.path, nil), c.status)
		}
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{"GET", "/notifications?status-types=bogus", http.StatusBadRequest},
			{"GET", "/notifications?subject-type=release", http.StatusBadRequest},
			{"GET", "/notifications?since=yesterday", http.StatusBadRequest},
			{"GET", "/notifications?all=maybe", http.StatusBadRequest},
			{"PUT", "/notifications?to-status=bogus", http.StatusBadRequest},
			{"PUT", "/notifications?last_read_at=soon", http.StatusBadRequest},
			{"PATCH", "/notifications/threads/1?to-status=bogus", http.StatusBadRequest},
			{"GET", "/notifications/threads/abc", http.StatusNotFound},
			{"GET", "/repos/exowner/nope/notifications", http.StatusNotFound},
			{"GET", "/notifications?status-types=read&subject-type=issue&all=true", http.StatusOK},
		} {
			r := w.srv.Do(c.method, c.path, nil, auth...)
			if r.Status != c.status {
				t.Errorf("%s %s: status %d, want %d (%s)", c.method, c.path, r.Status, c.status, r.Body)
			}
		}
	})
}

func TestNotificationsOfARepositoryNoLongerReadable(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, owner := newAccount(t, srv, "powner", gitea.VisibleTypePublic)
		_, reader := newAccount(t, srv, "preader", gitea.VisibleTypePublic)
		_, watcher := newAccount(t, srv, "pwatcher", gitea.VisibleTypePublic)
		createRepo(t, owner, gitea.CreateRepoOption{Name: "secret", Private: true})
		perm := gitea.AccessModeRead
		_, err := owner.AddCollaborator("powner", "secret", "preader", gitea.AddCollaboratorOption{Permission: &perm})
		is.NoErr(err)
		_, err = owner.AddCollaborator("powner", "secret", "pwatcher", gitea.AddCollaboratorOption{Permission: &perm})
		is.NoErr(err)
		_, err = reader.WatchRepo("powner", "secret")
		is.NoErr(err)
		_, err = watcher.WatchRepo("powner", "secret")
		is.NoErr(err)
		_, _, err = owner.CreateIssue("powner", "secret", gitea.CreateIssueOption{Title: "hidden", Body: "@preader look"})
		is.NoErr(err)
		waitUnread(t, reader, 1)
		th := threadAbout(t, reader, "hidden")
		is.True(th != nil)
		is.True(th.Repository.Private)

		// Removed from the repository, the reader no longer sees its
		// threads anywhere, even though the row stays.
		_, err = owner.DeleteCollaborator("powner", "secret", "preader")
		is.NoErr(err)
		n, _, err := reader.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(0))
		is.Equal(len(threadsOf(t, reader, gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{"unread", "read", "pinned"}})), 0)
		_, resp, err := reader.GetNotification(th.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = reader.ReadNotification(th.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		changed, _, err := reader.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		is.Equal(len(changed), 0)

		// A mention in a private repository reaches no one who may not
		// read it: the watcher hears of the issue (in the same fan-out),
		// the reader gets no new row.
		_, _, err = owner.CreateIssue("powner", "secret", gitea.CreateIssueOption{Title: "again", Body: "@preader look"})
		is.NoErr(err)
		testkit.Eventually(t, "the watcher's thread", func() bool { return threadAbout(t, watcher, "again") != nil })
		is.Equal(threadRows(t, srv, "preader"), int64(1))
	})
}

// threadRows counts name's thread rows whatever their repositories,
// through the store.
func threadRows(t *testing.T, srv *testserver.Server, name string) int64 {
	t.Helper()
	ctx := t.Context()
	u, err := srv.App.DB.Stores().Users.GetByName(ctx, name)
	if err != nil {
		t.Fatalf("user %s: %v", name, err)
	}
	_, total, err := srv.App.DB.Stores().Notifications.List(ctx, ports.NotificationQuery{UserID: u.ID})
	if err != nil {
		t.Fatalf("threads of %s: %v", name, err)
	}
	return total
}

func TestNotificationPullsAndReleases(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "nalice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "nbob", gitea.VisibleTypePublic)
		pullsRepo(t, srv, alice, "app", false)
		_, err := bob.WatchRepo("nalice", "app")
		is.NoErr(err)

		// A pull request opened, then merged: the watcher's thread says so.
		pr, _, err := alice.CreatePullRequest("nalice", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "feature"})
		is.NoErr(err)
		waitUnread(t, bob, 1)
		th := threadAbout(t, bob, "feature")
		is.Equal(th.Subject.Type, gitea.NotifySubjectPull)
		is.Equal(th.Subject.State, gitea.NotifySubjectOpen)
		is.True(strings.HasSuffix(th.Subject.HTMLURL, "/nalice/app/pulls/"+itoa64(pr.Index)))
		_, _, err = bob.ReadNotification(th.ID)
		is.NoErr(err)
		pullsWait(t, srv, "nalice", "app", pr.Index)
		_, _, err = alice.MergePullRequest("nalice", "app", pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
		is.NoErr(err)
		waitUnread(t, bob, 1)
		th = threadAbout(t, bob, "feature")
		is.Equal(th.Subject.State, gitea.NotifySubjectMerged)
		pulls := threadsOf(t, bob, gitea.ListNotificationOptions{SubjectTypes: []gitea.NotifySubjectType{gitea.NotifySubjectPull}})
		is.Equal(len(pulls), 1)

		// A release published: a repository thread for the watcher.
		_, _, err = alice.CreateRelease("nalice", "app", gitea.CreateReleaseOption{TagName: "v1", Target: "main", Title: "one"})
		is.NoErr(err)
		waitUnread(t, bob, 2)
		repoThreads := threadsOf(t, bob, gitea.ListNotificationOptions{SubjectTypes: []gitea.NotifySubjectType{gitea.NotifySubjectRepository}})
		is.Equal(len(repoThreads), 1)
		is.Equal(repoThreads[0].Subject.Title, "nalice/app")
		is.True(strings.HasSuffix(repoThreads[0].Subject.HTMLURL, "/nalice/app"))
		n, _, err := alice.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(0))
	})
}

func TestNotificationMutesAndAssignments(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		_, err := w.stranger.WatchRepo("exowner", "r")
		is.NoErr(err)
		_, err = w.writer.UnWatchRepo("exowner", "r")
		is.NoErr(err)
		w.issue(t, w.owner, "quiet")
		waitUnread(t, w.stranger, 1)
		_, _, err = w.stranger.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)

		// The watcher mutes the issue: a comment that mentions another user
		// reaches that user, not the watcher.
		_, err = w.stranger.IssueUnSubscribe("exowner", "r", 1)
		is.NoErr(err)
		_, _, err = w.owner.CreateIssueComment("exowner", "r", 1, gitea.CreateIssueCommentOption{Body: "@exwriter have a look"})
		is.NoErr(err)
		waitUnread(t, w.writer, 1)
		n, _, err := w.stranger.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(0))

		// A mention reaches a user who muted the issue.
		_, _, err = w.owner.CreateIssueComment("exowner", "r", 1, gitea.CreateIssueCommentOption{Body: "@exstranger you too"})
		is.NoErr(err)
		waitUnread(t, w.stranger, 1)

		// An assignment reaches the assignee.
		_, _, err = w.writer.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		waitUnread(t, w.writer, 0)
		_, _, err = w.owner.EditIssue("exowner", "r", 1, gitea.EditIssueOption{Assignees: []string{"exwriter"}})
		is.NoErr(err)
		waitUnread(t, w.writer, 1)
		is.True(threadAbout(t, w.writer, "quiet").Unread)
	})
}

// TestNotificationMentionsAddedByEdits checks that editing an issue's body
// or a comment tells the users it newly mentions who may read the issue,
// and no one it mentioned before.
func TestNotificationMentionsAddedByEdits(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, owner := newAccount(t, srv, "mowner", gitea.VisibleTypePublic)
		_, reader := newAccount(t, srv, "mreader", gitea.VisibleTypePublic)
		_, friend := newAccount(t, srv, "mfriend", gitea.VisibleTypePublic)
		newAccount(t, srv, "moutsider", gitea.VisibleTypePublic)
		createRepo(t, owner, gitea.CreateRepoOption{Name: "m", Private: true})
		perm := gitea.AccessModeRead
		for _, c := range []struct {
			name   string
			client *gitea.Client
		}{{"mreader", reader}, {"mfriend", friend}} {
			_, err := owner.AddCollaborator("mowner", "m", c.name, gitea.AddCollaboratorOption{Permission: &perm})
			is.NoErr(err)
			_, err = c.client.UnWatchRepo("mowner", "m")
			is.NoErr(err)
		}

		// The issue mentions the reader, who reads the thread.
		_, _, err := owner.CreateIssue("mowner", "m", gitea.CreateIssueOption{Title: "plan", Body: "hi @mreader"})
		is.NoErr(err)
		waitUnread(t, reader, 1)
		_, _, err = reader.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		waitUnread(t, reader, 0)

		// The body edited to mention two more: the friend hears of it; the
		// outsider may not read the repository and gets no row; the reader,
		// mentioned before, is not told again (the same fan-out decides
		// all three).
		body := "hi @mreader, @MFriend and @moutsider"
		_, _, err = owner.EditIssue("mowner", "m", 1, gitea.EditIssueOption{Body: &body})
		is.NoErr(err)
		waitUnread(t, friend, 1)
		is.True(threadAbout(t, friend, "plan").Unread)
		n, _, err := reader.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(0))
		is.Equal(threadRows(t, srv, "moutsider"), int64(0))
		_, _, err = friend.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		waitUnread(t, friend, 0)

		// A comment mentions the friend; edited, it mentions the reader
		// too: the reader's thread points at the comment, the friend is
		// not told twice.
		c, _, err := owner.CreateIssueComment("mowner", "m", 1, gitea.CreateIssueCommentOption{Body: "cc @mfriend"})
		is.NoErr(err)
		waitUnread(t, friend, 1)
		_, _, err = friend.ReadNotifications(gitea.MarkNotificationOptions{})
		is.NoErr(err)
		waitUnread(t, friend, 0)
		_, _, err = owner.EditIssueComment("mowner", "m", c.ID, gitea.EditIssueCommentOption{Body: "cc @mfriend @mreader @moutsider"})
		is.NoErr(err)
		waitUnread(t, reader, 1)
		th := threadAbout(t, reader, "plan")
		is.True(th.Unread)
		is.True(strings.HasSuffix(th.Subject.LatestCommentURL, "/api/v1/repos/mowner/m/issues/comments/"+itoa64(c.ID)))
		n, _, err = friend.CheckNotifications()
		is.NoErr(err)
		is.Equal(n, int64(0))
		is.Equal(threadRows(t, srv, "moutsider"), int64(0))
	})
}

// TestNotificationCommitMentions checks Gitea's commit threads: a pushed
// commit whose message mentions a user who may read the code gives that
// user a thread about the commit; a mentioned user who may not read the
// repository gets none.
func TestNotificationCommitMentions(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, owner := newAccount(t, srv, "cowner", gitea.VisibleTypePublic)
		_, reader := newAccount(t, srv, "creader", gitea.VisibleTypePublic)
		newAccount(t, srv, "coutsider", gitea.VisibleTypePublic)
		createRepo(t, owner, gitea.CreateRepoOption{Name: "code", Private: true, AutoInit: true})
		perm := gitea.AccessModeRead
		_, err := owner.AddCollaborator("cowner", "code", "creader", gitea.AddCollaboratorOption{Permission: &perm})
		is.NoErr(err)

		work := httpGitClone(t, httpGitURL(srv, "cowner", "code", "cowner", userPassword))
		plain := httpGitCommit(t, work, "a.txt", "a\n", "no one named")
		named := httpGitCommit(t, work, "b.txt", "b\n", "fix the build\n\ncc @creader @coutsider @nobody")
		httpGitOK(t, work, "push", "-q", "origin", "HEAD:main")

		waitUnread(t, reader, 1)
		list := threadsOf(t, reader, gitea.ListNotificationOptions{SubjectTypes: []gitea.NotifySubjectType{gitea.NotifySubjectCommit}})
		is.Equal(len(list), 1)
		th := list[0]
		is.Equal(th.Subject.Type, gitea.NotifySubjectCommit)
		is.Equal(th.Subject.Title, named)
		is.True(th.Subject.Title != plain)
		is.True(strings.HasSuffix(th.Subject.HTMLURL, "/cowner/code/commit/"+named))
		is.Equal(th.Subject.URL, th.Subject.HTMLURL)
		is.Equal(th.Repository.FullName, "cowner/code")
		is.True(th.Unread)
		is.Equal(threadRows(t, srv, "coutsider"), int64(0))
		is.Equal(threadRows(t, srv, "cowner"), int64(0))

		// A new branch with the commit again tells the reader again, on
		// the same thread.
		_, _, err = reader.ReadNotification(th.ID)
		is.NoErr(err)
		waitUnread(t, reader, 0)
		httpGitOK(t, work, "push", "-q", "origin", "HEAD:refs/heads/copy")
		waitUnread(t, reader, 1)
		is.Equal(threadRows(t, srv, "creader"), int64(1))
	})
}
