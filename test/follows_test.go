package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// followCounts are the followers_count and following_count of name, as
// the admin reads it.
func followCounts(t *testing.T, srv *testserver.Server, name string) [2]int {
	t.Helper()
	u, _, err := srv.AdminClient().GetUserInfo(name)
	if err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
	return [2]int{u.FollowerCount, u.FollowingCount}
}

// followersAs lists /users/{name}/followers with the given Authorization
// pair (none: anonymous) and returns the status, the logins and X-Total-Count.
func followersAs(t *testing.T, srv *testserver.Server, name string, header ...string) (int, []string, string) {
	t.Helper()
	r := srv.Do("GET", "/users/"+name+"/followers", nil, header...)
	if r.Status != http.StatusOK {
		return r.Status, nil, ""
	}
	var list []*gitea.User
	r.Decode(t, &list)
	return r.Status, logins(list), r.Header.Get("X-Total-Count")
}

// TestFollows covers following: follow, check and unfollow with the
// counters on the user records, the lists with their paging, following
// oneself and organisations, on both backends.
func TestFollows(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		_, daveC := newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		orgCreate(t, carolC, "acme", gitea.VisibleTypePublic)
		_, eveC := newAccount(t, srv, "eve", gitea.VisibleTypePublic) // a signed-in bystander

		t.Run("follow, check and the counters", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.Follow("bob")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			resp, err = aliceC.Follow("bob") // again: nothing changes
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			ok, _ := aliceC.IsFollowing("bob")
			is.True(ok)
			ok, _ = bobC.IsFollowing("alice")
			is.True(!ok) // one direction only
			ok, _ = eveC.IsUserFollowing("alice", "bob")
			is.True(ok)
			ok, _ = eveC.IsUserFollowing("bob", "alice")
			is.True(!ok)
			is.Equal(followCounts(t, srv, "bob"), [2]int{1, 0})
			is.Equal(followCounts(t, srv, "alice"), [2]int{0, 1})
			me, _, err := aliceC.GetMyUserInfo()
			is.NoErr(err)
			is.Equal(me.FollowingCount, 1)
		})

		t.Run("the check answers 204 or 404", func(t *testing.T) {
			blockWant(t, srv, "GET", "/user/following/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
			blockWant(t, srv, "GET", "/user/following/carol", nil, http.StatusNotFound, "", basicAs("alice")...)
			eve := basicAs("eve")
			blockWant(t, srv, "GET", "/users/alice/following/bob", nil, http.StatusNoContent, "", eve...)
			blockWant(t, srv, "GET", "/users/alice/following/carol", nil, http.StatusNotFound, "", eve...)
			blockWant(t, srv, "GET", "/users/alice/following/nobody", nil, http.StatusNotFound, "", eve...)
			blockWant(t, srv, "GET", "/users/nobody/following/bob", nil, http.StatusNotFound, "", eve...)
		})

		t.Run("following oneself changes nothing", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.Follow("alice")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			ok, _ := aliceC.IsFollowing("alice")
			is.True(!ok)
			resp, err = aliceC.Unfollow("alice")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			is.Equal(followCounts(t, srv, "alice"), [2]int{0, 1})
		})

		t.Run("an unknown account is a 404", func(t *testing.T) {
			resp, err := aliceC.Follow("nobody")
			assertSDKStatus(t, resp, err, http.StatusNotFound)
			resp, err = aliceC.Unfollow("nobody")
			assertSDKStatus(t, resp, err, http.StatusNotFound)
		})

		t.Run("lists page with their totals", func(t *testing.T) {
			is := is.New(t)
			for _, c := range []*gitea.Client{carolC, daveC} {
				resp, err := c.Follow("bob")
				assertSDKStatus(t, resp, err, http.StatusNoContent)
			}
			list, resp, err := eveC.ListFollowers("bob", gitea.ListFollowersOptions{})
			is.NoErr(err)
			is.Equal(logins(list), []string{"alice", "carol", "dave"}) // the earliest follow first
			is.Equal(resp.Header.Get("X-Total-Count"), "3")
			is.Equal(list[0].FollowingCount, 1) // the records carry their counters

			list, resp, err = eveC.ListFollowers("bob", gitea.ListFollowersOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
			is.NoErr(err)
			is.Equal(logins(list), []string{"dave"})
			is.Equal(resp.Header.Get("X-Total-Count"), "3")
			rels := linkRels(t, resp.Header.Get("Link"))
			is.Equal(rels["prev"], 1)
			is.Equal(rels["first"], 1)

			mine, _, err := bobC.ListMyFollowers(gitea.ListFollowersOptions{})
			is.NoErr(err)
			is.Equal(logins(mine), []string{"alice", "carol", "dave"})
			is.Equal(followCounts(t, srv, "bob"), [2]int{3, 0})
		})

		t.Run("an organisation can be followed", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.Follow("acme")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			list, resp, err := aliceC.ListMyFollowing(gitea.ListFollowingOptions{})
			is.NoErr(err)
			is.Equal(logins(list), []string{"bob", "acme"})
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			list, _, err = eveC.ListFollowing("alice", gitea.ListFollowingOptions{})
			is.NoErr(err)
			is.Equal(logins(list), []string{"bob", "acme"})
		})

		t.Run("unfollow", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.Unfollow("bob")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			resp, err = aliceC.Unfollow("bob") // none left
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			ok, _ := aliceC.IsFollowing("bob")
			is.True(!ok)
			is.Equal(followCounts(t, srv, "bob"), [2]int{2, 0})
			is.Equal(followCounts(t, srv, "alice"), [2]int{0, 1}) // acme still
		})

		t.Run("a deleted account leaves the counters right", func(t *testing.T) {
			is := is.New(t)
			_, err := srv.AdminClient().AdminDeleteUser("dave")
			is.NoErr(err)
			is.Equal(followCounts(t, srv, "bob"), [2]int{1, 0})
			_, _, total := followersAs(t, srv, "bob", basicAs("eve")...)
			is.Equal(total, "1")
		})
	})
}

// TestFollowsVisibility covers private and limited accounts: their lists
// are 404 to those who may not see them, and other lists leave them out
// for those callers (the total counts only what is shown).
func TestFollowsVisibility(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, limC := newAccount(t, srv, "lim", gitea.VisibleTypeLimited)
		_, privC := newAccount(t, srv, "priv", gitea.VisibleTypePrivate)
		for _, c := range []*gitea.Client{limC, privC} {
			resp, err := c.Follow("bob")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
		}
		resp, err := limC.Follow("priv") // lim may not see priv
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = privC.Follow("lim")
		assertSDKStatus(t, resp, err, http.StatusNoContent)

		t.Run("who sees whom in a public account's list", func(t *testing.T) {
			is := is.New(t)
			status, _, _ := followersAs(t, srv, "bob")
			is.Equal(status, http.StatusUnauthorized) // T: signed in only
			// A public-only token sees public accounts only.
			status, list, total := followersAs(t, srv, "bob", tokenHeader(srv, "alice", "read:user", "public-only")...)
			is.Equal(status, http.StatusOK)
			is.Equal(len(list), 0)
			is.Equal(total, "0")
			_, list, total = followersAs(t, srv, "bob", basicAs("alice")...)
			is.Equal(list, []string{"lim"})
			is.Equal(total, "1")
			_, list, _ = followersAs(t, srv, "bob", basicAs("priv")...)
			is.Equal(list, []string{"lim", "priv"}) // priv sees itself
			_, list, total = followersAs(t, srv, "bob", adminHeader(srv)...)
			is.Equal(list, []string{"lim", "priv"})
			is.Equal(total, "2")
			is.Equal(followCounts(t, srv, "bob"), [2]int{2, 0}) // the record counts all
		})

		t.Run("a hidden account's lists and checks are 404", func(t *testing.T) {
			is := is.New(t)
			status, _, _ := followersAs(t, srv, "lim", tokenHeader(srv, "bob", "read:user", "public-only")...)
			is.Equal(status, http.StatusForbidden) // a public-only token and a non-public account
			status, _, _ = followersAs(t, srv, "lim", basicAs("alice")...)
			is.Equal(status, http.StatusOK)
			for _, h := range [][]string{basicAs("alice"), basicAs("lim")} {
				blockWant(t, srv, "GET", "/users/priv/followers", nil, http.StatusNotFound, "", h...)
				blockWant(t, srv, "GET", "/users/priv/following", nil, http.StatusNotFound, "", h...)
				blockWant(t, srv, "GET", "/users/priv/following/bob", nil, http.StatusNotFound, "", h...)
			}
			blockWant(t, srv, "GET", "/users/priv/following/bob", nil, http.StatusNoContent, "", basicAs("priv")...)
			blockWant(t, srv, "GET", "/users/priv/following/bob", nil, http.StatusNoContent, "", adminHeader(srv)...)
			blockWant(t, srv, "GET", "/users/bob/following/priv", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "GET", "/users/lim/following/priv", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "GET", "/users/priv/following/lim", nil, http.StatusNoContent, "", basicAs("priv")...)
			blockWant(t, srv, "GET", "/users/priv/following", nil, http.StatusOK, "", adminHeader(srv)...)
		})
	})
}

// TestFollowsAccess covers the access column (T) and the user scope.
func TestFollowsAccess(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		readUser := tokenHeader(srv, "alice", "read:user")
		writeUser := tokenHeader(srv, "alice", "write:user")
		readRepo := tokenHeader(srv, "alice", "read:repository")

		t.Run("anonymous", func(t *testing.T) {
			for _, p := range []string{"/user/followers", "/user/following", "/user/following/bob"} {
				blockWant(t, srv, "GET", p, nil, http.StatusUnauthorized, "")
			}
			blockWant(t, srv, "PUT", "/user/following/bob", nil, http.StatusUnauthorized, "")
			blockWant(t, srv, "DELETE", "/user/following/bob", nil, http.StatusUnauthorized, "")
			blockWant(t, srv, "GET", "/users/bob/followers", nil, http.StatusUnauthorized, "")
			blockWant(t, srv, "GET", "/users/bob/following/alice", nil, http.StatusUnauthorized, "")
		})
		t.Run("read:user reads and may not write", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "GET", "/user/following", nil, http.StatusOK, "", readUser...)
			blockWant(t, srv, "GET", "/users/bob/followers", nil, http.StatusOK, "", readUser...)
			scopeWantDenied(is, srv.Do("PUT", "/user/following/bob", nil, readUser...), "write:user", "read:user")
			scopeWantDenied(is, srv.Do("DELETE", "/user/following/bob", nil, readUser...), "write:user", "read:user")
		})
		t.Run("write:user follows and unfollows", func(t *testing.T) {
			is := is.New(t)
			// The token's account as the token sees it: its counters follow
			// the writes at once, though the token's lookups are cached.
			var me gitea.User
			blockWant(t, srv, "GET", "/user", nil, http.StatusOK, "", writeUser...).Decode(t, &me)
			is.Equal(me.FollowingCount, 0)
			blockWant(t, srv, "PUT", "/user/following/bob", nil, http.StatusNoContent, "", writeUser...)
			blockWant(t, srv, "GET", "/user/following/bob", nil, http.StatusNoContent, "", writeUser...)
			blockWant(t, srv, "GET", "/user", nil, http.StatusOK, "", writeUser...).Decode(t, &me)
			is.Equal(me.FollowingCount, 1)
			blockWant(t, srv, "DELETE", "/user/following/bob", nil, http.StatusNoContent, "", writeUser...)
			blockWant(t, srv, "GET", "/user/following/bob", nil, http.StatusNotFound, "", writeUser...)
			blockWant(t, srv, "GET", "/user", nil, http.StatusOK, "", writeUser...).Decode(t, &me)
			is.Equal(me.FollowingCount, 0)
		})
		t.Run("another category's scope is refused", func(t *testing.T) {
			is := is.New(t)
			scopeWantDenied(is, srv.Do("GET", "/users/bob/followers", nil, readRepo...), "read:user", "read:repository")
			scopeWantDenied(is, srv.Do("GET", "/user/followers", nil, readRepo...), "read:user", "read:repository")
		})
	})
}

// TestFollowsBlocks covers the interplay with blocks: a block removes the
// follows both ways (and the counters with them) and forbids new ones
// either way with 403 "user is blocked", as Gitea's FollowUser.
func TestFollowsBlocks(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		is := is.New(t)
		for _, step := range []struct {
			c      *gitea.Client
			target string
		}{{aliceC, "bob"}, {bobC, "alice"}, {carolC, "bob"}} {
			resp, err := step.c.Follow(step.target)
			assertSDKStatus(t, resp, err, http.StatusNoContent)
		}
		is.Equal(followCounts(t, srv, "bob"), [2]int{2, 1})

		blockWant(t, srv, "PUT", "/user/blocks/alice", nil, http.StatusNoContent, "", basicAs("bob")...)
		ok, _ := aliceC.IsFollowing("bob")
		is.True(!ok)
		ok, _ = bobC.IsFollowing("alice")
		is.True(!ok)
		is.Equal(followCounts(t, srv, "bob"), [2]int{1, 0}) // carol stays
		is.Equal(followCounts(t, srv, "alice"), [2]int{0, 0})

		blockWant(t, srv, "PUT", "/user/following/bob", nil, http.StatusForbidden, blockMsgBlocked, basicAs("alice")...)
		blockWant(t, srv, "PUT", "/user/following/alice", nil, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
		blockWant(t, srv, "DELETE", "/user/following/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
		is.Equal(followCounts(t, srv, "bob"), [2]int{1, 0})

		// A site administrator is not held back by a block against it.
		blockWant(t, srv, "PUT", "/user/blocks/admin", nil, http.StatusNoContent, "", basicAs("carol")...)
		blockWant(t, srv, "PUT", "/user/following/carol", nil, http.StatusNoContent, "", adminHeader(srv)...)

		blockWant(t, srv, "DELETE", "/user/blocks/alice", nil, http.StatusNoContent, "", basicAs("bob")...)
		blockWant(t, srv, "PUT", "/user/following/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
		is.Equal(followCounts(t, srv, "bob"), [2]int{2, 0})
	})
}
