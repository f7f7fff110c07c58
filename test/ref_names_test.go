package test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// refNameRoutes are the routes that read a ref a client names: the path
// naming ref (escaped for a path or a query), a ref the fixture has, and
// the status of a ref the repository does not have (404, or 400 on the Git
// data routes, as Gitea answers an unknown sha there) and of a ref Git
// refuses (the commit routes answer 422 as Gitea's IsValidRefPattern
// check does, past 255 bytes too).
var refNameRoutes = []struct {
	name             string
	path             func(ref string) string
	inPath           bool
	good             string
	missing, refused int
}{
	{"raw", func(ref string) string { return "/raw/" + refPathEscape(ref) + "/README.md" }, true, "main", 404, 404},
	{"raw query", func(ref string) string { return "/raw/README.md?ref=" + url.QueryEscape(ref) }, false, "main", 404, 404},
	{"media", func(ref string) string { return "/media/" + refPathEscape(ref) + "/README.md" }, true, "main", 404, 404},
	{"contents", func(ref string) string { return "/contents/README.md?ref=" + url.QueryEscape(ref) }, false, "main", 404, 404},
	{"contents root", func(ref string) string { return "/contents?ref=" + url.QueryEscape(ref) }, false, "main", 404, 404},
	{"branch", func(ref string) string { return "/branches/" + refPathEscape(ref) }, true, "main", 404, 404},
	{"tag", func(ref string) string { return "/tags/" + refPathEscape(ref) }, true, "v1", 404, 404},
	{"archive", func(ref string) string { return "/archive/" + refPathEscape(ref) + ".zip" }, true, "main", 404, 404},
	{"tarball", func(ref string) string { return "/tarball/" + refPathEscape(ref) }, true, "main", 404, 404},
	{"combined status", func(ref string) string { return "/commits/" + url.PathEscape(ref) + "/status" }, true, "main", 404, 404},
	{"statuses by ref", func(ref string) string { return "/commits/" + url.PathEscape(ref) + "/statuses" }, true, "main", 404, 404},
	{"git tree", func(ref string) string { return "/git/trees/" + url.PathEscape(ref) }, true, "main", 400, 400},
	{"git refs", func(ref string) string { return "/git/refs/heads/" + refPathEscape(ref) }, true, "main", 404, 404},
	{"commit", func(ref string) string { return "/commits/" + url.PathEscape(ref) }, true, "main", 404, 422},
	{"compare", func(ref string) string { return "/compare/main..." + refPathEscape(ref) }, true, "main", 404, 422},
	{"commits from", func(ref string) string { return "/commits?sha=" + url.QueryEscape(ref) }, false, "main", 404, 422},
}

// refPathEscape escapes each segment of a ref put in a path, keeping its
// slashes.
func refPathEscape(ref string) string {
	segs := strings.Split(ref, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// refNamesLong are ref names around and past what libgit2 can hold.
var refNamesLong = []string{
	strings.Repeat("a", 1012), strings.Repeat("a", 1013), strings.Repeat("b", 1024), strings.Repeat("c", 5000),
	strings.Repeat("d/", 600) + "e",
}

// refNamesMalformed break git check-ref-format's rules.
var refNamesMalformed = []string{
	"a..b", "x.lock", "dir/x.lock/y", "a\x01b", "tab\tname", "del\x7f", "@{", "a@{1}", "@", "sp ace", "til~de",
	"car^et", "col:on", "q?uestion", "st*ar", "br[acket", "back\\slash", ".hidden", "dir/.hidden", "trail.",
	"trail/", "dou//ble",
}

// TestRefNamesBounds asks every route that reads a ref a client names, on
// a public repository, anonymously, for refs too long for libgit2 and refs
// Git refuses: each is a ref the repository does not have (404, or 400
// where an unknown ref is), never a 500.
func TestRefNamesBounds(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	w := cloneRepo(t, srv, "alice", "pub")
	gitRun(t, w, "tag", "v1")
	gitRun(t, w, "push", "-q", repoDir(srv, "alice", "pub"), "v1")
	for _, route := range refNameRoutes {
		t.Run(route.name, func(t *testing.T) {
			is := is.New(t)
			ok := srv.Do("GET", "/repos/alice/pub"+route.path(route.good), nil)
			is.Equal(ok.Status, http.StatusOK) // the route reads a ref the repository has
			unknown := srv.Do("GET", "/repos/alice/pub"+route.path("no-such-ref"), nil)
			is.Equal(unknown.Status, route.missing) // an unknown ref
			for _, ref := range append(append([]string{}, refNamesLong...), refNamesMalformed...) {
				if route.inPath && (strings.Contains(ref, "//") || strings.HasSuffix(ref, "/")) {
					continue // the router redirects to the cleaned path first
				}
				r := srv.Do("GET", "/repos/alice/pub"+route.path(ref), nil)
				// The commit routes check Gitea's looser pattern first
				// (dir/x.lock/y passes it): missing then, never a 500.
				if r.Status != route.refused && r.Status != route.missing {
					t.Errorf("%.40q (%d bytes): %d %s, want %d", ref, len(ref), r.Status, r.Message(), route.refused)
				}
			}
		})
	}
}
