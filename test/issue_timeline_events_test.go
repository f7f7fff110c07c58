package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestIssueTimelineEvents checks the events that time tracking, deadlines,
// dependencies, pins and locks
// leaves on the issues' timelines, in Gitea's type names.
func TestIssueTimelineEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		w.issue(t, w.owner, "one")
		w.issue(t, w.owner, "two")
		do := func(method, path string, body any, status int) {
			t.Helper()
			wantStatus(t, w.srv.Do(method, trackerRepo+path, body, basicAs("exowner")...), status)
		}
		do("POST", "/issues/1/times", map[string]any{"time": 90}, http.StatusOK)
		do("DELETE", "/issues/1/times", nil, http.StatusNoContent)
		do("POST", "/issues/1/stopwatch/start", nil, http.StatusCreated)
		do("POST", "/issues/1/stopwatch/stop", nil, http.StatusCreated)
		do("POST", "/issues/1/stopwatch/start", nil, http.StatusCreated)
		do("DELETE", "/issues/1/stopwatch/delete", nil, http.StatusNoContent)
		do("POST", "/issues/1/deadline", map[string]any{"due_date": "2024-01-02"}, http.StatusCreated)
		do("POST", "/issues/1/deadline", map[string]any{"due_date": "2024-01-02T12:00:00Z"}, http.StatusCreated) // same day: no event
		do("POST", "/issues/1/deadline", map[string]any{"due_date": "2024-02-03"}, http.StatusCreated)
		do("POST", "/issues/1/deadline", map[string]any{}, http.StatusCreated)
		do("POST", "/issues/1/dependencies", map[string]any{"index": 2}, http.StatusCreated)
		do("DELETE", "/issues/1/dependencies", map[string]any{"index": 2}, http.StatusOK)
		do("PUT", "/issues/1/lock", map[string]any{"lock_reason": "Resolved"}, http.StatusNoContent)
		do("DELETE", "/issues/1/lock", nil, http.StatusNoContent)
		do("POST", "/issues/1/pin", nil, http.StatusNoContent)
		do("DELETE", "/issues/1/pin", nil, http.StatusNoContent)

		events, _, err := w.owner.ListIssueTimeline("exowner", "r", 1, gitea.ListIssueCommentOptions{})
		is.NoErr(err)
		var types []string
		for _, e := range events {
			types = append(types, e.Type)
		}
		is.Equal(types, []string{
			"add_time_manual", "delete_time_manual", "start_tracking", "stop_tracking", "start_tracking", "cancel_tracking",
			"added_deadline", "modified_deadline", "removed_deadline", "add_dependency", "remove_dependency",
			"lock", "unlock", "pin", "unpin",
		})
		other, _, err := w.owner.ListIssueTimeline("exowner", "r", 2, gitea.ListIssueCommentOptions{})
		is.NoErr(err)
		is.Equal(len(other), 2) // the dependency events show on both issues
		is.Equal(other[0].Type, "add_dependency")
	})
}
