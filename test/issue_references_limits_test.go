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

// TestIssueReferencesBounded checks that one text records at most 100
// distinct issue references: each is a lookup and a timeline event in the
// write's transaction, so a body of "#1 #2 #3 ..." cost a query per four
// bytes. Past the bound references stay plain text.
func TestIssueReferencesBounded(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
	target, _, err := alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "target"})
	is.NoErr(err)
	path := fmt.Sprintf("/repos/alice/tools/issues/%d", target.Index)

	refs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "#%d ", 1000+i)
		}
		return b.String()
	}
	// The target is the 101st distinct reference: not recorded.
	r := srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "past the bound",
		"body": refs(100) + fmt.Sprintf("#%d", target.Index)}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(len(entriesOfType(fetchTimeline(t, srv, path+"/timeline", basicAs("alice")...), "issue_ref")), 0)

	// Within the bound it is (the target is the 100th; repeats count once).
	r = srv.Do("POST", "/repos/alice/tools/issues", map[string]any{"title": "within the bound",
		"body": refs(99) + refs(99) + fmt.Sprintf("#%d ", target.Index) + refs(500)}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(len(entriesOfType(fetchTimeline(t, srv, path+"/timeline", basicAs("alice")...), "issue_ref")), 1)
}
