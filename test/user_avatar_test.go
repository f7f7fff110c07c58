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
