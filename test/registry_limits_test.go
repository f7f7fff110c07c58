package test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// streamed is a body whose length the client does not know, so it is sent
// chunked, without a Content-Length the server could refuse up front.
func streamed(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) }

// TestRegistryBodyLimits sends every registry a streamed body past the
// site's max_body_bytes and gets 413 in that registry's own format: plain
// text from the generic, PyPI and Go registries, npm's {"error"} and the
// distribution spec's SIZE_INVALID; nothing is stored. A dist-tag body
// past npm's own 1 KiB bound is 413 too.
func TestRegistryBodyLimits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxBodyBytes = 4096 }))
	socialAccounts(t, srv, "alice")
	big := strings.Repeat("x", 8192)
	send := func(method, path, contentType string, body io.Reader, auth string) (int, string, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, body)
		is.NoErr(err)
		req.Header.Set("Authorization", auth)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(raw)
	}
	basic := testserver.Basic("alice", userPassword)

	status, ct, body := send("PUT", "/api/packages/alice/generic/tool/1/f.bin", "", streamed(big), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.True(strings.HasPrefix(ct, "text/plain"))
	is.Equal(body, "request body too large\n")

	status, ct, body = send("PUT", "/api/packages/alice/npm/left-pad", "application/json",
		streamed(`{"name":"left-pad","versions":{"1.0.0":{}},"_attachments":{"left-pad-1.0.0.tgz":{"data":"`+big+`"}}}`), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.True(strings.HasPrefix(ct, "application/json"))
	var npmErr struct {
		Error string `json:"error"`
	}
	is.NoErr(json.Unmarshal([]byte(body), &npmErr))
	is.Equal(npmErr.Error, "request body too large")

	form := "--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\ntool\r\n--b\r\nContent-Disposition: form-data; name=\"version\"\r\n\r\n1.0\r\n--b\r\nContent-Disposition: form-data; name=\"sha256_digest\"\r\n\r\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n--b\r\nContent-Disposition: form-data; name=\"content\"; filename=\"tool-1.tar.gz\"\r\n\r\n" + big + "\r\n--b--\r\n"
	status, ct, body = send("POST", "/api/packages/alice/pypi", "multipart/form-data; boundary=b", streamed(form), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.True(strings.HasPrefix(ct, "text/plain"))
	is.Equal(body, "request body too large\n")

	status, _, body = send("PUT", "/api/packages/alice/npm/-/package/left-pad/dist-tags/beta", "application/json",
		strings.NewReader(`"`+strings.Repeat("1", 2000)+`"`), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.NoErr(json.Unmarshal([]byte(body), &npmErr))
	is.Equal(npmErr.Error, "request body exceeds 1024 bytes")

	digest := "sha256:" + strings.Repeat("a", 64)
	status, ct, body = send("POST", "/v2/alice/tool/blobs/uploads/?digest="+digest, "", streamed(big), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.True(strings.HasPrefix(ct, "application/json"))
	is.True(strings.Contains(body, `"code":"SIZE_INVALID"`))
	status, _, body = send("PUT", "/v2/alice/tool/manifests/latest", "application/vnd.oci.image.manifest.v1+json", streamed(big), basic)
	is.Equal(status, http.StatusRequestEntityTooLarge)
	is.True(strings.Contains(body, `"code":"SIZE_INVALID"`))

	is.Equal(countPackageBlobs(t, srv), 0)
}
