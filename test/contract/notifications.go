package contract

import (
	"cmp"
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var notificationTests = map[string]func(t *testing.T, f *fixture){
	"NotifyUpsertsOnePerSubject": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r := f.repo(alice, "proj")
		is.NoErr(f.Notifications.Notify(f.ctx, []notification.Thread{
			{UserID: bob.ID, RepoID: r.ID, Subject: notification.SubjectIssue, IssueID: 7, UpdatedBy: alice.ID, Created: at(1), Updated: at(1)},
			{UserID: alice.ID, RepoID: r.ID, Subject: notification.SubjectCommit, CommitID: "abc", Created: at(2), Updated: at(2)},
		}))
		list, total, err := f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID})
		is.NoErr(err)
		is.Equal(total, int64(1))
		th := list[0]
		is.Equal(th.Status, notification.StatusUnread)
		is.Equal(th.Subject, notification.SubjectIssue)
		is.Equal(th.Updated, at(1))

		// Read, then notified again: unread again with the new comment.
		is.NoErr(f.Notifications.SetStatus(f.ctx, th.ID, notification.StatusRead, at(3)))
		is.NoErr(f.Notifications.Notify(f.ctx, []notification.Thread{
			{UserID: bob.ID, RepoID: r.ID, Subject: notification.SubjectIssue, IssueID: 7, CommentID: 9, UpdatedBy: alice.ID, Created: at(4), Updated: at(4)},
		}))
		got, err := f.Notifications.Get(f.ctx, th.ID)
		is.NoErr(err)
		is.Equal(got.Status, notification.StatusUnread)
		is.Equal(got.CommentID, int64(9))
		is.Equal(got.Updated, at(4))
		is.Equal(got.Created, at(1))

		// A pinned thread stays pinned.
		is.NoErr(f.Notifications.SetStatus(f.ctx, th.ID, notification.StatusPinned, at(5)))
		is.NoErr(f.Notifications.Notify(f.ctx, []notification.Thread{
			{UserID: bob.ID, RepoID: r.ID, Subject: notification.SubjectIssue, IssueID: 7, Created: at(6), Updated: at(6)},
		}))
		got, err = f.Notifications.Get(f.ctx, th.ID)
		is.NoErr(err)
		is.Equal(got.Status, notification.StatusPinned)

		n, err := f.Notifications.CountUnread(f.ctx, ports.NotificationQuery{UserID: alice.ID})
		is.NoErr(err)
		is.Equal(n, int64(1))

		_, err = f.Notifications.Get(f.ctx, th.ID+100)
		isCategory(is, err, errs.ErrNotFound, "notification thread does not exist")
		isCategory(is, f.Notifications.SetStatus(f.ctx, th.ID+100, notification.StatusRead, at(7)), errs.ErrNotFound, "notification thread does not exist")
	},
	"ListFiltersAndMarkAll": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r1, r2 := f.repo(alice, "one"), f.repo(alice, "two")
		is.NoErr(f.Notifications.Notify(f.ctx, []notification.Thread{
			{UserID: bob.ID, RepoID: r1.ID, Subject: notification.SubjectIssue, IssueID: 1, Created: at(1), Updated: at(1)},
			{UserID: bob.ID, RepoID: r1.ID, Subject: notification.SubjectPull, IssueID: 2, Created: at(2), Updated: at(2)},
			{UserID: bob.ID, RepoID: r2.ID, Subject: notification.SubjectIssue, IssueID: 3, Created: at(3), Updated: at(3)},
		}))
		all, total, err := f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 2}})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(len(all), 2)
		is.Equal(all[0].IssueID, int64(3)) // newest first

		pulls, _, err := f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID, Subjects: []notification.SubjectType{notification.SubjectPull}})
		is.NoErr(err)
		is.Equal(len(pulls), 1)
		since, _, err := f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID, Since: at(2), Before: at(2)})
		is.NoErr(err)
		is.Equal(len(since), 1)
		is.Equal(since[0].IssueID, int64(2))

		ids, err := f.Notifications.MarkAll(f.ctx, ports.NotificationQuery{UserID: bob.ID, RepoID: r1.ID,
			Statuses: []notification.Status{notification.StatusUnread}}, notification.StatusRead, at(9))
		is.NoErr(err)
		is.Equal(len(ids), 2)
		unread, _, err := f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID, Statuses: []notification.Status{notification.StatusUnread}})
		is.NoErr(err)
		is.Equal(len(unread), 1)
		is.Equal(unread[0].RepoID, r2.ID)
		again, err := f.Notifications.MarkAll(f.ctx, ports.NotificationQuery{UserID: bob.ID, RepoID: r1.ID,
			Statuses: []notification.Status{notification.StatusUnread}}, notification.StatusRead, at(9))
		is.NoErr(err)
		is.Equal(len(again), 0)
	},
	"ViewerHidesUnreadableRepositories": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		open := f.repo(alice, "open")
		hidden := f.repo(alice, "hidden", func(r *repository.Repository) { r.Private = true })
		is.NoErr(f.Notifications.Notify(f.ctx, []notification.Thread{
			{UserID: bob.ID, RepoID: open.ID, Subject: notification.SubjectIssue, IssueID: 1, Created: at(1), Updated: at(1)},
			{UserID: bob.ID, RepoID: hidden.ID, Subject: notification.SubjectIssue, IssueID: 2, Created: at(2), Updated: at(2)},
		}))
		q := ports.NotificationQuery{UserID: bob.ID, Viewer: &ports.RepoViewer{UserID: bob.ID}}
		list, total, err := f.Notifications.List(f.ctx, q)
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(list[0].RepoID, open.ID)
		n, err := f.Notifications.CountUnread(f.ctx, q)
		is.NoErr(err)
		is.Equal(n, int64(1))

		// The two steps of the count apart: per repository from the index,
		// then the viewer's repositories summed.
		perRepo, err := f.Notifications.UnreadPerRepo(f.ctx, bob.ID)
		is.NoErr(err)
		slices.SortFunc(perRepo, func(a, b ports.RepoUnread) int { return cmp.Compare(a.RepoID, b.RepoID) })
		is.Equal(perRepo, []ports.RepoUnread{{RepoID: open.ID, N: 1}, {RepoID: hidden.ID, N: 1}})
		n, err = f.Notifications.CountVisible(f.ctx, ports.RepoViewer{UserID: bob.ID}, perRepo)
		is.NoErr(err)
		is.Equal(n, int64(1))
		n, err = f.Notifications.CountVisible(f.ctx, ports.RepoViewer{UserID: alice.ID}, perRepo)
		is.NoErr(err)
		is.Equal(n, int64(2))
		ids, err := f.Notifications.MarkAll(f.ctx, q, notification.StatusRead, at(3))
		is.NoErr(err)
		is.Equal(len(ids), 1)

		// Without a viewer, and for a site administrator, both show.
		_, total, err = f.Notifications.List(f.ctx, ports.NotificationQuery{UserID: bob.ID})
		is.NoErr(err)
		is.Equal(total, int64(2))
		n, err = f.Notifications.CountUnread(f.ctx, ports.NotificationQuery{UserID: bob.ID, Viewer: &ports.RepoViewer{UserID: bob.ID, IsAdmin: true}})
		is.NoErr(err)
		is.Equal(n, int64(1))
	},
}
