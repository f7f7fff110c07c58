package test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func msTitles(list []*gitea.Milestone) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = m.Title
	}
	return out
}

func TestIssueMilestonesCRUD(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "rita", gitea.VisibleTypePublic)
		newAccount(t, srv, "stranger", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		read := gitea.AccessModeRead
		if _, err := alice.AddCollaborator("alice", "tools", "rita", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
			t.Fatal(err)
		}
		const base = "/repos/alice/tools/milestones"
		due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

		t.Run("create, get, list", func(t *testing.T) {
			is := is.New(t)
			v1, _, err := alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "v1.0",
				Description: "first", Deadline: &due})
			is.NoErr(err)
			is.Equal(v1.Title, "v1.0")
			is.Equal(v1.Description, "first")
			is.Equal(v1.State, gitea.StateOpen)
			is.True(v1.Deadline != nil && v1.Deadline.Equal(due))
			is.Equal(v1.Closed, nil)
			is.Equal(v1.OpenIssues+v1.ClosedIssues, 0)
			is.True(!v1.Created.IsZero() && v1.Updated != nil)

			later := due.Add(24 * time.Hour)
			_, _, err = alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "v2.0", Deadline: &later})
			is.NoErr(err)
			_, _, err = alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "someday"})
			is.NoErr(err)
			r := srv.Do("POST", base, map[string]any{"title": "old", "state": "closed"}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusCreated)
			var old gitea.Milestone
			r.Decode(t, &old)
			is.Equal(old.State, gitea.StateClosed)
			is.True(old.Closed != nil)
			is.Equal(old.Deadline, nil) // no due date is answered as none

			got, _, err := srv.Client().GetMilestone("alice", "tools", v1.ID)
			is.NoErr(err)
			is.Equal(got.Title, "v1.0")
			// By title too, as Gitea answers it.
			byName, _, err := srv.Client().GetMilestoneByName("alice", "tools", "v2.0")
			is.NoErr(err)
			is.Equal(byName.Title, "v2.0")

			// Open ones by default, by due date with undated last.
			anon := srv.Client()
			list, resp, err := anon.ListRepoMilestones("alice", "tools", gitea.ListMilestoneOption{})
			is.NoErr(err)
			is.Equal(msTitles(list), []string{"v1.0", "v2.0", "someday"})
			is.Equal(resp.Header.Get("X-Total-Count"), "3")
			list, _, err = anon.ListRepoMilestones("alice", "tools", gitea.ListMilestoneOption{State: gitea.StateClosed})
			is.NoErr(err)
			is.Equal(msTitles(list), []string{"old"})
			list, resp, err = anon.ListRepoMilestones("alice", "tools", gitea.ListMilestoneOption{State: gitea.StateAll,
				ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
			is.NoErr(err)
			is.Equal(msTitles(list), []string{"old"})
			is.Equal(resp.Header.Get("X-Total-Count"), "4")
			is.True(resp.Header.Get("Link") != "")
			list, _, err = anon.ListRepoMilestones("alice", "tools", gitea.ListMilestoneOption{State: gitea.StateAll, Name: "V2"})
			is.NoErr(err)
			is.Equal(msTitles(list), []string{"v2.0"})
		})

		t.Run("state transitions and edits", func(t *testing.T) {
			is := is.New(t)
			m, _, err := alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "cycle"})
			is.NoErr(err)
			closed := gitea.StateClosed
			got, _, err := alice.EditMilestone("alice", "tools", m.ID, gitea.EditMilestoneOption{State: &closed})
			is.NoErr(err)
			is.Equal(got.State, gitea.StateClosed)
			is.True(got.Closed != nil)
			is.Equal(got.Title, "cycle") // an empty title keeps it

			open := gitea.StateOpen
			desc := "reopened"
			got, _, err = alice.EditMilestone("alice", "tools", m.ID, gitea.EditMilestoneOption{State: &open,
				Description: &desc, Title: "cycle 2", Deadline: &due})
			is.NoErr(err)
			is.Equal(got.State, gitea.StateOpen)
			is.Equal(got.Closed, nil)
			is.Equal(got.Title, "cycle 2")
			is.Equal(got.Description, "reopened")
			is.True(got.Deadline != nil && got.Deadline.Equal(due))

			// PATCH by title.
			r := srv.Do("PATCH", base+"/"+url.PathEscape("cycle 2"), map[string]any{"state": "closed"}, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			r.Decode(t, got)
			is.Equal(got.State, gitea.StateClosed)

			_, err = alice.DeleteMilestone("alice", "tools", m.ID)
			is.NoErr(err)
			assertAPIError(t, srv.Do("GET", fmt.Sprintf("%s/%d", base, m.ID), nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("%s/%d", base, m.ID), nil, basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("PATCH", base+"/nothing-here", map[string]any{"title": "x"}, basicAs("alice")...), http.StatusNotFound, "")
		})

		t.Run("invalid bodies", func(t *testing.T) {
			assertInvalid(t, srv.Do("POST", base, map[string]any{"description": "no title"}, basicAs("alice")...), "Title")
			assertInvalid(t, srv.Do("POST", base, map[string]any{"title": "  "}, basicAs("alice")...), "Title")
			assertInvalid(t, srv.Do("POST", base, map[string]any{"title": "x", "due_on": "next week"}, basicAs("alice")...), "DueOn")
			assertInvalid(t, srv.Do("POST", base, map[string]any{"title": "x", "due_on": 5}, basicAs("alice")...), "DueOn")
			assertInvalid(t, srv.Do("POST", base, map[string]any{"title": "x", "state": "done"}, basicAs("alice")...), "State")
			m, _, err := alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "valid"})
			is.New(t).NoErr(err)
			path := fmt.Sprintf("%s/%d", base, m.ID)
			assertInvalid(t, srv.Do("PATCH", path, map[string]any{"due_on": "2030-13-45"}, basicAs("alice")...), "DueOn")
			assertInvalid(t, srv.Do("PATCH", path, map[string]any{"state": "archived"}, basicAs("alice")...), "State")
			assertAPIError(t, srv.Do("POST", base, "{", basicAs("alice")...), http.StatusBadRequest, "")
		})

		t.Run("access", func(t *testing.T) {
			body := map[string]any{"title": "x"}
			assertAPIError(t, srv.Do("POST", base, body), http.StatusUnauthorized, lblMsgToken)
			assertAPIError(t, srv.Do("POST", base, body, basicAs("stranger")...), http.StatusForbidden, lblMsgWriter)
			assertAPIError(t, srv.Do("POST", base, body, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			m, _, err := alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "guarded"})
			is.New(t).NoErr(err)
			path := fmt.Sprintf("%s/%d", base, m.ID)
			assertAPIError(t, srv.Do("PATCH", path, body, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			assertAPIError(t, srv.Do("DELETE", path, nil, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			is.New(t).Equal(srv.Do("GET", path, nil, basicAs("rita")...).Status, http.StatusOK)

			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/milestones", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/milestones", nil, basicAs("stranger")...), http.StatusNotFound, "")
			is.New(t).Equal(srv.Do("GET", "/repos/alice/secret/milestones", nil, basicAs("alice")...).Status, http.StatusOK)
			assertAPIError(t, srv.Do("GET", "/repos/alice/absent/milestones", nil), http.StatusNotFound, "")
		})
	})
}

func TestIssueMilestonesCounts(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		m, _, err := alice.CreateMilestone("alice", "tools", gitea.CreateMilestoneOption{Title: "v1"})
		is.NoErr(err)
		counts := func() (int, int) {
			t.Helper()
			got, _, err := alice.GetMilestone("alice", "tools", m.ID)
			if err != nil {
				t.Fatalf("get milestone: %v", err)
			}
			return got.OpenIssues, got.ClosedIssues
		}

		first, _, err := alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "one", Milestone: m.ID})
		is.NoErr(err)
		_, _, err = alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "two", Milestone: m.ID, Closed: true})
		is.NoErr(err)
		open, closed := counts()
		is.Equal([]int{open, closed}, []int{1, 1})

		done := gitea.StateClosed
		_, _, err = alice.EditIssue("alice", "tools", first.Index, gitea.EditIssueOption{State: &done})
		is.NoErr(err)
		open, closed = counts()
		is.Equal([]int{open, closed}, []int{0, 2})

		// Closing and reopening the milestone keeps its counts.
		_, _, err = alice.EditMilestone("alice", "tools", m.ID, gitea.EditMilestoneOption{State: &done})
		is.NoErr(err)
		reopen := gitea.StateOpen
		got, _, err := alice.EditMilestone("alice", "tools", m.ID, gitea.EditMilestoneOption{State: &reopen})
		is.NoErr(err)
		is.Equal([]int{got.OpenIssues, got.ClosedIssues}, []int{0, 2})

		// Deleting the milestone takes it off its issues.
		_, err = alice.DeleteMilestone("alice", "tools", m.ID)
		is.NoErr(err)
		back, _, err := alice.GetIssue("alice", "tools", first.Index)
		is.NoErr(err)
		is.Equal(back.Milestone, nil)
	})
}
