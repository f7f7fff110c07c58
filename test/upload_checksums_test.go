package test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func TestUploadChecksums(t *testing.T) {
	t.Parallel()
	backends(t, uploadChecksums)
}

// uploadChecksums downloads a release asset and an issue attachment: each
// carries the SHA-256 of its bytes, computed as they were stored, as its
// strong ETag and as Repr-Digest; a download with that tag is a 304, and a
// resumed range with it gets the rest.
func uploadChecksums(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	alice := releaseRepo(t, srv, "code", false)
	rel, _, err := alice.CreateRelease("alice", "code", gitea.CreateReleaseOption{TagName: "v1", Title: "One"})
	is.NoErr(err)
	zip := append([]byte("PK\x03\x04"), bytes.Repeat([]byte("checksum"), 4096)...)
	asset, _, err := alice.CreateReleaseAttachment("alice", "code", rel.ID, bytes.NewReader(zip), "tool.zip")
	is.NoErr(err)
	issue := createIssueOK(t, alice, "alice", "code", gitea.CreateIssueOption{Title: "with a file"})
	note := []byte("hello, world\n")
	att, _, err := alice.CreateIssueAttachment("alice", "code", issue.Index, bytes.NewReader(note), "notes.txt")
	is.NoErr(err)

	for _, c := range []struct {
		url  string
		body []byte
	}{
		{asset.DownloadURL, zip},
		{srv.URL + "/alice/code/releases/download/v1/tool.zip", zip},
		{att.DownloadURL, note},
	} {
		sum := sha256.Sum256(c.body)
		get := func(header ...string) *http.Response {
			req, _ := http.NewRequest("GET", c.url, nil)
			req.Header.Set("Authorization", testserver.Basic("alice", userPassword))
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			return resp
		}
		resp := get()
		body, err := io.ReadAll(resp.Body)
		is.NoErr(err)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(body, c.body)
		is.Equal(resp.Header.Get("ETag"), `"`+hex.EncodeToString(sum[:])+`"`)
		is.Equal(resp.Header.Get("Repr-Digest"), "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")

		resp = get("If-None-Match", resp.Header.Get("ETag"))
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusNotModified)

		// A resumed download of the same bytes gets the rest; with another
		// tag it starts over.
		resp = get("Range", "bytes=4-", "If-Range", `"`+hex.EncodeToString(sum[:])+`"`)
		rest, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusPartialContent)
		is.Equal(rest, c.body[4:])
		resp = get("Range", "bytes=4-", "If-Range", `"`+strings.Repeat("0", 64)+`"`)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
	}
}
