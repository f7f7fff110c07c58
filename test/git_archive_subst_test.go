package test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestArchiveExportSubstEndToEnd: files marked export-subst have their
// $Format:…$ placeholders expanded for the archived commit in zip and
// tar.gz downloads, byte for byte as git archive expands them; other files
// are left alone.
func TestArchiveExportSubstEndToEnd(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "subst", AutoInit: true})
	archivePush(t, srv, "alice", "subst", "main", map[string]string{
		".gitattributes": "VERSION export-subst\n",
		"VERSION":        "$Format:%H %h %T %P%n%an <%ae> %ad|%aI|%ct%n%s%n%b$ [$Format:%d$] %q$Format:%%$ $Format:open\n",
		"plain":          "$Format:%H$\n",
	}, false)
	want, _ := archiveWant(t, srv, "alice", "subst", "main")
	is := is.New(t)
	is.True(!strings.Contains(want["subst/VERSION"].Data, "%H")) // the oracle expanded it
	is.Equal(want["subst/plain"].Data, "$Format:%H$\n")

	r := srv.Do("GET", "/repos/alice/subst/archive/main.zip", nil)
	is.Equal(r.Status, http.StatusOK)
	archiveCompare(t, archiveUnzip(t, r.Body), want)
	r = srv.Do("GET", "/repos/alice/subst/archive/main.tar.gz", nil)
	is.Equal(r.Status, http.StatusOK)
	gz, err := gzip.NewReader(bytes.NewReader(r.Body))
	is.NoErr(err)
	got, _ := archiveUntar(t, gz)
	archiveCompare(t, got, want)
}
