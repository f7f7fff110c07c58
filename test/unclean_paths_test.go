package test

import (
	"net/http"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestUncleanPathWritesRefused is the regression test of writes sent to a
// path with an empty, "." or ".." segment: gorilla/mux answered them 301 to
// the cleaned path, which a client following it replays as a GET (or to a
// route the caller never named). They are answered 404 and write nothing;
// reads keep the redirect, with the path's escapes intact.
func TestUncleanPathWritesRefused(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	changesRepo(t, srv)
	readme := changesGit(t, srv, "alice", "notes", "rev-parse", "main:README.md")
	cases := []struct {
		method, path string
		body         any
	}{
		{"POST", "/repos/alice/notes/../notes/contents/x.txt", map[string]any{"content": changesB64("x\n")}},
		{"POST", "/repos/alice/notes//contents", map[string]any{"files": []map[string]any{{"operation": "create", "path": "y.txt"}}}},
		{"PUT", "//repos/alice/notes/contents/README.md", map[string]any{"content": changesB64("new\n"), "sha": readme}},
		{"PATCH", "/repos/alice/./notes", map[string]any{"description": "changed"}},
		{"DELETE", "/repos/alice/notes/contents/sub/../README.md", map[string]any{"sha": readme}},
		{"DELETE", "/repos/alice/notes/.", nil},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			is := is.New(t)
			before := changesRefs(t, srv, "alice", "notes")
			r := srv.Do(tc.method, tc.path, tc.body, basicAs("alice")...)
			assertAPIError(t, r, http.StatusNotFound, "route not found: the path has an empty, '.' or '..' segment")
			is.Equal(r.Header.Get("Location"), "")
			is.Equal(changesRefs(t, srv, "alice", "notes"), before)
			r = srv.Do("GET", "/repos/alice/notes", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			var repo struct {
				Description string `json:"description"`
			}
			r.Decode(t, &repo)
			is.Equal(repo.Description, "")
		})
	}
	for _, method := range []string{"GET", "HEAD"} {
		t.Run(method+" keeps the redirect", func(t *testing.T) {
			is := is.New(t)
			r := srv.Do(method, "/repos/alice//notes/../notes", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusMovedPermanently)
			is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/notes")
			// The path's escapes and the query are kept as sent (mux's own
			// redirect escaped them twice: a%2520b).
			r = srv.Do(method, "/repos/alice/notes/./contents//a%20b?ref=main", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusMovedPermanently)
			is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/notes/contents/a%20b?ref=main")
		})
	}
	// An escaped slash or dot is data, not a segment: it reaches the route,
	// whose own check answers.
	r := srv.Do("POST", "/repos/alice/notes/contents/a%2F..%2F..%2Fb", map[string]any{"content": ""}, basicAs("alice")...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "TreePath: path has a '..' segment [path: a/../../b]")
}
