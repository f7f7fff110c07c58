package test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pagingRoutes are list routes of each kind of store: Git references,
// history, SQL lists of a repository, of the site and of an organisation.
// items picks the list out of a route's body (the search wraps it).
var pagingRoutes = []struct {
	path  string
	items func(body []byte) ([]json.RawMessage, error)
}{
	{"/repos/alice/paged/branches", pagingArray},
	{"/repos/alice/paged/tags", pagingArray},
	{"/repos/alice/paged/commits", pagingArray},
	{"/repos/alice/paged/commits?path=README.md", pagingArray},
	{"/repos/alice/paged/issues?state=all", pagingArray},
	{"/repos/alice/paged/labels", pagingArray},
	{"/repos/search", func(body []byte) ([]json.RawMessage, error) {
		var out struct {
			Data []json.RawMessage `json:"data"`
		}
		err := json.Unmarshal(body, &out)
		return out.Data, err
	}},
	{"/orgs/pagers/repos", pagingArray},
	{"/orgs/pagers/members", pagingArray},
	{"/users/alice/repos", pagingArray},
}

func pagingArray(body []byte) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := json.Unmarshal(body, &out)
	return out, err
}

// farPages are pages past the end of every list: at and past the ends of
// an int, and pages whose row offset overflows at a limit of 50.
var farPages = []string{"9223372036854775807", "9223372036854775808", "99999999999999999999999",
	"4294967296", "16777217", "2147483647", "4611686018427387904", "184467440737095517"}

// TestListPagingBounds asks list routes for pages and limits at and past
// the ends of an int, negative and malformed: never a 500; a page past any
// end is an empty list, also when its row offset would overflow, for
// listings paged in SQL and in Git alike (found with FuzzListOptions'
// offset property; before, the branch list panicked and Postgres refused
// the negative offset, both a 500); a negative page is the first; a
// negative limit is the default; a huge limit is the site's maximum; a
// non-numeric value is a 400 naming the parameter.
func TestListPagingBounds(t *testing.T) {
	t.Parallel()
	listPagingBounds(t)
}

// TestListPagingBoundsPostgres is TestListPagingBounds on Postgres.
func TestListPagingBoundsPostgres(t *testing.T) {
	t.Parallel()
	listPagingBounds(t, testserver.OnPostgres())
}

func listPagingBounds(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "paged"}, func(w string) {
		for _, name := range []string{"one", "two", "three"} {
			contentsWrite(t, w, "README.md", []byte(name+"\n"))
			gitRun(t, w, "commit", "-q", "-am", name)
			gitRun(t, w, "branch", "b-"+name)
			gitRun(t, w, "tag", "t-"+name)
		}
	}, "refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*")
	for _, title := range []string{"first", "second"} {
		if _, _, err := alice.CreateIssue("alice", "paged", gitea.CreateIssueOption{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"bug", "ux"} {
		if _, _, err := alice.CreateLabel("alice", "paged", gitea.CreateLabelOption{Name: name, Color: "#ee0701"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := alice.CreateOrg(gitea.CreateOrgOption{Name: "pagers", Visibility: gitea.VisibleTypePublic}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r1", "r2"} {
		if _, _, err := alice.CreateOrgRepo("pagers", gitea.CreateRepoOption{Name: name}); err != nil {
			t.Fatal(err)
		}
	}

	get := func(t *testing.T, path, query string) testserver.Response {
		t.Helper()
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		return srv.Do("GET", path+sep+query, nil, basicAs("alice")...)
	}
	for _, route := range pagingRoutes {
		t.Run(route.path, func(t *testing.T) {
			is := is.New(t)
			first := get(t, route.path, "page=1")
			is.Equal(first.Status, http.StatusOK)
			firstItems, err := route.items(first.Body)
			is.NoErr(err)
			is.True(len(firstItems) > 0) // the fixture fills every list
			one := get(t, route.path, "page=1&limit=1")
			is.Equal(one.Status, http.StatusOK)
			oneItems, err := route.items(one.Body)
			is.NoErr(err)
			is.Equal(len(oneItems), 1)

			for _, page := range farPages {
				r := get(t, route.path, "page="+page)
				is.Equal(r.Status, http.StatusOK) // a page past the end
				items, err := route.items(r.Body)
				is.NoErr(err)
				is.Equal(len(items), 0) // is empty
				is.True(strings.HasPrefix(strings.TrimSpace(string(r.Body)), "[") || strings.Contains(string(r.Body), `"data":[]`))
				r = get(t, route.path, "page="+page+"&limit=50")
				is.Equal(r.Status, http.StatusOK) // its row offset overflows
				items, err = route.items(r.Body)
				is.NoErr(err)
				is.Equal(len(items), 0) // still an empty page
				r = get(t, route.path, "page="+page+"&limit=9223372036854775807")
				is.Equal(r.Status, http.StatusOK)
			}
			for _, page := range []string{"-1", "-9223372036854775808", "-99999999999999999999", "0"} {
				r := get(t, route.path, "page="+page)
				is.Equal(r.Status, http.StatusOK)            // a page below 1
				is.Equal(string(r.Body), string(first.Body)) // is the first
			}
			for _, limit := range []string{"-1", "0", "-9223372036854775808", "-99999999999999999999"} {
				r := get(t, route.path, "limit="+limit)
				is.Equal(r.Status, http.StatusOK)            // a limit below 1
				is.Equal(string(r.Body), string(first.Body)) // is the default
			}
			for _, limit := range []string{"9223372036854775807", "99999999999999999999", "1000000"} {
				r := get(t, route.path, "limit="+limit)
				is.Equal(r.Status, http.StatusOK) // a huge limit is the maximum
				items, err := route.items(r.Body)
				is.NoErr(err)
				is.Equal(len(items), len(firstItems))
			}
			for _, bad := range []string{"page=abc", "page=1.5", "page=1_000", "limit=abc", "limit=1e3", "page=0x10", "limit=%20"} {
				r := get(t, route.path, bad)
				is.Equal(r.Status, http.StatusBadRequest) // malformed
				name, _, _ := strings.Cut(bad, "=")
				is.True(strings.HasPrefix(r.Message(), name+":")) // names the parameter
			}
		})
	}
}
