package test

import (
	"fmt"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestDueDatesOutsideShownYears: a due date of a new milestone or issue
// whose UTC time falls outside the years 1 to 9999 (RFC 3339, and so the
// API's JSON, has no later years; Postgres has no year 0) is a 422 naming
// the field, and nothing is created; so is an issue deadline set by an
// edit or the deadline route (the end of the date's day). Found with the
// request body fuzz targets' encoding property; before, these answered 500.
func TestDueDatesOutsideShownYears(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		h := basicAs("alice")
		count := func(t *testing.T) (milestones, issues int) {
			t.Helper()
			ms, _, err := alice.ListRepoMilestones("alice", "tools", gitea.ListMilestoneOption{State: gitea.StateAll})
			if err != nil {
				t.Fatal(err)
			}
			is, _, err := alice.ListRepoIssues("alice", "tools", gitea.ListIssueOption{State: gitea.StateAll})
			if err != nil {
				t.Fatal(err)
			}
			return len(ms), len(is)
		}
		r := srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "kept"}, h...)
		if r.Status != http.StatusCreated {
			t.Fatalf("creating an issue: %d %s", r.Status, r.Body)
		}
		var kept gitea.Issue
		r.Decode(t, &kept)
		for _, due := range []string{"0000-01-01T00:00:00+01:00", "0000-06-01T00:00:00Z", "9999-12-31T23:30:00-01:00"} {
			t.Run(due, func(t *testing.T) {
				is := is.New(t)
				ms, iss := count(t)
				assertInvalid(t, srv.Do("POST", "/repos/alice/tools/milestones", map[string]any{"title": "m", "due_on": due}, h...), "DueOn")
				assertInvalid(t, srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "i", "due_date": due}, h...), "Deadline")
				ms2, iss2 := count(t)
				is.Equal(ms2, ms)
				is.Equal(iss2, iss)
				if due[:4] == "0000" { // an edit keeps the day, 0000-…
					assertInvalid(t, srv.Do("PATCH", fmt.Sprintf("/repos/alice/tools/issues/%d", kept.Index),
						map[string]any{"due_date": due}, h...), "Deadline")
					assertInvalid(t, srv.Do("POST", fmt.Sprintf("/repos/alice/tools/issues/%d/deadline", kept.Index),
						map[string]any{"due_date": due}, h...), "DueDate")
					assertInvalid(t, srv.Do("POST", fmt.Sprintf("/repos/alice/tools/issues/%d/deadline", kept.Index),
						map[string]any{"due_date": due[:10]}, h...), "DueDate")
				}
			})
		}
		// The edges themselves are fine.
		is := is.New(t)
		for _, due := range []string{"0001-01-02T00:00:00Z", "9999-12-31T23:59:59Z"} {
			r = srv.Do("POST", "/repos/alice/tools/milestones", map[string]any{"title": "edge " + due, "due_on": due}, h...)
			is.Equal(r.Status, http.StatusCreated)
			r = srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "edge", "due_date": due}, h...)
			is.Equal(r.Status, http.StatusCreated)
		}
	})
}
