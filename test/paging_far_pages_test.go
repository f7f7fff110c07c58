package test

import (
	"encoding/json"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestPagingFarPages: a page so far out that its row offset would
// overflow is an empty page, for listings paged in SQL and in Git alike
// (found with FuzzListOptions' offset property; before, the branch list
// panicked and Postgres refused the negative offset, both a 500).
func TestPagingFarPages(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
		h := basicAs("alice")
		for _, path := range []string{"/repos/alice/code/branches", "/repos/alice/code/tags", "/repos/alice/code/commits",
			"/repos/alice/code/issues", "/repos/alice/code/labels", "/users/alice/repos", "/repos/alice/code/commits?path=README.md"} {
			for _, page := range []string{"9223372036854775807", "4611686018427387904", "184467440737095517"} {
				t.Run(path+"@"+page, func(t *testing.T) {
					is := is.New(t)
					sep := "?"
					if path[len(path)-9:] == "README.md" {
						sep = "&"
					}
					r := srv.Do("GET", path+sep+"page="+page+"&limit=50", nil, h...)
					is.Equal(r.Status, http.StatusOK)
					var list []json.RawMessage
					r.Decode(t, &list)
					is.Equal(len(list), 0)
				})
			}
		}
	})
}
