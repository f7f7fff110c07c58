package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// issueIndexes lists the numbers of issues, in order.
func issueIndexes(list []*gitea.Issue) []int64 {
	out := make([]int64, len(list))
	for i, x := range list {
		out[i] = x.Index
	}
	return out
}

func TestIssueDependencies(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		for _, title := range []string{"one", "two", "three"} {
			w.issue(t, w.owner, title)
		}
		dep := func(user string, method, path string, index int64) testserver.Response {
			return w.srv.Do(method, trackerRepo+path, map[string]any{"owner": "exowner", "repo": "r", "index": index}, basicAs(user)...)
		}

		t.Run("add and list", func(t *testing.T) {
			is := is.New(t)
			got, _, err := w.writer.CreateIssueDependency("exowner", "r", 1, gitea.IssueMeta{Index: 2})
			is.NoErr(err)
			is.Equal(got.Index, int64(1))
			var blocked gitea.Issue
			r := dep("exwriter", "POST", "/issues/3/blocks", 2)
			wantStatus(t, r, http.StatusCreated)
			r.Decode(t, &blocked)
			is.Equal(blocked.Index, int64(3)) // #2 now depends on #3

			deps, _, err := w.stranger.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(deps), []int64{2})
			blocks, _, err := w.stranger.ListIssueBlocks("exowner", "r", 3, gitea.ListIssueBlocksOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(blocks), []int64{2})
		})

		t.Run("closing waits for dependencies", func(t *testing.T) {
			is := is.New(t)
			closed, open := "closed", "open"
			// #1 depends on #2, still open: Gitea's 412, and nothing changes.
			assertAPIError(t, w.srv.Do("PATCH", trackerRepo+"/issues/1", map[string]any{"state": closed}, basicAs("exowner")...),
				http.StatusPreconditionFailed, "cannot close this issue or pull request because it still has open dependencies")
			got, _, err := w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.Equal(got.State, gitea.StateOpen)
			// Once #2 (which depends on #3) may close and does, #1 closes.
			_, _, err = w.owner.EditIssue("exowner", "r", 3, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			_, _, err = w.owner.EditIssue("exowner", "r", 2, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			got, _, err = w.owner.EditIssue("exowner", "r", 1, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			is.Equal(got.State, gitea.StateClosed)
			for _, i := range []int64{1, 2, 3} {
				_, _, err = w.owner.EditIssue("exowner", "r", i, gitea.EditIssueOption{State: (*gitea.StateType)(&open)})
				is.NoErr(err)
			}
		})

		t.Run("refusals", func(t *testing.T) {
			assertInvalid(t, dep("exwriter", "POST", "/issues/1/dependencies", 1), "Index")
			// #3 <- #2 <- #1: #3 depending on #1 would close a cycle.
			assertInvalid(t, dep("exwriter", "POST", "/issues/3/dependencies", 1), "Index")
			assertInvalid(t, dep("exwriter", "POST", "/issues/2/dependencies", 1), "Index")
			wantStatus(t, dep("exwriter", "POST", "/issues/1/dependencies", 2), http.StatusConflict)
			wantStatus(t, dep("exwriter", "POST", "/issues/1/dependencies", 99), http.StatusNotFound)
			wantStatus(t, dep("exwriter", "POST", "/issues/99/dependencies", 1), http.StatusNotFound)
			wantStatus(t, dep("exstranger", "POST", "/issues/1/dependencies", 3), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/1/dependencies", map[string]any{"index": 3}), http.StatusUnauthorized)
			// The other issue must be readable.
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "private", Private: true})
			w.openIssueIn(t, "private")
			r := w.srv.Do("POST", trackerRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusNotFound)
		})

		t.Run("across repositories", func(t *testing.T) {
			is := is.New(t)
			r := w.srv.Do("POST", trackerRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exowner")...)
			wantStatus(t, r, http.StatusCreated)
			// The writer cannot read the private repository: its issue is left out.
			deps, _, err := w.writer.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(deps), []int64{2})
			deps, _, err = w.owner.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(len(deps), 2)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exowner")...), http.StatusOK)
		})

		t.Run("remove", func(t *testing.T) {
			is := is.New(t)
			got, _, err := w.writer.RemoveIssueDependency("exowner", "r", 1, gitea.IssueMeta{Index: 2})
			is.NoErr(err)
			is.Equal(got.Index, int64(1))
			wantStatus(t, dep("exwriter", "DELETE", "/issues/1/dependencies", 2), http.StatusNotFound)
			wantStatus(t, dep("exwriter", "DELETE", "/issues/3/blocks", 2), http.StatusOK)
			deps, _, err := w.writer.ListIssueDependencies("exowner", "r", 2, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(len(deps), 0)
		})

		t.Run("dependencies off", func(t *testing.T) {
			w.tracker(t, true, true, false)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/issues/1/dependencies", nil), http.StatusNotFound)
			wantStatus(t, dep("exowner", "POST", "/issues/1/dependencies", 2), http.StatusNotFound)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/issues/1/blocks", nil), http.StatusOK)
		})
	})
}
