package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestOAuth2Applications covers /user/applications/oauth2 with the SDK:
// create (secret shown once), list and get (secret hidden), edit (a new
// secret), delete, validation, and that another user's application is 404.
func TestOAuth2Applications(t *testing.T) {
	t.Parallel()
	backends(t, testOAuth2Applications)
}

func testOAuth2Applications(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "mallory")
	alice, mallory := userClient(srv, "alice"), userClient(srv, "mallory")
	is := is.New(t)

	app, resp, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "ci bot", ConfidentialClient: true,
		RedirectURIs: []string{"https://ci.example/callback", "http://127.0.0.1:9999/cb"}})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	is.True(app.ID > 0)
	is.Equal(app.Name, "ci bot")
	is.Equal(len(app.ClientID), 36) // a UUID
	is.True(len(app.ClientSecret) > 20)
	is.True(app.ConfidentialClient)
	is.Equal(app.RedirectURIs, []string{"https://ci.example/callback", "http://127.0.0.1:9999/cb"})
	is.True(!app.Created.IsZero())

	got, _, err := alice.GetOauth2(app.ID)
	is.NoErr(err)
	is.Equal(got.ClientSecret, "")
	is.Equal(got.ClientID, app.ClientID)

	second, _, err := alice.CreateOauth2(gitea.CreateOauth2Option{Name: "second", RedirectURIs: []string{"com.example.app:/cb"}})
	is.NoErr(err)
	is.True(!second.ConfidentialClient)
	list, resp, err := alice.ListOauth2(gitea.ListOauth2Option{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
	is.NoErr(err)
	is.Equal(resp.Header.Get("X-Total-Count"), "2")
	is.Equal(len(list), 1)
	is.Equal(list[0].ID, app.ID)
	is.Equal(list[0].ClientSecret, "")

	// An edit replaces the settings and makes a new secret.
	edited, resp, err := alice.UpdateOauth2(app.ID, gitea.CreateOauth2Option{Name: "ci bot 2", ConfidentialClient: false,
		RedirectURIs: []string{"https://ci.example/cb2"}})
	assertSDKStatus(t, resp, err, http.StatusOK)
	is.Equal(edited.Name, "ci bot 2")
	is.Equal(edited.ClientID, app.ClientID)
	is.True(edited.ClientSecret != "" && edited.ClientSecret != app.ClientSecret)
	is.True(!edited.ConfidentialClient)
	is.Equal(edited.RedirectURIs, []string{"https://ci.example/cb2"})

	// Validation: 422 naming the field; nothing is written.
	for _, body := range []map[string]any{
		{"name": "", "redirect_uris": []string{"https://a.example"}},
		{"name": "x", "redirect_uris": []string{}},
		{"name": "x", "redirect_uris": []string{"not a uri"}},
	} {
		r := srv.Do("POST", "/user/applications/oauth2", body, basicAs("alice")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
	}
	r := srv.Do("POST", "/user/applications/oauth2", "{", basicAs("alice")...)
	is.True(r.Status == http.StatusBadRequest || r.Status == http.StatusUnprocessableEntity)
	_, resp, _ = alice.ListOauth2(gitea.ListOauth2Option{})
	is.Equal(resp.Header.Get("X-Total-Count"), "2")

	// Access: anonymous 401; another user sees 404 for every route on it;
	// a token needs the user scope.
	is.Equal(srv.Do("GET", "/user/applications/oauth2", nil).Status, http.StatusUnauthorized)
	_, resp, err = mallory.GetOauth2(app.ID)
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	_, resp, err = mallory.UpdateOauth2(app.ID, gitea.CreateOauth2Option{Name: "mine", RedirectURIs: []string{"https://evil.example"}})
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	resp, err = mallory.DeleteOauth2(app.ID)
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	mlist, _, err := mallory.ListOauth2(gitea.ListOauth2Option{})
	is.NoErr(err)
	is.Equal(len(mlist), 0)
	is.Equal(srv.Do("GET", "/user/applications/oauth2/abc", nil, basicAs("alice")...).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", "/user/applications/oauth2", nil, tokenHeader(srv, "alice", "read:repository")...).Status, http.StatusForbidden)
	is.Equal(srv.Do("GET", "/user/applications/oauth2", nil, tokenHeader(srv, "alice", "read:user")...).Status, http.StatusOK)
	is.Equal(srv.Do("POST", "/user/applications/oauth2", map[string]any{"name": "x", "redirect_uris": []string{"https://a.example"}},
		tokenHeader(srv, "alice", "read:user")...).Status, http.StatusForbidden)

	resp, err = alice.DeleteOauth2(app.ID)
	assertSDKStatus(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.GetOauth2(app.ID)
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	resp, err = alice.DeleteOauth2(app.ID)
	assertSDKStatus(t, resp, err, http.StatusNotFound)
}
