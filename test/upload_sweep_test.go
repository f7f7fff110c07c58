package test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// blobPath is where the attachment store under dataDir keeps uuid.
func blobPath(dataDir, uuid string) string {
	return filepath.Join(dataDir, "attachments", uuid[0:1], uuid[1:2], uuid)
}

// blobExists says whether the blob store holds uuid.
func blobExists(t *testing.T, dataDir, uuid string) bool {
	t.Helper()
	_, err := os.Stat(blobPath(dataDir, uuid))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return err == nil
}

// plantBlob writes a file into the blob store as a crash would leave it,
// last written at mtime.
func plantBlob(t *testing.T, p string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("left behind"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// zipBytes is an upload of an allowed type (a zip by its magic) of n bytes.
func zipBytes(n int) []byte {
	return append([]byte("PK\x03\x04"), bytes.Repeat([]byte("z"), n-4)...)
}

func TestUploadSweep(t *testing.T) {
	t.Parallel()
	backends(t, uploadSweep)
}

// uploadSweep removes the blobs no row names and the partial files of
// cut-off uploads written before its moment, keeps every blob a release
// asset or an issue attachment names and any file written since, and a
// row whose blob went missing still lists and downloads as 404.
func uploadSweep(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	is := is.New(t)
	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	kept, _, err := alice.CreateReleaseAttachment("alice", "code", rel.ID, bytes.NewReader(zipBytes(1000)), "kept.zip")
	is.NoErr(err)
	lost, _, err := alice.CreateReleaseAttachment("alice", "code", rel.ID, bytes.NewReader(zipBytes(10)), "lost.zip")
	is.NoErr(err)
	i, _, err := alice.CreateIssue("alice", "code", gitea.CreateIssueOption{Title: "files"})
	is.NoErr(err)
	att, _, err := alice.CreateIssueAttachment("alice", "code", i.Index, strings.NewReader("notes\n"), "notes.txt")
	is.NoErr(err)
	lostFile, _, err := alice.CreateIssueAttachment("alice", "code", i.Index, strings.NewReader("gone\n"), "gone.txt")
	is.NoErr(err)

	old, later := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	orphan := blobPath(srv.DataDir, "0a1b2c3d-0000-4000-8000-000000000001")
	partial := filepath.Join(srv.DataDir, "attachments", "0", "a", ".upload-42.tmp")
	fresh := blobPath(srv.DataDir, "0a1b2c3d-0000-4000-8000-000000000002") // written after the sweep's moment
	plantBlob(t, orphan, old)
	plantBlob(t, partial, old)
	plantBlob(t, fresh, later)
	is.NoErr(os.Remove(blobPath(srv.DataDir, lost.UUID)))
	is.NoErr(os.Remove(blobPath(srv.DataDir, lostFile.UUID)))

	done, err := srv.App.Issues.SweepUploads(t.Context(), time.Now())
	is.NoErr(err)
	is.Equal(done.Orphans, 1)
	is.Equal(done.Partial, 1)
	for p, want := range map[string]bool{orphan: false, partial: false, fresh: true,
		blobPath(srv.DataDir, kept.UUID): true, blobPath(srv.DataDir, att.UUID): true} {
		_, err := os.Stat(p)
		is.Equal(err == nil, want) // p kept as wanted
	}

	// The row without its blob still lists; its download is an absent file.
	got, _, err := alice.GetRelease("alice", "code", rel.ID)
	is.NoErr(err)
	is.Equal(len(got.Attachments), 2)
	resp, _ := downloadAttachment(t, lost.DownloadURL)
	is.Equal(resp.StatusCode, http.StatusNotFound)
	resp, _ = downloadAttachment(t, srv.URL+"/alice/code/releases/download/v1/lost.zip")
	is.Equal(resp.StatusCode, http.StatusNotFound)
	resp, body := downloadAttachment(t, kept.DownloadURL)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.True(bytes.Equal(body, zipBytes(1000)))
	resp, _ = downloadAttachment(t, att.DownloadURL)
	is.Equal(resp.StatusCode, http.StatusOK)
	files, _, err := alice.ListIssueAttachments("alice", "code", i.Index)
	is.NoErr(err)
	is.Equal(len(files), 2)
	resp, _ = downloadAttachment(t, lostFile.DownloadURL)
	is.Equal(resp.StatusCode, http.StatusNotFound)
}

func TestRepoDeleteRemovesUploads(t *testing.T) {
	t.Parallel()
	backends(t, repoDeleteRemovesUploads)
}

// repoDeleteRemovesUploads deletes a repository with release assets and
// issue and comment attachments: their blobs go with it, another
// repository's stay.
func repoDeleteRemovesUploads(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "keep", AutoInit: true})
	is := is.New(t)
	uploads := func(repo string) []string {
		rel, _, err := alice.CreateRelease("alice", repo, gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
		is.NoErr(err)
		asset, _, err := alice.CreateReleaseAttachment("alice", repo, rel.ID, bytes.NewReader(zipBytes(100)), "tool.zip")
		is.NoErr(err)
		i, _, err := alice.CreateIssue("alice", repo, gitea.CreateIssueOption{Title: "files"})
		is.NoErr(err)
		own, _, err := alice.CreateIssueAttachment("alice", repo, i.Index, strings.NewReader("issue\n"), "i.txt")
		is.NoErr(err)
		c, _, err := alice.CreateIssueComment("alice", repo, i.Index, gitea.CreateIssueCommentOption{Body: "see"})
		is.NoErr(err)
		onComment, _, err := alice.CreateIssueCommentAttachment("alice", repo, c.ID, strings.NewReader("comment\n"), "c.txt")
		is.NoErr(err)
		return []string{asset.UUID, own.UUID, onComment.UUID}
	}
	gone, stay := uploads("code"), uploads("keep")
	for _, u := range append(gone, stay...) {
		is.True(blobExists(t, srv.DataDir, u))
	}

	_, err := alice.DeleteRepo("alice", "code")
	is.NoErr(err)
	for _, u := range gone {
		is.True(!blobExists(t, srv.DataDir, u)) // the deleted repository's blob is removed
	}
	for _, u := range stay {
		is.True(blobExists(t, srv.DataDir, u)) // another repository's blob stays
	}
}

func TestIssueDeleteRemovesUploads(t *testing.T) {
	t.Parallel()
	backends(t, issueDeleteRemovesUploads)
}

// issueDeleteRemovesUploads deletes an issue with files on itself, on a
// comment and on a timeline event (the comment attachment routes take
// any comment of the issue): every blob goes with it.
func issueDeleteRemovesUploads(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	is := is.New(t)
	i, _, err := alice.CreateIssue("alice", "code", gitea.CreateIssueOption{Title: "files"})
	is.NoErr(err)
	own, _, err := alice.CreateIssueAttachment("alice", "code", i.Index, strings.NewReader("issue\n"), "i.txt")
	is.NoErr(err)
	c, _, err := alice.CreateIssueComment("alice", "code", i.Index, gitea.CreateIssueCommentOption{Body: "see"})
	is.NoErr(err)
	onComment, _, err := alice.CreateIssueCommentAttachment("alice", "code", c.ID, strings.NewReader("comment\n"), "c.txt")
	is.NoErr(err)
	closed := gitea.StateClosed
	_, _, err = alice.EditIssue("alice", "code", i.Index, gitea.EditIssueOption{State: &closed})
	is.NoErr(err)
	r := srv.Do("GET", "/repos/alice/code/issues/"+itoaTest(i.Index)+"/timeline", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	var events []struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
	}
	r.Decode(t, &events)
	var closeID int64
	for _, e := range events {
		if e.Type == "close" {
			closeID = e.ID
		}
	}
	is.True(closeID != 0)
	onEvent, _, err := alice.CreateIssueCommentAttachment("alice", "code", closeID, strings.NewReader("event\n"), "e.txt")
	is.NoErr(err)
	uuids := []string{own.UUID, onComment.UUID, onEvent.UUID}
	for _, u := range uuids {
		is.True(blobExists(t, srv.DataDir, u))
	}

	_, err = alice.DeleteIssue("alice", "code", i.Index)
	is.NoErr(err)
	for _, u := range uuids {
		is.True(!blobExists(t, srv.DataDir, u)) // the deleted issue's blob is removed
	}
}
