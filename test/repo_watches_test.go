package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestSocWatches covers watching: the creator's automatic watch, watching
// and unwatching, the counters and the listings, on both backends.
func TestSocWatches(t *testing.T) {
	t.Parallel()
	backends(t, testSocWatches)
}

func testSocWatches(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "sam")
	createRepoAs(t, srv, "carol", "watched", false)
	createRepoAs(t, srv, "carol", "private-eye", true)
	sam := userClient(srv, "sam")
	carol := userClient(srv, "carol")
	const R = "/repos/carol/watched"

	t.Run("creator watches", func(t *testing.T) {
		is := is.New(t)
		_, watchers := socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 1)
		r := srv.Do("GET", R+"/subscription", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusOK)
		var w gitea.WatchInfo
		r.Decode(t, &w)
		is.True(w.Subscribed)
		is.True(!w.Ignored)
		is.Equal(w.RepositoryURL, srv.API+R)
		is.Equal(w.URL, srv.API+R+"/subscription")
		is.True(!w.CreatedAt.IsZero())
		ok, _, err := carol.CheckRepoWatch("carol", "watched")
		is.NoErr(err)
		is.True(ok)
	})

	t.Run("watch", func(t *testing.T) {
		is := is.New(t)
		ok, _, err := sam.CheckRepoWatch("carol", "watched")
		is.NoErr(err)
		is.True(!ok)
		assertAPIError(t, srv.Do("GET", R+"/subscription", nil, basicAs("sam")...), http.StatusNotFound, "")

		r := srv.Do("PUT", R+"/subscription", nil, basicAs("sam")...)
		is.Equal(r.Status, http.StatusOK)
		var w gitea.WatchInfo
		r.Decode(t, &w)
		is.True(w.Subscribed)
		is.True(!w.Ignored)
		is.Equal(w.RepositoryURL, srv.API+R)
		_, watchers := socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 2)
		// Watching twice counts once.
		resp, err := sam.WatchRepo("carol", "watched")
		assertSDKStatus(t, resp, err, http.StatusOK)
		_, watchers = socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 2)
		ok, _, err = sam.CheckRepoWatch("carol", "watched")
		is.NoErr(err)
		is.True(ok)
	})

	t.Run("listings", func(t *testing.T) {
		is := is.New(t)
		is.Equal(decodeLogins(t, srv.Do("GET", R+"/subscribers", nil, basicAs("sam")...)), []string{"carol", "sam"})
		// Anyone who may read the repository may list its watchers.
		is.Equal(decodeLogins(t, srv.Do("GET", R+"/subscribers", nil)), []string{"carol", "sam"})
		assertAPIError(t, srv.Do("GET", "/repos/carol/private-eye/subscribers", nil, basicAs("sam")...), http.StatusNotFound, "")

		mine, _, err := sam.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(repoNames(mine), []string{"carol/watched"})
		theirs, _, err := carol.GetWatchedRepos("sam")
		is.NoErr(err)
		is.Equal(repoNames(theirs), []string{"carol/watched"})
		// carol watches her private repository too; others do not see it listed.
		mine, _, err = carol.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(repoNames(mine), []string{"carol/private-eye", "carol/watched"})
		is.Equal(repoList(t, srv.Do("GET", "/users/carol/subscriptions", nil, basicAs("sam")...)), []string{"carol/watched"})
		is.Equal(repoList(t, srv.Do("GET", "/users/carol/subscriptions", nil, socialAdmin(srv)...)),
			[]string{"carol/private-eye", "carol/watched"})
		assertAPIError(t, srv.Do("GET", "/users/ghost/subscriptions", nil, basicAs("sam")...), http.StatusNotFound, "")
	})

	t.Run("unwatch", func(t *testing.T) {
		is := is.New(t)
		resp, err := sam.UnWatchRepo("carol", "watched")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", R+"/subscription", nil, basicAs("sam")...), http.StatusNotFound, "")
		_, watchers := socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 1)
		is.Equal(srv.Do("DELETE", R+"/subscription", nil, basicAs("sam")...).Status, http.StatusNoContent)
		_, watchers = socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 1)
		is.Equal(decodeLogins(t, srv.Do("GET", R+"/subscribers", nil)), []string{"carol"})
		mine, _, err := sam.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(len(mine), 0)
		// The creator may unwatch too.
		_, err = carol.UnWatchRepo("carol", "watched")
		is.NoErr(err)
		_, watchers = socialCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 0)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			assertAPIError(t, srv.Do(m, R+"/subscription", nil), http.StatusUnauthorized, msgTokenRequired)
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil,
				tokenHeader(srv, "carol", "public-only", "write:repository")...), http.StatusForbidden, msgPublicOnly)
		}
		assertAPIError(t, srv.Do("GET", "/user/subscriptions", nil), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("GET", "/users/sam/subscriptions", nil), http.StatusUnauthorized, msgTokenRequired)
		_, watchers := socialCounts(t, srv, "carol", "private-eye")
		is.Equal(watchers, 1)
		scopeWantDenied(is, srv.Do("PUT", R+"/subscription", nil, tokenHeader(srv, "sam", "read:repository")...), "write:repository", "read:repository")
		is.Equal(srv.Do("PUT", R+"/subscription", nil, tokenHeader(srv, "sam", "write:repository")...).Status, http.StatusOK)
	})
}
