package test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// uploadAttachment posts a multipart upload with the file in field "attachment";
// query is appended to path as is.
func uploadAttachment(srv *testserver.Server, path, filename string, data []byte, header ...string) testserver.Response {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("attachment", filename)
	_, _ = part.Write(data)
	_ = w.Close()
	return srv.Do("POST", path, body.Bytes(), append([]string{"Content-Type", w.FormDataContentType()}, header...)...)
}

// downloadAttachment fetches a download address, with the given headers.
func downloadAttachment(t *testing.T, addr string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.Bytes()
}

func TestIssueAttachments(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.AttachmentMaxBytes = 64 << 10
		}))...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		addTestCollaborator(t, alice, "alice", "tools", "carol", gitea.AccessModeWrite)
		i := openTestIssue(t, bob, "alice", "tools", "with files", "")
		const R = "/repos/alice/tools"
		assets := R + "/issues/" + formatID(i.Index) + "/assets"

		t.Run("settings", func(t *testing.T) {
			is := is.New(t)
			got, _, err := alice.GetGlobalAttachmentSettings()
			is.NoErr(err)
			is.True(got.Enabled)
			is.True(strings.Contains(got.AllowedTypes, ".txt"))
			is.Equal(got.MaxFiles, 5)
		})

		t.Run("issue attachments", func(t *testing.T) {
			is := is.New(t)
			// The issue's poster uploads, naming it through the query.
			a, _, err := bob.CreateIssueAttachment("alice", "tools", i.Index, strings.NewReader("hello, world\n"), "notes.txt")
			is.NoErr(err)
			is.Equal(a.Name, "notes.txt")
			is.Equal(a.Size, int64(13))
			is.Equal(len(a.UUID), 36)
			is.Equal(a.DownloadURL, srv.URL+"/attachments/"+a.UUID)

			list, _, err := alice.ListIssueAttachments("alice", "tools", i.Index)
			is.NoErr(err)
			is.Equal(len(list), 1)
			is.Equal(list[0].ID, a.ID)
			got, _, err := alice.GetIssueAttachment("alice", "tools", i.Index, a.ID)
			is.NoErr(err)
			is.Equal(got.UUID, a.UUID)

			// The download is public on a public repository, typed by its bytes.
			resp, body := downloadAttachment(t, a.DownloadURL)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.Equal(string(body), "hello, world\n")
			is.Equal(resp.Header.Get("Content-Type"), "text/plain; charset=utf-8")
			is.Equal(resp.Header.Get("Content-Disposition"), `inline; filename=notes.txt`)
			is.Equal(resp.Header.Get("X-Content-Type-Options"), "nosniff")
			got, _, err = alice.GetIssueAttachment("alice", "tools", i.Index, a.ID)
			is.NoErr(err)
			is.Equal(got.DownloadCount, int64(1))

			// Renaming answers 201, as Gitea.
			r := srv.Do("PATCH", assets+"/"+formatID(a.ID), map[string]string{"name": "renamed.md"}, basicAs("bob")...)
			is.Equal(r.Status, http.StatusCreated)
			var renamed gitea.Attachment
			r.Decode(t, &renamed)
			is.Equal(renamed.Name, "renamed.md")
			assertInvalid(t, srv.Do("PATCH", assets+"/"+formatID(a.ID), map[string]string{"name": "run.exe"},
				basicAs("bob")...), "attachment")

			// A writer may delete it; the file goes with it.
			r = srv.Do("DELETE", assets+"/"+formatID(a.ID), nil, basicAs("carol")...)
			is.Equal(r.Status, http.StatusNoContent)
			assertAPIError(t, srv.Do("GET", assets+"/"+formatID(a.ID), nil), http.StatusNotFound, "")
			resp, _ = downloadAttachment(t, a.DownloadURL)
			is.Equal(resp.StatusCode, http.StatusNotFound)
		})

		t.Run("html is served as a download", func(t *testing.T) {
			is := is.New(t)
			r := uploadAttachment(srv, assets+"?name=page.txt", "x", []byte("<html><script>alert(1)</script></html>"), basicAs("bob")...)
			is.Equal(r.Status, http.StatusCreated)
			var a gitea.Attachment
			r.Decode(t, &a)
			resp, _ := downloadAttachment(t, a.DownloadURL)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.Equal(resp.Header.Get("Content-Type"), "application/octet-stream")
			is.True(strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;"))
		})

		t.Run("comment attachments", func(t *testing.T) {
			is := is.New(t)
			c := postComment(t, alice, "alice", "tools", i.Index, "see the file")
			a, _, err := alice.CreateIssueCommentAttachment("alice", "tools", c.ID, strings.NewReader("data"), "c.txt")
			is.NoErr(err)
			list, _, err := alice.ListIssueCommentAttachments("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(len(list), 1)
			got, _, err := bob.GetIssueComment("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(len(got.Attachments), 1) // the comment carries its assets
			is.Equal(got.Attachments[0].UUID, a.UUID)
			// Not an attachment of the issue itself, nor of another comment.
			assertAPIError(t, srv.Do("GET", assets+"/"+formatID(a.ID), nil), http.StatusNotFound, "")
			other := postComment(t, alice, "alice", "tools", i.Index, "other")
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/"+formatID(other.ID)+"/assets/"+formatID(a.ID), nil),
				http.StatusNotFound, "")

			edited, _, err := alice.EditIssueCommentAttachment("alice", "tools", c.ID, a.ID, gitea.EditAttachmentOptions{Name: "d.txt"})
			is.NoErr(err)
			is.Equal(edited.Name, "d.txt")

			// A poster without write access may not attach (Gitea's rule for comments).
			bc := postComment(t, bob, "alice", "tools", i.Index, "bob's")
			assertAPIError(t, uploadAttachment(srv, R+"/issues/comments/"+formatID(bc.ID)+"/assets", "b.txt", []byte("b"), basicAs("bob")...),
				http.StatusForbidden, "user should have permission to edit comment")
			// Nor may a writer on another's comment.
			assertAPIError(t, uploadAttachment(srv, R+"/issues/comments/"+formatID(c.ID)+"/assets", "b.txt", []byte("b"), basicAs("carol")...),
				http.StatusForbidden, "user should have permission to edit comment")

			// Deleting the comment deletes its attachments and their files.
			_, err = alice.DeleteIssueComment("alice", "tools", c.ID)
			is.NoErr(err)
			resp, _ := downloadAttachment(t, srv.URL+"/attachments/"+a.UUID)
			is.Equal(resp.StatusCode, http.StatusNotFound)

			r := srv.Do("DELETE", R+"/issues/comments/"+formatID(other.ID)+"/assets/1", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusNotFound)
		})

		t.Run("refused uploads", func(t *testing.T) {
			// Anonymous: 401; a reader who is not the poster: 403.
			assertAPIError(t, uploadAttachment(srv, assets, "a.txt", []byte("x")), http.StatusUnauthorized, "")
			assertAPIError(t, uploadAttachment(srv, assets, "a.txt", []byte("x"), basicAs("dave-missing")...), http.StatusUnauthorized, "")
			mine := openTestIssue(t, alice, "alice", "tools", "alice's", "")
			assertAPIError(t, uploadAttachment(srv, R+"/issues/"+formatID(mine.Index)+"/assets", "a.txt", []byte("x"), basicAs("bob")...),
				http.StatusForbidden, "user should have permission to write issue")
			// A type outside the allowed list, by name and by content.
			assertInvalid(t, uploadAttachment(srv, assets, "tool.exe", []byte("MZ\x90\x00\x03\x00\x00\x00"), basicAs("bob")...), "attachment")
			// Over the site's size: 413.
			big := bytes.Repeat([]byte("a"), 64<<10+1)
			assertAPIError(t, uploadAttachment(srv, assets, "big.txt", big, basicAs("bob")...), http.StatusRequestEntityTooLarge,
				"attachment size exceeds limit 65536")
			// No file at all, or not multipart.
			assertInvalid(t, srv.Do("POST", assets, nil, append([]string{"Content-Type", "multipart/form-data; boundary=x"},
				basicAs("bob")...)...), "attachment")
			assertAPIError(t, srv.Do("POST", assets, "{}", basicAs("bob")...), http.StatusBadRequest, "")
			assertAPIError(t, uploadAttachment(srv, R+"/issues/999/assets", "a.txt", []byte("x"), basicAs("bob")...), http.StatusNotFound, "")
			list, _, err := alice.ListIssueAttachments("alice", "tools", i.Index)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range list {
				if a.Name == "tool.exe" || a.Name == "big.txt" {
					t.Fatalf("refused upload stored: %+v", a)
				}
			}
		})

		t.Run("private repository", func(t *testing.T) {
			is := is.New(t)
			p := openTestIssue(t, alice, "alice", "secret", "hidden", "")
			a, _, err := alice.CreateIssueAttachment("alice", "secret", p.Index, strings.NewReader("psst"), "s.txt")
			is.NoErr(err)
			resp, _ := downloadAttachment(t, a.DownloadURL)
			is.Equal(resp.StatusCode, http.StatusNotFound)
			resp, _ = downloadAttachment(t, a.DownloadURL, basicAs("bob")...)
			is.Equal(resp.StatusCode, http.StatusNotFound)
			resp, body := downloadAttachment(t, a.DownloadURL, basicAs("alice")...)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.Equal(string(body), "psst")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/issues/"+formatID(p.Index)+"/assets", nil), http.StatusNotFound, "")
			resp, _ = downloadAttachment(t, srv.URL+"/attachments/not-a-uuid")
			is.Equal(resp.StatusCode, http.StatusNotFound)
		})

		t.Run("archived repository", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "attic"})
			ai := openTestIssue(t, alice, "alice", "attic", "old", "")
			a, _, err := alice.CreateIssueAttachment("alice", "attic", ai.Index, strings.NewReader("old"), "o.txt")
			is.NoErr(err)
			yes := true
			_, _, err = alice.EditRepo("alice", "attic", gitea.EditRepoOption{Archived: &yes})
			is.NoErr(err)
			base := "/repos/alice/attic/issues/" + formatID(ai.Index) + "/assets"
			assertAPIError(t, uploadAttachment(srv, base, "n.txt", []byte("n"), basicAs("alice")...), http.StatusLocked, "")
			assertAPIError(t, srv.Do("DELETE", base+"/"+formatID(a.ID), nil, basicAs("alice")...), http.StatusLocked, "")
			list, _, err := alice.ListIssueAttachments("alice", "attic", ai.Index)
			is.NoErr(err)
			is.Equal(len(list), 1)
		})
	})
}

func TestIssueAttachmentsDisabled(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.DisableAttachments = true
		}))...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		i := openTestIssue(t, alice, "alice", "tools", "no files", "")
		c := postComment(t, alice, "alice", "tools", i.Index, "none")
		const R = "/repos/alice/tools"
		got, _, err := alice.GetGlobalAttachmentSettings()
		is.NoErr(err)
		is.True(!got.Enabled)
		for _, p := range []string{R + "/issues/" + formatID(i.Index) + "/assets", R + "/issues/" + formatID(i.Index) + "/assets/1",
			R + "/issues/comments/" + formatID(c.ID) + "/assets"} {
			assertAPIError(t, srv.Do("GET", p, nil, basicAs("alice")...), http.StatusNotFound, "")
		}
		assertAPIError(t, uploadAttachment(srv, R+"/issues/"+formatID(i.Index)+"/assets", "a.txt", []byte("x"), basicAs("alice")...),
			http.StatusNotFound, "")
		resp, _ := downloadAttachment(t, srv.URL+"/attachments/00000000-0000-4000-8000-000000000000")
		is.Equal(resp.StatusCode, http.StatusNotFound)
		// Comments still work, without assets.
		back, _, err := alice.GetIssueComment("alice", "tools", c.ID)
		is.NoErr(err)
		is.Equal(len(back.Attachments), 0)
	})
}
