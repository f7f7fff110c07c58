package test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// attachmentBlobCount is how many files the attachment blob store holds.
func attachmentBlobCount(t *testing.T, srv *testserver.Server) int {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(filepath.Join(srv.DataDir, "attachments"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func TestReleaseAssets(t *testing.T) {
	t.Parallel()
	backendsWith(t, releaseAssets, releaseAssetLimit)
}

// releaseAssetLimit keeps uploads to 64 KiB, so that a larger one is refused.
var releaseAssetLimit = testserver.WithSettings(func(s *site.Settings) { s.AttachmentMaxBytes = 64 << 10 })

// releaseAssets uploads assets as multipart and as a raw body, lists them
// in the release, renames, downloads (counted) and deletes them, refuses
// a file over the site's size and one of a forbidden type with nothing
// stored, and removes a release's bytes with it.
func releaseAssets(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	is := is.New(t)
	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	assets := "/repos/alice/code/releases/" + itoaTest(rel.ID) + "/assets"
	as := basicAs("alice")
	before := attachmentBlobCount(t, srv)

	zip := append([]byte("PK\x03\x04"), bytes.Repeat([]byte("z"), 1000)...)
	a, _, err := alice.CreateReleaseAttachment("alice", "code", rel.ID, bytes.NewReader(zip), "tool.zip")
	is.NoErr(err)
	is.Equal(a.Name, "tool.zip")
	is.Equal(a.Size, int64(len(zip)))
	is.True(strings.HasSuffix(a.DownloadURL, "/attachments/"+a.UUID))

	r := srv.Do("POST", assets+"?name=notes.txt", "release notes\n", append(as, "Content-Type", "application/octet-stream")...)
	is.Equal(r.Status, http.StatusCreated)
	var raw gitea.Attachment
	r.Decode(t, &raw)
	is.Equal(raw.Name, "notes.txt")
	is.Equal(raw.Size, int64(len("release notes\n")))
	is.Equal(attachmentBlobCount(t, srv), before+2)

	got, _, err := alice.GetRelease("alice", "code", rel.ID)
	is.NoErr(err)
	is.Equal(len(got.Attachments), 2)
	is.Equal(got.Attachments[0].ID, a.ID)
	list, _, err := alice.ListReleases("alice", "code", gitea.ListReleasesOptions{})
	is.NoErr(err)
	is.Equal(len(list[0].Attachments), 2)
	listed, _, err := alice.ListReleaseAttachments("alice", "code", rel.ID, gitea.ListReleaseAttachmentsOptions{})
	is.NoErr(err)
	is.Equal(len(listed), 2)

	resp, body := downloadAttachment(t, a.DownloadURL)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.True(bytes.Equal(body, zip))
	one, _, err := alice.GetReleaseAttachment("alice", "code", rel.ID, a.ID)
	is.NoErr(err)
	is.Equal(one.DownloadCount, int64(1))

	e, resp2, err := alice.EditReleaseAttachment("alice", "code", rel.ID, a.ID, gitea.EditAttachmentOptions{Name: "tool-1.0.zip"})
	is.NoErr(err)
	is.Equal(resp2.StatusCode, http.StatusCreated)
	is.Equal(e.Name, "tool-1.0.zip")

	// Gitea's address by tag and name serves it too, counted.
	resp, body = downloadAttachment(t, srv.URL+"/alice/code/releases/download/v1/tool-1.0.zip")
	is.Equal(resp.StatusCode, http.StatusOK)
	is.True(bytes.Equal(body, zip))
	one, _, err = alice.GetReleaseAttachment("alice", "code", rel.ID, a.ID)
	is.NoErr(err)
	is.Equal(one.DownloadCount, int64(2))
	for _, p := range []string{"/alice/code/releases/download/v1/tool.zip", "/alice/code/releases/download/v9/tool-1.0.zip",
		"/alice/nope/releases/download/v1/tool-1.0.zip"} {
		resp, _ = downloadAttachment(t, srv.URL+p)
		is.Equal(resp.StatusCode, http.StatusNotFound)
	}

	t.Run("BadInput", func(t *testing.T) {
		is := is.New(t)
		n := attachmentBlobCount(t, srv)
		big := bytes.Repeat([]byte("x"), 100<<10)
		assertAPIError(t, uploadAttachment(srv, assets, "big.zip", big, as...), http.StatusRequestEntityTooLarge, "")
		assertAPIError(t, srv.Do("POST", assets+"?name=big.zip", big, append(as, "Content-Type", "application/octet-stream")...),
			http.StatusRequestEntityTooLarge, "")
		assertInvalid(t, uploadAttachment(srv, assets, "run.exe", []byte("MZ\x90\x00binary"), as...), "attachment")
		assertAPIError(t, srv.Do("POST", assets, "body", append(as, "Content-Type", "application/octet-stream")...),
			http.StatusBadRequest, "Could not determine name of attachment.")
		assertAPIError(t, srv.Do("POST", "/repos/alice/code/releases/999999/assets?name=a.txt", "x", as...), http.StatusNotFound, "")
		is.Equal(attachmentBlobCount(t, srv), n) // nothing refused was stored
		listed, _, err := alice.ListReleaseAttachments("alice", "code", rel.ID, gitea.ListReleaseAttachmentsOptions{})
		is.NoErr(err)
		is.Equal(len(listed), 2)
		assertAPIError(t, srv.Do("GET", assets+"/999999", nil, as...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("PATCH", assets+"/"+itoaTest(a.ID), "{", as...), http.StatusBadRequest, "")
	})

	t.Run("DeleteRemovesTheBytes", func(t *testing.T) {
		is := is.New(t)
		n := attachmentBlobCount(t, srv)
		resp, err := alice.DeleteReleaseAttachment("alice", "code", rel.ID, raw.ID)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(attachmentBlobCount(t, srv), n-1)
		dl, _ := downloadAttachment(t, raw.DownloadURL)
		is.Equal(dl.StatusCode, http.StatusNotFound)

		_, err = alice.DeleteRelease("alice", "code", rel.ID)
		is.NoErr(err)
		is.Equal(attachmentBlobCount(t, srv), n-2) // the release's last asset went with it
		dl, _ = downloadAttachment(t, a.DownloadURL)
		is.Equal(dl.StatusCode, http.StatusNotFound)
	})
}

// TestReleaseAssetDownloadAccess downloads the assets of a private
// repository's release and of a draft, by UUID and by tag and name: only who may read the releases
// (and, for a draft, write them) gets the bytes; others get 404.
func TestReleaseAssetDownloadAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice := releaseRepo(t, srv, "code", true)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	is := is.New(t)
	pub, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	draft, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v2", Title: "Two", IsDraft: true})
	is.NoErr(err)
	up := func(relID int64) *gitea.Attachment {
		a, _, err := alice.CreateReleaseAttachment("alice", "code", relID, strings.NewReader("bytes of the file"), "f.txt")
		is.NoErr(err)
		return a
	}
	a, d := up(pub.ID), up(draft.ID)
	repoToken := srv.CreateToken("reader", userPassword, "read:repository")
	issueToken := srv.CreateToken("reader", userPassword, "read:issue")
	byName := func(tag string) *gitea.Attachment {
		return &gitea.Attachment{DownloadURL: srv.URL + "/alice/code/releases/download/" + tag + "/f.txt"}
	}
	for _, c := range []struct {
		who    string
		header []string
		asset  *gitea.Attachment
		want   int
	}{
		{"anonymous, by name", nil, byName("v1"), http.StatusNotFound},
		{"outsider, by name", basicAs("carol"), byName("v1"), http.StatusNotFound},
		{"reader, by name", basicAs("reader"), byName("v1"), http.StatusOK},
		{"reader's issue token, by name", []string{"Authorization", "token " + issueToken}, byName("v1"), http.StatusForbidden},
		{"reader, draft by name", basicAs("reader"), byName("v2"), http.StatusNotFound},
		{"writer, draft by name", basicAs("writer"), byName("v2"), http.StatusOK},
		{"anonymous", nil, a, http.StatusNotFound},
		{"outsider", basicAs("carol"), a, http.StatusNotFound},
		{"reader", basicAs("reader"), a, http.StatusOK},
		{"reader's repository token", []string{"Authorization", "token " + repoToken}, a, http.StatusOK},
		{"reader's issue token", []string{"Authorization", "token " + issueToken}, a, http.StatusForbidden},
		{"reader, draft", basicAs("reader"), d, http.StatusNotFound},
		{"writer, draft", basicAs("writer"), d, http.StatusOK},
	} {
		t.Run(c.who, func(t *testing.T) {
			resp, body := downloadAttachment(t, c.asset.DownloadURL, c.header...)
			if resp.StatusCode != c.want {
				t.Fatalf("%s: %d, want %d (%s)", c.who, resp.StatusCode, c.want, body)
			}
			if c.want == http.StatusOK && string(body) != "bytes of the file" {
				t.Fatalf("%s: body %q", c.who, body)
			}
		})
	}
}
