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
	socAccounts(t, srv, "carol", "sam")
	socRepo(t, srv, "carol", "watched", false)
	socRepo(t, srv, "carol", "private-eye", true)
	sam := socClient(srv, "sam")
	carol := socClient(srv, "carol")
	const R = "/repos/carol/watched"

	t.Run("creator watches", func(t *testing.T) {
		is := is.New(t)
		_, watchers := socCounts(t, srv, "carol", "watched")
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
		_, watchers := socCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 2)
		// Watching twice counts once.
		resp, err := sam.WatchRepo("carol", "watched")
		assertSDKStatus(t, resp, err, http.StatusOK)
		_, watchers = socCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 2)
		ok, _, err = sam.CheckRepoWatch("carol", "watched")
		is.NoErr(err)
		is.True(ok)
	})

	t.Run("listings", func(t *testing.T) {
		is := is.New(t)
		is.Equal(socDecodeLogins(t, srv.Do("GET", R+"/subscribers", nil, basicAs("sam")...)), []string{"carol", "sam"})
		// Anyone who may read the repository may list its watchers.
		is.Equal(socDecodeLogins(t, srv.Do("GET", R+"/subscribers", nil)), []string{"carol", "sam"})
		assertAPIError(t, srv.Do("GET", "/repos/carol/private-eye/subscribers", nil, basicAs("sam")...), http.StatusNotFound, "")

		mine, _, err := sam.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(socRepoNames(mine), []string{"carol/watched"})
		theirs, _, err := carol.GetWatchedRepos("sam")
		is.NoErr(err)
		is.Equal(socRepoNames(theirs), []string{"carol/watched"})
		// carol watches her private repository too; others do not see it listed.
		mine, _, err = carol.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(socRepoNames(mine), []string{"carol/private-eye", "carol/watched"})
		is.Equal(socRepoList(t, srv.Do("GET", "/users/carol/subscriptions", nil, basicAs("sam")...)), []string{"carol/watched"})
		is.Equal(socRepoList(t, srv.Do("GET", "/users/carol/subscriptions", nil, socAdmin(srv)...)),
			[]string{"carol/private-eye", "carol/watched"})
		assertAPIError(t, srv.Do("GET", "/users/ghost/subscriptions", nil, basicAs("sam")...), http.StatusNotFound, "")
	})

	t.Run("unwatch", func(t *testing.T) {
		is := is.New(t)
		resp, err := sam.UnWatchRepo("carol", "watched")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", R+"/subscription", nil, basicAs("sam")...), http.StatusNotFound, "")
		_, watchers := socCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 1)
		is.Equal(srv.Do("DELETE", R+"/subscription", nil, basicAs("sam")...).Status, http.StatusNoContent)
		_, watchers = socCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 1)
		is.Equal(socDecodeLogins(t, srv.Do("GET", R+"/subscribers", nil)), []string{"carol"})
		mine, _, err := sam.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(len(mine), 0)
		// The creator may unwatch too.
		_, err = carol.UnWatchRepo("carol", "watched")
		is.NoErr(err)
		_, watchers = socCounts(t, srv, "carol", "watched")
		is.Equal(watchers, 0)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			assertAPIError(t, srv.Do(m, R+"/subscription", nil), http.StatusUnauthorized, socMsgTokenRequired)
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/repos/carol/private-eye/subscription", nil,
				socToken(srv, "carol", "public-only", "write:repository")...), http.StatusForbidden, socMsgPublicRepos)
		}
		assertAPIError(t, srv.Do("GET", "/user/subscriptions", nil), http.StatusUnauthorized, socMsgTokenRequired)
		assertAPIError(t, srv.Do("GET", "/users/sam/subscriptions", nil), http.StatusUnauthorized, socMsgTokenRequired)
		_, watchers := socCounts(t, srv, "carol", "private-eye")
		is.Equal(watchers, 1)
		scopeWantDenied(is, srv.Do("PUT", R+"/subscription", nil, socToken(srv, "sam", "read:repository")...), "write:repository", "read:repository")
		is.Equal(srv.Do("PUT", R+"/subscription", nil, socToken(srv, "sam", "write:repository")...).Status, http.StatusOK)
	})
}
