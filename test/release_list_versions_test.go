package test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestReleaseListSeesEveryWrite lists a repository's releases the same way
// again after each kind of write to them or their assets (the API's, a
// download, a push that deletes a tag): the list keeps its pages under the
// repository's releases version, which each of those writes moves, so
// every listing shows the write before it. On both backends, whose
// triggers move the version.
func TestReleaseListSeesEveryWrite(t *testing.T) {
	t.Parallel()
	backends(t, releaseListSeesEveryWrite)
}

func releaseListSeesEveryWrite(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	reader := srv.Client(gitea.SetBasicAuth("reader", userPassword))
	is := is.New(t)
	list := func(c *gitea.Client) []*gitea.Release {
		t.Helper()
		out, _, err := c.ListReleases("alice", "code", gitea.ListReleasesOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 10}})
		is.NoErr(err)
		return out
	}
	is.Equal(len(list(alice)), 0)
	is.Equal(len(list(reader)), 0)

	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	is.Equal(releaseTags(list(alice)), "v1")
	is.Equal(releaseTags(list(reader)), "v1")

	_, _, err = alice.EditRelease("alice", "code", rel.ID, gitea.EditReleaseOption{Title: "First"})
	is.NoErr(err)
	is.Equal(list(reader)[0].Title, "First")

	asset, _, err := alice.CreateReleaseAttachment("alice", "code", rel.ID, strings.NewReader("binary"), "tool.zip")
	is.NoErr(err)
	got := list(reader)[0].Attachments
	is.Equal(len(got), 1)
	is.Equal(got[0].Name, "tool.zip")

	_, _, err = alice.EditReleaseAttachment("alice", "code", rel.ID, asset.ID, gitea.EditAttachmentOptions{Name: "tool-v1.zip"})
	is.NoErr(err)
	is.Equal(list(reader)[0].Attachments[0].Name, "tool-v1.zip")

	resp, err := http.Get(asset.DownloadURL)
	is.NoErr(err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	is.NoErr(err)
	is.Equal(string(body), "binary")
	is.Equal(list(reader)[0].Attachments[0].DownloadCount, int64(1))

	_, err = alice.DeleteReleaseAttachment("alice", "code", rel.ID, asset.ID)
	is.NoErr(err)
	is.Equal(len(list(reader)[0].Attachments), 0)

	// A push that deletes the release's tag turns it into a draft, which
	// only writers list.
	work := httpGitClone(t, httpGitURL(srv, "alice", "code", "alice", userPassword))
	httpGitOK(t, work, "push", "-q", "origin", ":refs/tags/v1")
	is.Equal(len(list(reader)), 0)
	mine := list(alice)
	is.Equal(len(mine), 1)
	is.True(mine[0].IsDraft)

	_, err = alice.DeleteRelease("alice", "code", rel.ID)
	is.NoErr(err)
	is.Equal(len(list(alice)), 0)
}
