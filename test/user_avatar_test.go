package test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// TestUserAvatarGenerated: every user object carries an avatar_url that
// answers an image. Gitea 1.27, in its default offline mode, gives an
// account without an upload a generated identicon (models/user/avatar.go
// GenerateRandomAvatar, "u.Avatar = avatars.HashEmail(seed)", served at
// "<base>/avatars/<hash>"); clients fetch avatar_url and expect a picture.
// The link is the same wherever the user appears (the user, an issue's
// poster, a repository's owner, an organisation's members), the image is
// the same on every fetch, and two users get two different images. An
// uploaded avatar still wins, and a hash Depot never handed out is a 404.
func TestUserAvatarGenerated(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		alice, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		bob, _ := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		anon := srv.Client()

		var aliceImg []byte
		t.Run("a user's avatar_url answers a PNG", func(t *testing.T) {
			is := is.New(t)
			u, _, err := anon.GetUserInfo("alice")
			is.NoErr(err)
			is.True(strings.HasPrefix(u.AvatarURL, srv.URL+"/avatars/"))
			is.Equal(u.AvatarURL, alice.AvatarURL) // as the admin saw it at creation
			status, ctype, body := orgAvatarFetch(t, u.AvatarURL)
			is.Equal(status, http.StatusOK)
			is.Equal(ctype, "image/png")
			img, err := png.Decode(bytes.NewReader(body))
			is.NoErr(err)
			is.Equal(img.Bounds().Dx(), img.Bounds().Dy())
			// Deterministic: the same bytes again, the same link again.
			_, _, again := orgAvatarFetch(t, u.AvatarURL)
			is.True(bytes.Equal(body, again))
			u2, _, err := aliceC.GetMyUserInfo()
			is.NoErr(err)
			is.Equal(u2.AvatarURL, u.AvatarURL)
			aliceImg = body
		})

		t.Run("two users, two images", func(t *testing.T) {
			is := is.New(t)
			is.True(bob.AvatarURL != "" && bob.AvatarURL != alice.AvatarURL)
			status, _, body := orgAvatarFetch(t, bob.AvatarURL)
			is.Equal(status, http.StatusOK)
			is.True(!bytes.Equal(body, aliceImg))
		})

		t.Run("the same link wherever the user appears", func(t *testing.T) {
			is := is.New(t)
			repo := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pics"})
			is.Equal(repo.Owner.AvatarURL, alice.AvatarURL)
			i, _, err := aliceC.CreateIssue("alice", "pics", gitea.CreateIssueOption{Title: "hello"})
			is.NoErr(err)
			is.Equal(i.Poster.AvatarURL, alice.AvatarURL)
			list, _, err := anon.ListRepoIssues("alice", "pics", gitea.ListIssueOption{})
			is.NoErr(err)
			is.Equal(len(list), 1)
			is.Equal(list[0].Poster.AvatarURL, alice.AvatarURL)
			orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
			members, _, err := aliceC.ListOrgMembership("acme", gitea.ListOrgMembershipOption{})
			is.NoErr(err)
			is.Equal(len(members), 1)
			is.Equal(members[0].AvatarURL, alice.AvatarURL)
		})

		t.Run("an upload wins over the generated one", func(t *testing.T) {
			is := is.New(t)
			_, err := aliceC.UpdateOrgAvatar("acme", gitea.UpdateUserAvatarOption{Image: base64.StdEncoding.EncodeToString(gradientPNG(t, 40, 40))})
			is.NoErr(err)
			org, _, err := anon.GetOrg("acme")
			is.NoErr(err)
			is.True(org.AvatarURL != "")
			r, _, err := aliceC.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "logo"})
			is.NoErr(err)
			is.Equal(r.Owner.AvatarURL, org.AvatarURL)
		})

		t.Run("unknown hashes stay 404", func(t *testing.T) {
			is := is.New(t)
			for _, h := range []string{"nothing-here", strings.Repeat("a", 32), strings.Repeat("0", 31) + "g"} {
				status, _, _ := orgAvatarFetch(t, srv.URL+"/avatars/"+h)
				is.Equal(status, http.StatusNotFound)
			}
		})
	})
}

// TestUserAvatarUpload covers POST and DELETE /user/avatar: an upload
// replaces the generated avatar_url wherever the user appears, a second
// upload replaces the first (whose file goes), bad images are refused
// without a change, and a delete brings the generated default back.
func TestUserAvatarUpload(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		alice, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		generated := alice.AvatarURL
		avatarOf := func(t *testing.T) string {
			t.Helper()
			u, _, err := bobC.GetUserInfo("alice")
			if err != nil {
				t.Fatalf("get alice: %v", err)
			}
			return u.AvatarURL
		}
		var first string

		t.Run("upload", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.UpdateUserAvatar(gitea.UpdateUserAvatarOption{Image: base64.StdEncoding.EncodeToString(gradientPNG(t, 64, 40))})
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			first = avatarOf(t)
			is.True(strings.HasPrefix(first, srv.URL+"/avatars/"))
			is.True(first != generated)
			me, _, err := aliceC.GetMyUserInfo()
			is.NoErr(err)
			is.Equal(me.AvatarURL, first)
			status, ctype, body := orgAvatarFetch(t, first)
			is.Equal(status, http.StatusOK)
			is.Equal(ctype, "image/png")
			img, err := png.Decode(bytes.NewReader(body))
			is.NoErr(err)
			is.Equal(img.Bounds().Dx(), img.Bounds().Dy()) // resized to a square
			repo := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pics"})
			is.Equal(repo.Owner.AvatarURL, first)
			other, _, err := bobC.GetUserInfo("bob")
			is.NoErr(err)
			is.True(other.AvatarURL != first) // bob's own is untouched
		})

		t.Run("replace", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "POST", "/user/avatar", map[string]string{"image": base64.StdEncoding.EncodeToString(gradientPNG(t, 30, 90))},
				http.StatusNoContent, "", tokenHeader(srv, "alice", "write:user")...)
			now := avatarOf(t)
			is.True(now != first && now != generated)
			status, _, _ := orgAvatarFetch(t, first) // the replaced file is gone
			is.Equal(status, http.StatusNotFound)
			first = now
		})

		t.Run("invalid", func(t *testing.T) {
			is := is.New(t)
			as := basicAs("alice")
			const P = "/user/avatar"
			assertAPIError(t, srv.Do("POST", P, map[string]string{"image": "!!! not base64 !!!"}, as...), http.StatusBadRequest, "")
			assertInvalid(t, srv.Do("POST", P, map[string]string{"image": base64.StdEncoding.EncodeToString([]byte("hello, not an image"))}, as...), "image")
			assertInvalid(t, srv.Do("POST", P, map[string]string{"image": ""}, as...), "Image")
			assertInvalid(t, srv.Do("POST", P, "{}", as...), "Image")
			assertAPIError(t, srv.Do("POST", P, "{", as...), http.StatusBadRequest, "")
			huge := base64.StdEncoding.EncodeToString(append(gradientPNG(t, 8, 8), make([]byte, 1<<20)...))
			assertInvalid(t, srv.Do("POST", P, map[string]string{"image": huge}, as...), "image") // over 1 MiB
			// Unchanged.
			is.Equal(avatarOf(t), first)
		})

		t.Run("access", func(t *testing.T) {
			is := is.New(t)
			body := map[string]string{"image": base64.StdEncoding.EncodeToString(gradientPNG(t, 8, 8))}
			for _, m := range []string{"POST", "DELETE"} {
				assertAPIError(t, srv.Do(m, "/user/avatar", body), http.StatusUnauthorized, "")
				scopeWantDenied(is, srv.Do(m, "/user/avatar", body, tokenHeader(srv, "alice", "read:user")...), "write:user", "read:user")
			}
			is.Equal(avatarOf(t), first)
		})

		t.Run("delete", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.DeleteUserAvatar()
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			is.Equal(avatarOf(t), generated) // the generated default again
			status, _, _ := orgAvatarFetch(t, first)
			is.Equal(status, http.StatusNotFound)
			status, _, _ = orgAvatarFetch(t, generated)
			is.Equal(status, http.StatusOK)
			resp, err = aliceC.DeleteUserAvatar() // none: no error
			assertSDKStatus(t, resp, err, http.StatusNoContent)
		})
	})
}

// TestUserAvatarBodyLimit: a body past the site's limit is a 413.
func TestUserAvatarBodyLimit(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxBodyBytes = 4 << 10 }))
	newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	big := base64.StdEncoding.EncodeToString(make([]byte, 16<<10))
	assertAPIError(t, srv.Do("POST", "/user/avatar", map[string]string{"image": big}, basicAs("alice")...), http.StatusRequestEntityTooLarge, "")
}
