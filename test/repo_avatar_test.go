package test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// gradientPNG encodes a w×h PNG with a diagonal gradient.
func gradientPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x * 255 / w), G: uint8(y * 255 / h), B: 128, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatalf("png: %v", err)
	}
	return buf.Bytes()
}

// TestSocRepoAvatar covers uploading, serving and removing a repository
// avatar, its validation and access rules.
func TestSocRepoAvatar(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "carol", "sam", "ada", "walt")
	createRepoAs(t, srv, "carol", "pretty", false)
	createRepoAs(t, srv, "carol", "veiled", true)
	socialCollab(t, srv, "carol", "pretty", "ada", gitea.AccessModeAdmin)
	socialCollab(t, srv, "carol", "pretty", "walt", gitea.AccessModeWrite)
	carol := userClient(srv, "carol")
	const R = "/repos/carol/pretty/avatar"
	img := base64.StdEncoding.EncodeToString(gradientPNG(t, 64, 40))
	var firstURL string

	fetch := func(t *testing.T, url string) (int, string, []byte) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatalf("get %s: %v", url, err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("read %s: %v", url, err)
		}
		return resp.StatusCode, resp.Header.Get("Content-Type"), body
	}

	t.Run("upload", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.UpdateRepoAvatar("carol", "pretty", gitea.UpdateRepoAvatarOption{Image: img})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, repo := getRepoAs(t, srv, "carol", "pretty", basicAs("carol")...)
		is.True(strings.HasPrefix(repo.AvatarURL, srv.URL+"/"))
		firstURL = repo.AvatarURL

		status, ctype, body := fetch(t, repo.AvatarURL)
		is.Equal(status, http.StatusOK)
		is.Equal(ctype, "image/png")
		got, err := png.Decode(bytes.NewReader(body))
		is.NoErr(err)
		is.Equal(got.Bounds().Dx(), 290)
		is.Equal(got.Bounds().Dy(), 290)
	})

	t.Run("replace", func(t *testing.T) {
		is := is.New(t)
		other := base64.StdEncoding.EncodeToString(gradientPNG(t, 300, 500))
		is.Equal(srv.Do("POST", R, map[string]string{"image": other}, basicAs("ada")...).Status, http.StatusNoContent)
		_, repo := getRepoAs(t, srv, "carol", "pretty", basicAs("carol")...)
		is.True(repo.AvatarURL != "")
		is.True(repo.AvatarURL != firstURL)
		status, _, body := fetch(t, repo.AvatarURL)
		is.Equal(status, http.StatusOK)
		cfg, err := png.DecodeConfig(bytes.NewReader(body))
		is.NoErr(err)
		is.Equal(cfg.Width, 290)
		is.Equal(cfg.Height, 290)
		// The replaced image is gone.
		status, _, _ = fetch(t, firstURL)
		is.Equal(status, http.StatusNotFound)
	})

	t.Run("invalid", func(t *testing.T) {
		is := is.New(t)
		before, _ := getRepoAs(t, srv, "carol", "pretty", basicAs("carol")...)
		is.Equal(before, http.StatusOK)
		assertAPIError(t, srv.Do("POST", R, map[string]string{"image": "!!! not base64 !!!"}, basicAs("carol")...), http.StatusBadRequest, "")
		assertAPIError(t, srv.Do("POST", R, map[string]string{"image": base64.StdEncoding.EncodeToString([]byte("hello, not an image"))},
			basicAs("carol")...), http.StatusUnprocessableEntity, "")
		assertAPIError(t, srv.Do("POST", R, map[string]string{"image": ""}, basicAs("carol")...), http.StatusUnprocessableEntity, "")
		assertAPIError(t, srv.Do("POST", R, "{}", basicAs("carol")...), http.StatusUnprocessableEntity, "")
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		body := map[string]string{"image": img}
		for _, m := range []string{"POST", "DELETE"} {
			assertAPIError(t, srv.Do(m, R, body), http.StatusUnauthorized, msgTokenRequired)
			assertAPIError(t, srv.Do(m, R, body, basicAs("sam")...), http.StatusForbidden, msgRepoAdmin)
			assertAPIError(t, srv.Do(m, R, body, basicAs("walt")...), http.StatusForbidden, msgRepoAdmin)
			assertAPIError(t, srv.Do(m, "/repos/carol/veiled/avatar", body, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/veiled/avatar", body), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/veiled/avatar", body, tokenHeader(srv, "carol", "public-only", "write:repository")...),
				http.StatusForbidden, msgPublicOnly)
		}
		scopeWantDenied(is, srv.Do("POST", R, body, tokenHeader(srv, "carol", "read:repository")...), "write:repository", "read:repository")
		is.Equal(srv.Do("POST", "/repos/carol/veiled/avatar", body, socialAdmin(srv)...).Status, http.StatusNoContent)
		_, repo := getRepoAs(t, srv, "carol", "veiled", basicAs("carol")...)
		is.True(repo.AvatarURL != "")
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		_, repo := getRepoAs(t, srv, "carol", "pretty", basicAs("carol")...)
		old := repo.AvatarURL
		resp, err := carol.DeleteRepoAvatar("carol", "pretty")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, repo = getRepoAs(t, srv, "carol", "pretty", basicAs("carol")...)
		is.Equal(repo.AvatarURL, "")
		status, _, _ := fetch(t, old)
		is.Equal(status, http.StatusNotFound)
		// Deleting none succeeds.
		is.Equal(srv.Do("DELETE", R, nil, basicAs("carol")...).Status, http.StatusNoContent)
	})

	t.Run("archived", func(t *testing.T) {
		is := is.New(t)
		_, _, err := carol.EditRepo("carol", "pretty", gitea.EditRepoOption{Archived: gitea.OptionalBool(true)})
		is.NoErr(err)
		assertAPIError(t, srv.Do("POST", R, map[string]string{"image": img}, basicAs("carol")...), http.StatusLocked, "carol/pretty is archived")
		assertAPIError(t, srv.Do("DELETE", R, nil, basicAs("carol")...), http.StatusLocked, "carol/pretty is archived")
	})
}
