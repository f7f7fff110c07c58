package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestContentsMissingPathMessages: a path absent from the tree is a 404 on
// every file route, worded per route as Gitea 1.27 words it
// (routers/api/v1/repo/file.go):
//   - raw and media (GetRawFile, GetRawFileOrLFS → getBlobForEntry): on
//     git.IsErrNotExist, "ctx.APIErrorNotFound()", message "not found"; the
//     SDK's own file test asserts GetFile's error is exactly "not found".
//   - contents (getRepoContents → files_service.GetContentsOrList): git's
//     ErrNotExist, "object does not exist [id: %s, rel_path: %s]", the id
//     empty for a path looked up in a tree.
func TestContentsMissingPathMessages(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "files", AutoInit: true, Readme: "Default"})
		const P = "/repos/alice/files"

		t.Run("raw through the SDK", func(t *testing.T) {
			is := is.New(t)
			_, resp, err := alice.GetFile("alice", "files", "main", "gone.txt")
			is.True(err != nil)
			is.Equal(err.Error(), "not found")
			is.Equal(resp.StatusCode, http.StatusNotFound)
			// The SDK's media form (resolveLFS) too.
			_, resp, err = alice.GetFile("alice", "files", "main", "gone.txt", true)
			is.True(err != nil)
			is.Equal(err.Error(), "not found")
			is.Equal(resp.StatusCode, http.StatusNotFound)
			// A file that exists still reads.
			raw, _, err := alice.GetFile("alice", "files", "main", "README.md")
			is.NoErr(err)
			is.True(len(raw) > 0)
		})

		t.Run("raw and media, every spelling", func(t *testing.T) {
			for _, p := range []string{P + "/raw/gone.txt", P + "/raw/gone.txt?ref=main", P + "/raw/main/gone.txt",
				P + "/media/gone.txt", P + "/media/gone.txt?ref=main", P + "/raw/nodir/gone.txt"} {
				assertAPIError(t, srv.Do("GET", p, nil), http.StatusNotFound, "not found")
			}
		})

		t.Run("contents", func(t *testing.T) {
			is := is.New(t)
			_, resp, err := alice.GetContents("alice", "files", "main", "gone.txt")
			is.True(err != nil)
			is.Equal(resp.StatusCode, http.StatusNotFound)
			is.Equal(err.Error(), "object does not exist [id: , rel_path: gone.txt]")
			assertAPIError(t, srv.Do("GET", P+"/contents/gone.txt", nil), http.StatusNotFound,
				"object does not exist [id: , rel_path: gone.txt]")
			assertAPIError(t, srv.Do("GET", P+"/contents/dir/gone.txt?ref=main", nil), http.StatusNotFound,
				"object does not exist [id: , rel_path: dir/gone.txt]")
		})
	})
}
