package test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// orgAvatarFetch GETs an absolute URL without credentials.
func orgAvatarFetch(t *testing.T, url string) (int, string, []byte) {
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

// orgAvatarURL is the organisation's avatar_url, as anyone sees it.
func orgAvatarURL(t *testing.T, srv *testserver.Server, name string) string {
	t.Helper()
	o, _, err := srv.Client().GetOrg(name)
	if err != nil {
		t.Fatalf("get org %s: %v", name, err)
	}
	return o.AvatarURL
}

// TestOrgAvatar covers POST and DELETE /orgs/{org}/avatar: the stored and
// served image, replacing and removing it, validation and the OO rule.
func TestOrgAvatar(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
		team := orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode}}, "dave")
		const P = "/orgs/acme/avatar"
		img := base64.StdEncoding.EncodeToString(gradientPNG(t, 64, 40))
		var first string

		t.Run("upload", func(t *testing.T) {
			is := is.New(t)
			is.Equal(orgAvatarURL(t, srv, "acme"), "") // none yet
			resp, err := aliceC.UpdateOrgAvatar("acme", gitea.UpdateUserAvatarOption{Image: img})
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			first = orgAvatarURL(t, srv, "acme")
			is.True(strings.HasPrefix(first, srv.URL+"/avatars/"))
			status, ctype, body := orgAvatarFetch(t, first)
			is.Equal(status, http.StatusOK)
			is.Equal(ctype, "image/png")
			got, err := png.Decode(bytes.NewReader(body))
			is.NoErr(err)
			is.Equal(got.Bounds().Dx(), got.Bounds().Dy()) // resized to a square
			// The organisation inside a team shows it too.
			r := srv.Do("GET", "/teams/"+strconv.FormatInt(team.ID, 10), nil, basicAs("dave")...)
			var tm gitea.Team
			r.Decode(t, &tm)
			is.Equal(tm.Organization.AvatarURL, first)
		})

		t.Run("replace", func(t *testing.T) {
			is := is.New(t)
			other := base64.StdEncoding.EncodeToString(gradientPNG(t, 30, 90))
			// A site admin may change it too.
			blockWant(t, srv, "POST", P, map[string]string{"image": other}, http.StatusNoContent, "", adminHeader(srv)...)
			now := orgAvatarURL(t, srv, "acme")
			is.True(now != "" && now != first)
			status, _, _ := orgAvatarFetch(t, now)
			is.Equal(status, http.StatusOK)
			status, _, _ = orgAvatarFetch(t, first) // the replaced file is gone
			is.Equal(status, http.StatusNotFound)
			first = now
		})

		t.Run("invalid", func(t *testing.T) {
			is := is.New(t)
			as := basicAs("alice")
			assertAPIError(t, srv.Do("POST", P, map[string]string{"image": "!!! not base64 !!!"}, as...), http.StatusBadRequest, "")
			assertInvalid(t, srv.Do("POST", P, map[string]string{"image": base64.StdEncoding.EncodeToString([]byte("hello, not an image"))}, as...), "image")
			assertInvalid(t, srv.Do("POST", P, map[string]string{"image": ""}, as...), "Image")
			assertInvalid(t, srv.Do("POST", P, "{}", as...), "Image")
			assertAPIError(t, srv.Do("POST", P, "{", as...), http.StatusBadRequest, "")
			is.Equal(orgAvatarURL(t, srv, "acme"), first) // unchanged
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			body := map[string]string{"image": img}
			for _, m := range []string{"POST", "DELETE"} {
				assertAPIError(t, srv.Do(m, P, body), http.StatusUnauthorized, orgMsgNoToken)
				assertAPIError(t, srv.Do(m, P, body, basicAs("carol")...), http.StatusForbidden, orgMsgOwner) // outsider
				assertAPIError(t, srv.Do(m, P, body, basicAs("dave")...), http.StatusForbidden, orgMsgOwner)  // member
				assertAPIError(t, srv.Do(m, "/orgs/nope/avatar", body, basicAs("alice")...), http.StatusNotFound, orgMsgNotFound)
			}
			is.Equal(orgAvatarURL(t, srv, "acme"), first)
		})

		t.Run("delete", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.DeleteOrgAvatar("acme")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			is.Equal(orgAvatarURL(t, srv, "acme"), "")
			status, _, _ := orgAvatarFetch(t, first)
			is.Equal(status, http.StatusNotFound)
			// Removing none is no error.
			blockWant(t, srv, "DELETE", P, nil, http.StatusNoContent, "", basicAs("alice")...)
			status, _, _ = orgAvatarFetch(t, srv.URL+"/avatars/nothing-here")
			is.Equal(status, http.StatusNotFound)
		})
	})
}
