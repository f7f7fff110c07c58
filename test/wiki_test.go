package test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// b64 is s base64-encoded, as wiki pages travel.
func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// wikiDir is where the server keeps owner/name's wiki repository.
func wikiDir(srv *testserver.Server, owner, name string) string {
	return filepath.Join(srv.DataDir, "repos", strings.ToLower(owner), strings.ToLower(name)+".wiki.git")
}

// wikiFiles lists the files of the wiki's main branch with the git CLI.
func wikiFiles(t *testing.T, srv *testserver.Server, owner, name string) []string {
	t.Helper()
	return strings.Split(strings.TrimSuffix(gitRun(t, wikiDir(srv, owner, name), "ls-tree", "--name-only", "-z", "main"), "\x00"), "\x00")
}

// wikiPage creates a page through the API, failing the test on any error.
func wikiPage(t *testing.T, c *gitea.Client, owner, repo, title, content string) *gitea.WikiPage {
	t.Helper()
	p, resp, err := c.CreateWikiPage(owner, repo, gitea.CreateWikiPageOptions{Title: title, ContentBase64: b64(content)})
	if err != nil {
		t.Fatalf("create wiki page %q: %v", title, err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create wiki page %q: status %d", title, resp.StatusCode)
	}
	return p
}

func TestWikiPages(t *testing.T) {
	t.Parallel()
	backends(t, wikiPages)
}

// wikiPages runs TestWikiPages' scenario on one backend: the wiki is born
// with its first page; pages are read with sidebar and footer, listed,
// renamed, revised and deleted, with Gitea's names for titles with spaces,
// unicode, slashes and dots.
func wikiPages(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "notes", AutoInit: true})
	is := is.New(t)

	_, resp, err := alice.ListWikiPages("alice", "notes", gitea.ListWikiPagesOptions{})
	is.True(err != nil)
	is.Equal(resp.StatusCode, http.StatusNotFound) // no wiki before its first page
	_, resp, _ = alice.GetWikiPage("alice", "notes", "Home")
	is.Equal(resp.StatusCode, http.StatusNotFound)

	home := wikiPage(t, alice, "alice", "notes", "Home", "# Welcome")
	is.Equal(home.Title, "Home")
	is.Equal(home.SubURL, "Home")
	is.Equal(home.HTMLURL, strings.TrimSuffix(srv.URL, "/")+"/alice/notes/wiki/Home")
	is.Equal(home.ContentBase64, b64("# Welcome"))
	is.Equal(home.CommitCount, int64(1))
	is.True(home.LastCommit != nil)
	is.Equal(home.LastCommit.Message, "Add 'Home'\n")
	is.Equal(home.LastCommit.Author.Name, "alice")
	is.Equal(home.LastCommit.Author.Email, "alice@example.com")
	is.True(home.LastCommit.Commiter != nil)
	is.Equal(strings.TrimSpace(gitRun(t, wikiDir(srv, "alice", "notes"), "show", "main:Home.md")), "# Welcome")

	wikiPage(t, alice, "alice", "notes", "_Sidebar", "side")
	wikiPage(t, alice, "alice", "notes", "_Footer", "foot")
	spaced := wikiPage(t, alice, "alice", "notes", "Page With Spaces", "spaces")
	is.Equal(spaced.SubURL, "Page-With-Spaces")
	is.Equal(spaced.Sidebar, b64("side"))
	is.Equal(spaced.Footer, b64("foot"))
	uni := wikiPage(t, alice, "alice", "notes", "Über Straße", "unicode")
	is.Equal(uni.Title, "Über Straße")
	is.Equal(uni.SubURL, "%C3%9Cber-Stra%C3%9Fe")
	dots := wikiPage(t, alice, "alice", "notes", "../../etc/passwd", "dots")
	is.Equal(dots.Title, "../../etc/passwd")
	is.Equal(dots.SubURL, "..%2F..%2Fetc%2Fpasswd")
	slash := wikiPage(t, alice, "alice", "notes", "a/b", "slash")
	is.Equal(slash.SubURL, "a%2Fb")
	dashed := wikiPage(t, alice, "alice", "notes", "2000-01-02 meeting", "dashes")
	is.Equal(dashed.SubURL, "2000-01-02+meeting.-")
	// Every page is one file at the wiki's root: no name reaches outside it.
	is.Equal(wikiFiles(t, srv, "alice", "notes"), []string{"%C3%9Cber-Stra%C3%9Fe.md", "..%2F..%2Fetc%2Fpasswd.md",
		"2000-01-02 meeting.-.md", "Home.md", "Page-With-Spaces.md", "_Footer.md", "_Sidebar.md", "a%2Fb.md"})

	for name, want := range map[string]string{"Page With Spaces": "spaces", "Page-With-Spaces": "spaces",
		"Über Straße": "unicode", "../../etc/passwd": "dots", "a/b": "slash", "2000-01-02+meeting.-": "dashes"} {
		p, _, err := alice.GetWikiPage("alice", "notes", name)
		is.NoErr(err)
		is.Equal(p.ContentBase64, b64(want))
		is.Equal(p.CommitCount, int64(1))
	}
	// A name made of dots and slashes in the URL stays in the wiki.
	is.Equal(srv.Do("GET", "/repos/alice/notes/wiki/page/..%2F..%2Fnotes.git%2Fconfig.md", nil).Status, http.StatusNotFound)

	list, resp, err := alice.ListWikiPages("alice", "notes", gitea.ListWikiPagesOptions{})
	is.NoErr(err)
	is.Equal(resp.Header.Get("X-Total-Count"), "8")
	is.Equal(len(list), 8)
	titles := make([]string, len(list))
	for i, p := range list {
		titles[i] = p.Title
		is.True(p.LastCommit != nil && p.LastCommit.ID != "")
	}
	is.Equal(titles, []string{"Über Straße", "../../etc/passwd", "2000-01-02 meeting", "Home", "Page With Spaces",
		"_Footer", "_Sidebar", "a/b"})
	list, _, err = alice.ListWikiPages("alice", "notes", gitea.ListWikiPagesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
	is.NoErr(err)
	is.Equal(len(list), 3)
	is.Equal(list[0].Title, "Home")

	// Bad input answers 400, as Gitea.
	for _, body := range []map[string]string{
		{"title": "Home", "content_base64": b64("again")},   // exists
		{"title": "_pages", "content_base64": b64("x")},     // reserved
		{"title": "  ", "content_base64": b64("x")},         // empty title
		{"title": "Fresh", "content_base64": "not base64!"}, // malformed content
	} {
		r := srv.Do("POST", "/repos/alice/notes/wiki/new", body, basicAs("alice")...)
		is.Equal(r.Status, http.StatusBadRequest)
	}
	is.Equal(srv.Do("POST", "/repos/alice/notes/wiki/new", "{", basicAs("alice")...).Status, http.StatusBadRequest)

	// Edit with rename: the old page is gone, the new one has its history.
	renamed, resp, err := alice.EditWikiPage("alice", "notes", "Page-With-Spaces",
		gitea.CreateWikiPageOptions{Title: "Renamed Page", ContentBase64: b64("v2")})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(renamed.Title, "Renamed Page")
	is.Equal(renamed.SubURL, "Renamed-Page")
	is.Equal(renamed.ContentBase64, b64("v2"))
	is.Equal(renamed.LastCommit.Message, "Update 'Renamed-Page'\n")
	_, resp, _ = alice.GetWikiPage("alice", "notes", "Page-With-Spaces")
	is.Equal(resp.StatusCode, http.StatusNotFound)
	edited, _, err := alice.EditWikiPage("alice", "notes", "Renamed Page",
		gitea.CreateWikiPageOptions{ContentBase64: b64("v3"), Message: "third"})
	is.NoErr(err)
	is.Equal(edited.CommitCount, int64(2))
	is.Equal(edited.ContentBase64, b64("v3"))

	revs, resp, err := alice.GetWikiPageRevisions("alice", "notes", "Renamed-Page", gitea.ListWikiPageRevisionsOptions{})
	is.NoErr(err)
	is.Equal(resp.Header.Get("X-Total-Count"), "2")
	is.Equal(revs.Count, int64(2))
	is.Equal(len(revs.WikiCommits), 2)
	is.Equal(revs.WikiCommits[0].Message, "third\n")
	is.Equal(revs.WikiCommits[0].ID, edited.LastCommit.ID)
	_, resp, _ = alice.GetWikiPageRevisions("alice", "notes", "Missing", gitea.ListWikiPageRevisionsOptions{})
	is.Equal(resp.StatusCode, http.StatusNotFound)

	resp, err = alice.DeleteWikiPage("alice", "notes", "Renamed-Page")
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	resp, _ = alice.DeleteWikiPage("alice", "notes", "Renamed-Page")
	is.Equal(resp.StatusCode, http.StatusNotFound)
	_, resp, _ = alice.GetWikiPage("alice", "notes", "Renamed-Page")
	is.Equal(resp.StatusCode, http.StatusNotFound)
	is.Equal(len(strings.Fields(gitRun(t, wikiDir(srv, "alice", "notes"), "log", "--format=%H", "main"))), 11)

	// The wiki unit disabled hides the whole group.
	no := false
	_, _, err = alice.EditRepo("alice", "notes", gitea.EditRepoOption{HasWiki: &no})
	is.NoErr(err)
	_, resp, _ = alice.GetWikiPage("alice", "notes", "Home")
	is.Equal(resp.StatusCode, http.StatusNotFound)
	_, resp, _ = alice.CreateWikiPage("alice", "notes", gitea.CreateWikiPageOptions{Title: "X", ContentBase64: b64("x")})
	is.Equal(resp.StatusCode, http.StatusNotFound)
}

// TestWikiFollowsRepository: forking copies a repository's wiki; renaming
// and deleting a repository take its wiki along.
func TestWikiFollowsRepository(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "notes", AutoInit: true})
	wikiPage(t, alice, "alice", "notes", "Home", "# Welcome")
	is := is.New(t)
	// A fork takes a copy of the wiki, as in Gitea.
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, _, err := bob.CreateFork("alice", "notes", gitea.CreateForkOption{})
	is.NoErr(err)
	forked, _, err := bob.GetWikiPage("bob", "notes", "Home")
	is.NoErr(err)
	is.Equal(forked.ContentBase64, b64("# Welcome"))

	name := "journal"
	_, _, err = alice.EditRepo("alice", "notes", gitea.EditRepoOption{Name: &name})
	is.NoErr(err)
	p, _, err := alice.GetWikiPage("alice", "journal", "Home")
	is.NoErr(err)
	is.Equal(p.ContentBase64, b64("# Welcome"))
	_, err = exec.LookPath("git")
	is.NoErr(err)
	is.Equal(wikiFiles(t, srv, "alice", "journal"), []string{"Home.md"})
	_, err = alice.DeleteRepo("alice", "journal")
	is.NoErr(err)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "journal", AutoInit: true})
	_, resp, _ := alice.GetWikiPage("alice", "journal", "Home")
	is.Equal(resp.StatusCode, http.StatusNotFound) // the new repository starts without the old wiki
}

// TestWikiAccessMatrix checks the wiki routes' access codes: reads need the
// wiki unit readable (404 otherwise, for everyone, while the unit is off),
// writes a token or password, an unarchived repository and write access to
// the wiki unit; a token needs the repository scope.
func TestWikiAccessMatrix(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"outsider", "reader", "writer"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	for _, name := range []string{"open", "closed"} {
		createRepo(t, alice, gitea.CreateRepoOption{Name: name, AutoInit: true, Private: name == "closed"})
		socialCollab(t, srv, "alice", name, "reader", gitea.AccessModeRead)
		socialCollab(t, srv, "alice", name, "writer", gitea.AccessModeWrite)
		wikiPage(t, alice, "alice", name, "Home", "home")
	}
	anon := []string(nil)
	who := map[string][]string{
		"anonymous": anon, "outsider": basicAs("outsider"), "reader": basicAs("reader"), "writer": basicAs("writer"),
		"owner": basicAs("alice"), "admin": adminHeader(srv),
		"token without repository scope": tokenHeader(srv, "alice", "read:user"),
		"read-only token":                tokenHeader(srv, "writer", "read:repository"),
	}
	n := 0
	newPage := func() map[string]string {
		n++
		return map[string]string{"title": fmt.Sprintf("Page %d", n), "content_base64": b64("x")}
	}
	type want struct{ read, write int }
	cases := []struct {
		repo, who string
		want      want
	}{
		{"open", "anonymous", want{200, 401}},
		{"open", "outsider", want{200, 403}},
		{"open", "reader", want{200, 403}},
		{"open", "writer", want{200, 201}},
		{"open", "owner", want{200, 201}},
		{"open", "admin", want{200, 201}},
		{"open", "token without repository scope", want{403, 403}},
		{"open", "read-only token", want{200, 403}},
		{"closed", "anonymous", want{404, 404}},
		{"closed", "outsider", want{404, 404}},
		{"closed", "reader", want{200, 403}},
		{"closed", "writer", want{200, 201}},
		{"closed", "admin", want{200, 201}},
	}
	for _, tc := range cases {
		t.Run(tc.repo+"/"+tc.who, func(t *testing.T) {
			is := is.New(t)
			base := "/repos/alice/" + tc.repo + "/wiki"
			h := who[tc.who]
			for _, path := range []string{base + "/pages", base + "/page/Home", base + "/revisions/Home"} {
				is.Equal(srv.Do("GET", path, nil, h...).Status, tc.want.read)
			}
			is.Equal(srv.Do("POST", base+"/new", newPage(), h...).Status, tc.want.write)
			edit := tc.want.write
			if edit == http.StatusCreated {
				edit = http.StatusOK
			}
			is.Equal(srv.Do("PATCH", base+"/page/Home", map[string]string{"content_base64": b64("edited")}, h...).Status, edit)
		})
	}

	// Archived: writes refused (423), reads served.
	yes := true
	_, _, err := alice.EditRepo("alice", "open", gitea.EditRepoOption{Archived: &yes})
	if err != nil {
		t.Fatal(err)
	}
	is := is.New(t)
	is.Equal(srv.Do("POST", "/repos/alice/open/wiki/new", newPage(), basicAs("alice")...).Status, http.StatusLocked)
	is.Equal(srv.Do("DELETE", "/repos/alice/open/wiki/page/Home", nil, basicAs("alice")...).Status, http.StatusLocked)
	is.Equal(srv.Do("GET", "/repos/alice/open/wiki/page/Home", nil).Status, http.StatusOK)

	// The wiki unit off: 404 for everyone, the admin included.
	no := false
	_, _, err = alice.EditRepo("alice", "closed", gitea.EditRepoOption{HasWiki: &no})
	is.NoErr(err)
	for _, h := range [][]string{basicAs("alice"), adminHeader(srv), basicAs("writer")} {
		is.Equal(srv.Do("GET", "/repos/alice/closed/wiki/pages", nil, h...).Status, http.StatusNotFound)
		is.Equal(srv.Do("POST", "/repos/alice/closed/wiki/new", newPage(), h...).Status, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", "/repos/alice/closed/wiki/page/Home", nil, h...).Status, http.StatusNotFound)
	}
}
