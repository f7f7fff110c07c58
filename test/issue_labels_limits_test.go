package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestIssueLabelsCountCap checks the bound on the labels one request may
// name: past 100 (ids or names, repeated or not) the add, replace and
// create routes answer 422 naming labels and change nothing; at 100 they
// work, repeats counting once on the issue. Listings take at most 100
// distinct label or milestone names (400 past it).
func TestIssueLabelsCountCap(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		bug := createLabel(t, srv, basicAs("alice"), "/repos/alice/tools/labels", map[string]any{"name": "bug", "color": "#00aabb"})
		issue, _, err := alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "labelled"})
		is.NoErr(err)
		path := "/repos/alice/tools/issues/1/labels"
		ids := func(n int) []int64 {
			out := make([]int64, n)
			for i := range out {
				out[i] = bug.ID
			}
			return out
		}
		names := func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = "bug"
			}
			return out
		}
		const msg = "labels: at most 100 labels may be given, got 101"
		for _, method := range []string{"POST", "PUT"} {
			assertAPIError(t, srv.Do(method, path, map[string]any{"labels": ids(101)}, basicAs("alice")...), http.StatusUnprocessableEntity, msg)
			assertAPIError(t, srv.Do(method, path, map[string]any{"labels": names(101)}, basicAs("alice")...), http.StatusUnprocessableEntity, msg)
		}
		labels, _, err := alice.GetIssueLabels("alice", "tools", issue.Index, gitea.ListLabelsOptions{})
		is.NoErr(err)
		is.Equal(len(labels), 0) // nothing changed

		r := srv.Do("PUT", path, map[string]any{"labels": ids(100)}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var got []*gitea.Label
		r.Decode(t, &got)
		is.Equal(labelNames(got), []string{"bug"})
		r = srv.Do("POST", path, map[string]any{"labels": names(100)}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &got)
		is.Equal(labelNames(got), []string{"bug"})

		// Listings filter by at most 100 distinct label or milestone names
		// (each is a condition every issue is tested against); repeats count once.
		distinct := make([]string, 101)
		for i := range distinct {
			distinct[i] = fmt.Sprintf("l%d", i)
		}
		for _, p := range []string{"/repos/alice/tools/issues", "/repos/issues/search"} {
			for _, param := range []string{"labels", "milestones"} {
				r = srv.Do("GET", p+"?"+param+"="+strings.Join(distinct, ","), nil, basicAs("alice")...)
				assertAPIError(t, r, http.StatusBadRequest, param+": at most 100 names may be given, got 101")
			}
			r = srv.Do("GET", p+"?labels="+strings.Repeat("bug,", 10000)+"bug", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			var listed []*gitea.Issue
			r.Decode(t, &listed)
			is.Equal(len(listed), 1)
			is.Equal(listed[0].Index, issue.Index)
		}

		// Creating an issue with too many labels creates nothing.
		r = srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "many", "labels": ids(101)}, basicAs("alice")...)
		assertAPIError(t, r, http.StatusUnprocessableEntity, msg)
		r = srv.Do("GET", "/repos/alice/tools/issues/2", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNotFound)
	})
}
