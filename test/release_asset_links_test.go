package test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// releaseAssetLink is Forgejo's Attachment, with its type.
type releaseAssetLink struct {
	gitea.Attachment
	Type string `json:"type"`
}

// postAssetForm posts a multipart form of fields (name, value pairs) to path.
func postAssetForm(srv *testserver.Server, path string, fields []string, header ...string) testserver.Response {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i] == "attachment" {
			part, _ := w.CreateFormFile("attachment", "notes.txt")
			_, _ = part.Write([]byte(fields[i+1]))
			continue
		}
		_ = w.WriteField(fields[i], fields[i+1])
	}
	_ = w.Close()
	return srv.Do("POST", path, body.Bytes(), append([]string{"Content-Type", w.FormDataContentType()}, header...)...)
}

// TestReleaseAssetLinks: a release asset may be a link (Forgejo's
// external_url): it is listed as type external with the link as its
// download address, its downloads redirect there uncounted, its address
// can be edited (an uploaded file's cannot), and bad addresses are 400.
func TestReleaseAssetLinks(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := releaseRepo(t, srv, "code", false)
	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	assets := "/repos/alice/code/releases/" + itoaTest(rel.ID) + "/assets"
	as := basicAs("alice")

	r := postAssetForm(srv, assets, []string{"external_url", "https://example.org/dl/tool-1.0.zip"}, as...)
	is.Equal(r.Status, http.StatusCreated)
	var link releaseAssetLink
	r.Decode(t, &link)
	is.Equal(link.Type, "external")
	is.Equal(link.Name, "tool-1.0.zip")
	is.Equal(link.DownloadURL, "https://example.org/dl/tool-1.0.zip")
	is.Equal(link.Size, int64(0))

	r = postAssetForm(srv, assets+"?name=Site", []string{"external_url", "http://example.org"}, as...)
	is.Equal(r.Status, http.StatusCreated)
	var named releaseAssetLink
	r.Decode(t, &named)
	is.Equal(named.Name, "Site")
	r = postAssetForm(srv, assets, []string{"name", "Mirror", "external_url", "http://example.org"}, as...)
	is.Equal(r.Status, http.StatusCreated)
	r.Decode(t, &named)
	is.Equal(named.Name, "Mirror")

	r = postAssetForm(srv, assets, []string{"attachment", "plain notes"}, as...)
	is.Equal(r.Status, http.StatusCreated)
	var file releaseAssetLink
	r.Decode(t, &file)
	is.Equal(file.Type, "attachment")

	got, _, err := alice.GetRelease("alice", "code", rel.ID)
	is.NoErr(err)
	is.Equal(len(got.Attachments), 4)
	is.Equal(got.Attachments[0].DownloadURL, "https://example.org/dl/tool-1.0.zip")

	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, addr := range []string{srv.URL + "/attachments/" + link.UUID, srv.URL + "/alice/code/releases/download/v1/tool-1.0.zip"} {
		resp, err := noFollow.Get(addr)
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusSeeOther)
		is.Equal(resp.Header.Get("Location"), "https://example.org/dl/tool-1.0.zip")
	}
	one, _, err := alice.GetReleaseAttachment("alice", "code", rel.ID, link.ID)
	is.NoErr(err)
	is.Equal(one.DownloadCount, int64(0)) // a link's downloads are not counted

	r = srv.Do("PATCH", assets+"/"+itoaTest(link.ID), map[string]any{"browser_download_url": "https://example.net/t.zip"}, as...)
	is.Equal(r.Status, http.StatusCreated)
	r.Decode(t, &link)
	is.Equal(link.DownloadURL, "https://example.net/t.zip")
	is.Equal(link.Name, "tool-1.0.zip")
	assertAPIError(t, srv.Do("PATCH", assets+"/"+itoaTest(file.ID), map[string]any{"browser_download_url": "https://example.net/"}, as...),
		http.StatusBadRequest, "existing attachment is not external")
	assertAPIError(t, srv.Do("PATCH", assets+"/"+itoaTest(link.ID), map[string]any{"browser_download_url": "javascript:alert(1)"}, as...),
		http.StatusUnprocessableEntity, "")

	t.Run("BadInput", func(t *testing.T) {
		for _, bad := range []string{"ftp://example.org/a", "javascript:alert(1)", "/local", "example.org/a.zip", "http://", "https://u:p@example.org/"} {
			r := postAssetForm(srv, assets, []string{"external_url", bad}, as...)
			assertAPIError(t, r, http.StatusUnprocessableEntity, "")
			is.True(strings.Contains(r.Message(), "external_url"))
			is.True(!strings.Contains(string(r.Body), "u:p@")) // credentials never echoed
		}
		assertAPIError(t, postAssetForm(srv, assets, []string{"external_url", "https://example.org/a", "attachment", "x"}, as...),
			http.StatusBadRequest, "'attachment' and 'external_url' are mutually exclusive")
		assertAPIError(t, postAssetForm(srv, assets, []string{"name", "x"}, as...),
			http.StatusBadRequest, "One of 'attachment' or 'external_url' is required")
		assertAPIError(t, srv.Do("POST", assets+"?name=a.txt&external_url=https://example.org/", "x",
			append(as, "Content-Type", "application/octet-stream")...), http.StatusBadRequest, "")
		assertAPIError(t, postAssetForm(srv, "/repos/alice/code/releases/999999/assets", []string{"external_url", "https://example.org/a"}, as...),
			http.StatusNotFound, "")
		assertAPIError(t, postAssetForm(srv, assets, []string{"external_url", "https://example.org/a"}, basicAs("reader")...),
			http.StatusForbidden, "")
		list, _, err := alice.ListReleaseAttachments("alice", "code", rel.ID, gitea.ListReleaseAttachmentsOptions{})
		if err != nil || len(list) != 4 {
			t.Fatalf("assets after refusals: %d, %v", len(list), err)
		}
	})

	_, err = alice.DeleteReleaseAttachment("alice", "code", rel.ID, link.ID)
	is.NoErr(err)
	_, err = alice.DeleteRelease("alice", "code", rel.ID)
	is.NoErr(err)
}
