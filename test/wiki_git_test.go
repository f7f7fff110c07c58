package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestWikiGitHTTP: the wiki is cloned and pushed at /{owner}/{repo}.wiki.git
// with the wiki unit's permission; a page pushed with git appears in the API
// and a page written through the API appears in a clone.
func TestWikiGitHTTP(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"reader", "writer"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	createRepo(t, alice, gitea.CreateRepoOption{Name: "notes", AutoInit: true, Private: true})
	socialCollab(t, srv, "alice", "notes", "reader", gitea.AccessModeRead)
	socialCollab(t, srv, "alice", "notes", "writer", gitea.AccessModeWrite)
	is := is.New(t)
	wikiURL := func(user string) string {
		return httpGitURL(srv, "alice", "notes.wiki", user, userPassword)
	}

	// No wiki yet: nothing to clone.
	httpGitFails(t, t.TempDir(), "clone", "-q", wikiURL("alice"), filepath.Join(t.TempDir(), "none"))

	// The first push creates the wiki; the page shows in the API.
	work := filepath.Join(t.TempDir(), "work")
	httpGitOK(t, t.TempDir(), "init", "-q", "-b", "main", work)
	httpGitCommit(t, work, "Home.md", "# Pushed home\n", "home by git")
	httpGitOK(t, work, "push", "-q", wikiURL("writer"), "main")
	p, _, err := alice.GetWikiPage("alice", "notes", "Home")
	is.NoErr(err)
	is.Equal(p.ContentBase64, b64("# Pushed home\n"))
	is.Equal(p.LastCommit.Message, "home by git\n")
	// The repository's own branches are untouched by the wiki's push.
	branches, _, err := alice.ListRepoBranches("alice", "notes", gitea.ListRepoBranchesOptions{})
	is.NoErr(err)
	is.Equal(len(branches), 1)

	// An API write appears in a clone.
	wikiPage(t, alice, "alice", "notes", "API Page", "from the API")
	clone := httpGitClone(t, wikiURL("reader"))
	data, err := os.ReadFile(filepath.Join(clone, "API-Page.md"))
	is.NoErr(err)
	is.Equal(string(data), "from the API")
	httpGitCommit(t, clone, "Reader.md", "x", "reader")
	out := httpGitFails(t, clone, "push", "-q", "origin", "main")
	is.True(strings.Contains(out, "403") || strings.Contains(out, "permission"))

	// Outsiders and anonymous callers do not see a private wiki.
	newAccount(t, srv, "outsider", gitea.VisibleTypePublic)
	httpGitFails(t, t.TempDir(), "clone", "-q", wikiURL("outsider"), filepath.Join(t.TempDir(), "x"))
	is.Equal(srv.Do("GET", srv.URL+"/alice/notes.wiki.git/info/refs?service=git-upload-pack", nil).Status, http.StatusUnauthorized)

	// The wiki unit disabled hides the wiki from git too.
	no := false
	_, _, err = alice.EditRepo("alice", "notes", gitea.EditRepoOption{HasWiki: &no})
	is.NoErr(err)
	httpGitFails(t, t.TempDir(), "clone", "-q", wikiURL("alice"), filepath.Join(t.TempDir(), "y"))
}

// TestWikiGitSSH: the wiki is pushed and cloned over SSH with an account
// key and the wiki unit's permission; a deploy key does not reach it.
func TestWikiGitSSH(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSSH())
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, reader := newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "notes", AutoInit: true, Private: true})
	socialCollab(t, srv, "alice", "notes", "reader", gitea.AccessModeRead)
	aliceKey, _ := sshGitUserKey(t, alice, "alice")
	readerKey, _ := sshGitUserKey(t, reader, "reader")
	deployKey, _ := sshGitDeployKey(t, alice, "alice", "notes", "deploy", false)
	is := is.New(t)

	work := filepath.Join(t.TempDir(), "work")
	httpGitOK(t, t.TempDir(), "init", "-q", "-b", "main", work)
	httpGitCommit(t, work, "Home.md", "# Over SSH\n", "home by ssh")
	sshGitOK(t, srv, aliceKey, work, "push", "-q", sshGitURL(srv, "alice", "notes.wiki"), "main")
	p, _, err := alice.GetWikiPage("alice", "notes", "Home")
	is.NoErr(err)
	is.Equal(p.ContentBase64, b64("# Over SSH\n"))

	clone := filepath.Join(t.TempDir(), "clone")
	sshGitOK(t, srv, readerKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "notes.wiki"), clone)
	data, err := os.ReadFile(filepath.Join(clone, "Home.md"))
	is.NoErr(err)
	is.Equal(string(data), "# Over SSH\n")
	httpGitCommit(t, clone, "Reader.md", "x", "reader")
	sshGitFails(t, srv, readerKey, clone, "push", "-q", "origin", "main")
	sshGitFails(t, srv, deployKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "notes.wiki"), filepath.Join(t.TempDir(), "d"))
}
