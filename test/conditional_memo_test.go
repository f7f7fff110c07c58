package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestConditionalMemoFollowsAccessChanges polls a private repository with
// If-None-Match until the 304s come from the memo of answered tags, then
// changes what the admission read — a collaborator removed, a token
// deleted, a password changed — and asks again with the same tag: each
// change is seen at once (404, 401), never vouched for by the memo.
func TestConditionalMemoFollowsAccessChanges(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		socialCollab(t, srv, "alice", "secret", "bob", gitea.AccessModeRead)
		socialCollab(t, srv, "alice", "secret", "carol", gitea.AccessModeRead)

		// poll asks three times with the tag of a first answer: the second
		// answer teaches the memo, the third comes from it.
		poll := func(header []string) string {
			t.Helper()
			first := srv.Do("GET", "/repos/alice/secret", nil, header...)
			is.Equal(first.Status, http.StatusOK)
			etag := first.Header.Get("ETag")
			for range 2 {
				r := srv.Do("GET", "/repos/alice/secret", nil, append(header, "If-None-Match", etag)...)
				is.Equal(r.Status, http.StatusNotModified)
				is.Equal(r.Header.Get("ETag"), etag)
				is.Equal(r.Header.Get("Cache-Control"), "private, no-cache")
			}
			return etag
		}
		ask := func(header []string, etag string) int {
			t.Helper()
			return srv.Do("GET", "/repos/alice/secret", nil, append(header, "If-None-Match", etag)...).Status
		}

		// A collaborator removed no longer gets a 304, but a 404.
		bob := tokenHeader(srv, "bob", "read:repository")
		bobTag := poll(bob)
		resp, err := alice.DeleteCollaborator("alice", "secret", "bob")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		is.Equal(ask(bob, bobTag), http.StatusNotFound)

		// A deleted token is refused.
		carolClient := userClient(srv, "carol")
		carol := tokenHeader(srv, "carol", "read:repository")
		carolTag := poll(carol)
		tokens, _, err := carolClient.ListAccessTokens(gitea.ListAccessTokensOptions{})
		is.NoErr(err)
		is.True(len(tokens) > 0)
		for _, tok := range tokens {
			_, err := carolClient.DeleteAccessToken(tok.ID)
			is.NoErr(err)
		}
		is.Equal(ask(carol, carolTag), http.StatusUnauthorized)

		// Basic: a changed password is refused.
		basic := basicAs("carol")
		basicTag := poll(basic)
		admin := srv.AdminClient()
		_, err = admin.AdminEditUser("carol", gitea.EditUserOption{LoginName: "carol", Password: "another-long-password-1"})
		is.NoErr(err)
		is.Equal(ask(basic, basicTag), http.StatusUnauthorized)

		// The owner's tag is no use to anyone else, memo or not.
		aliceBasic := basicAs("alice")
		aliceTag := poll(aliceBasic)
		is.Equal(ask(nil, aliceTag), http.StatusNotFound)
		is.Equal(ask(basicAs("bob"), aliceTag), http.StatusNotFound)
	})
}
