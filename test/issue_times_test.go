package test

import (
	"net/http"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func TestIssueTimes(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		one := w.issue(t, w.owner, "one")
		mine := w.issue(t, w.stranger, "stranger's own")

		t.Run("add, list, filter", func(t *testing.T) {
			is := is.New(t)
			tt, _, err := w.owner.AddTime("exowner", "r", one.Index, gitea.AddTimeOption{Time: 3600})
			is.NoErr(err)
			is.Equal(tt.Time, int64(3600))
			is.Equal(tt.UserName, "exowner")
			is.Equal(tt.IssueID, one.ID)
			is.True(tt.Issue != nil)
			is.Equal(tt.Issue.Index, one.Index)

			// A site admin books time for someone else.
			created := time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC)
			tt, _, err = w.admin.AddTime("exowner", "r", one.Index, gitea.AddTimeOption{Time: 60, User: "exwriter", Created: created})
			is.NoErr(err)
			is.Equal(tt.UserName, "exwriter")
			is.True(tt.Created.Equal(created))

			list, resp, err := w.owner.ListIssueTrackedTimes("exowner", "r", one.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(list), 2)
			is.Equal(resp.Header.Get("X-Total-Count"), "2")

			// Outsiders see only their own times and may not ask for others'.
			list, _, err = w.stranger.ListIssueTrackedTimes("exowner", "r", one.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(list), 0)
			r := w.srv.Do("GET", trackerRepo+"/issues/1/times?user=exowner", nil, basicAs("exstranger")...)
			wantStatus(t, r, http.StatusForbidden)

			list, _, err = w.owner.ListRepoTrackedTimes("exowner", "r", gitea.ListTrackedTimesOptions{User: "exwriter"})
			is.NoErr(err)
			is.Equal(len(list), 1)
			list, _, err = w.owner.ListRepoTrackedTimes("exowner", "r", gitea.ListTrackedTimesOptions{Before: created.Add(time.Second)})
			is.NoErr(err)
			is.Equal(len(list), 1)
			r = w.srv.Do("GET", trackerRepo+"/times?since=yesterday", nil, basicAs("exowner")...)
			assertAPIError(t, r, http.StatusBadRequest, "since: must be an RFC 3339 date and time")

			var byUser []gitea.TrackedTime
			r = w.srv.Do("GET", trackerRepo+"/times/exwriter", nil, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusOK)
			r.Decode(t, &byUser)
			is.Equal(len(byUser), 1)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/times/exwriter", nil, basicAs("exstranger")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/times/nobody", nil, basicAs("exowner")...), http.StatusNotFound)

			my, _, err := w.writer.ListMyTrackedTimes(gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(my), 1)
			is.Equal(my[0].Time, int64(60))
		})

		t.Run("who may track", func(t *testing.T) {
			// Only contributors (the default): a stranger may not track on
			// someone else's issue, but may on the issue they opened.
			r := w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 5}, basicAs("exstranger")...)
			wantStatus(t, r, http.StatusForbidden)
			r = w.srv.Do("POST", trackerRepo+"/issues/2/times", map[string]any{"time": 5}, basicAs("exstranger")...)
			wantStatus(t, r, http.StatusOK)
			// A non-admin's user_name is ignored: the time is the caller's.
			var tt gitea.TrackedTime
			r = w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 7, "user_name": "exowner"}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusOK)
			r.Decode(t, &tt)
			if tt.UserName != "exwriter" {
				t.Fatalf("booked for %q", tt.UserName)
			}
			assertInvalid(t, w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 0}, basicAs("exowner")...), "Time")
			assertAPIError(t, w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 1}), http.StatusUnauthorized, "")
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/99/times", map[string]any{"time": 1}, basicAs("exowner")...), http.StatusNotFound)
		})

		t.Run("delete and reset", func(t *testing.T) {
			is := is.New(t)
			list, _, err := w.owner.ListIssueTrackedTimes("exowner", "r", one.Index, gitea.ListTrackedTimesOptions{User: "exowner"})
			is.NoErr(err)
			is.Equal(len(list), 1)
			// Only the time's user (or a site admin) deletes it.
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/times/"+itoa64(list[0].ID), nil, basicAs("exwriter")...), http.StatusForbidden)
			_, err = w.owner.DeleteTime("exowner", "r", one.Index, list[0].ID)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/times/"+itoa64(list[0].ID), nil, basicAs("exowner")...), http.StatusNotFound)
			// Another issue's time is not found through this issue.
			theirs, _, err := w.stranger.ListIssueTrackedTimes("exowner", "r", mine.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/times/"+itoa64(theirs[0].ID), nil, adminHeader(w.srv)...), http.StatusNotFound)

			_, err = w.writer.ResetIssueTime("exowner", "r", one.Index)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/times", nil, basicAs("exwriter")...), http.StatusNotFound)
			list, _, err = w.owner.ListIssueTrackedTimes("exowner", "r", one.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(list), 0)
		})

		t.Run("stopwatch", func(t *testing.T) {
			is := is.New(t)
			two := w.issue(t, w.owner, "two")
			_, err := w.writer.StartIssueStopWatch("exowner", "r", one.Index)
			is.NoErr(err)
			r := w.srv.Do("POST", trackerRepo+"/issues/1/stopwatch/start", nil, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusConflict)
			sws, _, err := w.writer.ListMyStopwatches(gitea.ListStopwatchesOptions{})
			is.NoErr(err)
			is.Equal(len(sws), 1)
			is.Equal(sws[0].IssueIndex, one.Index)
			is.Equal(sws[0].RepoOwnerName, "exowner")
			is.Equal(sws[0].RepoName, "r")
			is.Equal(sws[0].IssueTitle, "one")

			// Starting on another issue stops the first and books its time.
			_, err = w.writer.StartIssueStopWatch("exowner", "r", two.Index)
			is.NoErr(err)
			sws, _, err = w.writer.ListMyStopwatches(gitea.ListStopwatchesOptions{})
			is.NoErr(err)
			is.Equal(len(sws), 1)
			is.Equal(sws[0].IssueIndex, two.Index)
			times, _, err := w.writer.ListIssueTrackedTimes("exowner", "r", one.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(times), 1)

			r = w.srv.Do("POST", trackerRepo+"/issues/"+itoa64(two.Index)+"/stopwatch/stop", nil, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusCreated)
			r = w.srv.Do("POST", trackerRepo+"/issues/"+itoa64(two.Index)+"/stopwatch/stop", nil, basicAs("exwriter")...)
			assertAPIError(t, r, http.StatusConflict, "cannot stop/cancel a non existent stopwatch")
			times, _, err = w.writer.ListIssueTrackedTimes("exowner", "r", two.Index, gitea.ListTrackedTimesOptions{})
			is.NoErr(err)
			is.Equal(len(times), 1)

			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/stopwatch/delete", nil, basicAs("exwriter")...), http.StatusConflict)
			_, err = w.writer.StartIssueStopWatch("exowner", "r", one.Index)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/stopwatch/delete", nil, basicAs("exwriter")...), http.StatusNoContent)
			sws, _, err = w.writer.ListMyStopwatches(gitea.ListStopwatchesOptions{})
			is.NoErr(err)
			is.Equal(len(sws), 0)

			// Stopwatches are for issue writers.
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/stopwatch/start", nil, basicAs("exstranger")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/stopwatch/start", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("GET", "/user/stopwatches", nil), http.StatusUnauthorized)
		})

		t.Run("deadline", func(t *testing.T) {
			is := is.New(t)
			var d struct {
				Due *time.Time `json:"due_date"`
			}
			r := w.srv.Do("POST", trackerRepo+"/issues/1/deadline", map[string]any{"due_date": "2024-05-01T10:00:00+02:00"}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusCreated)
			r.Decode(t, &d)
			is.True(d.Due != nil)
			is.True(d.Due.Equal(time.Date(2024, 5, 1, 23, 59, 59, 0, time.UTC)))
			got, _, err := w.owner.GetIssue("exowner", "r", one.Index)
			is.NoErr(err)
			is.True(got.Deadline != nil && got.Deadline.Equal(*d.Due))

			r = w.srv.Do("POST", trackerRepo+"/issues/1/deadline", map[string]any{"due_date": "2024-06-02"}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusCreated)
			assertInvalid(t, w.srv.Do("POST", trackerRepo+"/issues/1/deadline", map[string]any{"due_date": "soon"}, basicAs("exwriter")...), "DueDate")
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/deadline", map[string]any{"due_date": "2024-06-02"}, basicAs("exstranger")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/99/deadline", map[string]any{}, basicAs("exwriter")...), http.StatusNotFound)

			r = w.srv.Do("POST", trackerRepo+"/issues/1/deadline", map[string]any{"due_date": nil}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusCreated)
			r.Decode(t, &d)
			is.True(d.Due == nil)
			got, _, err = w.owner.GetIssue("exowner", "r", one.Index)
			is.NoErr(err)
			is.True(got.Deadline == nil)
		})

		t.Run("tracker off", func(t *testing.T) {
			w.tracker(t, false, true, true)
			defer w.tracker(t, true, true, true)
			assertAPIError(t, w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 5}, basicAs("exowner")...),
				http.StatusBadRequest, "time tracking disabled")
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/issues/1/times", nil, basicAs("exowner")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/times", nil, basicAs("exowner")...), http.StatusBadRequest)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/stopwatch/start", nil, basicAs("exowner")...), http.StatusForbidden)
		})

		t.Run("anyone may track when not restricted", func(t *testing.T) {
			w.tracker(t, true, false, true)
			defer w.tracker(t, true, true, true)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/times", map[string]any{"time": 5}, basicAs("exstranger")...), http.StatusOK)
		})

		t.Run("hidden repositories and units", func(t *testing.T) {
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "private", Private: true})
			wantStatus(t, w.srv.Do("GET", "/repos/exowner/private/times", nil, basicAs("exstranger")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("POST", "/repos/exowner/private/issues/1/times", map[string]any{"time": 1}, basicAs("exstranger")...), http.StatusNotFound)
			no := false
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "noissues"})
			if _, _, err := w.owner.EditRepo("exowner", "noissues", gitea.EditRepoOption{HasIssues: &no, HasPullRequests: &no}); err != nil {
				t.Fatal(err)
			}
			wantStatus(t, w.srv.Do("GET", "/repos/exowner/noissues/times", nil, basicAs("exowner")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("GET", "/repos/exowner/noissues/issues/1/times", nil, basicAs("exowner")...), http.StatusNotFound)
		})
	})
}
