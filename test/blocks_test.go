package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

const (
	blockMsgCannot    = "cannot block the user"
	blockMsgUnblock   = "cannot unblock the user"
	blockMsgOrg       = "cannot block an organization"
	blockMsgBlocked   = "user is blocked"
	blockMsgNotBlockd = "user is not blocked"
)

// blockWant sends a raw request and checks its status (and message when
// not empty, with Gitea's error shape for errors).
func blockWant(t *testing.T, srv *testserver.Server, method, path string, body any, status int, msg string, header ...string) testserver.Response {
	t.Helper()
	r := srv.Do(method, path, body, header...)
	if status >= 400 {
		assertAPIError(t, r, status, msg)
	} else if r.Status != status {
		t.Fatalf("%s %s: status %d, want %d (body %s)", method, path, r.Status, status, r.Body)
	}
	return r
}

// blockRepo reads a repository as the admin.
func blockRepo(t *testing.T, srv *testserver.Server, owner, name string) gitea.Repository {
	t.Helper()
	var r gitea.Repository
	blockWant(t, srv, "GET", "/repos/"+owner+"/"+name, nil, http.StatusOK, "", adminHeader(srv)...).Decode(t, &r)
	return r
}

// blockStarred is the starred_repos_count of name, as it sees itself.
func blockStarred(t *testing.T, srv *testserver.Server, name string) int {
	t.Helper()
	var u gitea.User
	blockWant(t, srv, "GET", "/user", nil, http.StatusOK, "", basicAs(name)...).Decode(t, &u)
	return u.StarredRepoCount
}

// blockTie stars and watches owner/name as who.
func blockTie(t *testing.T, srv *testserver.Server, who, owner, name string) {
	t.Helper()
	blockWant(t, srv, "PUT", "/user/starred/"+owner+"/"+name, nil, http.StatusNoContent, "", basicAs(who)...)
	blockWant(t, srv, "PUT", "/repos/"+owner+"/"+name+"/subscription", nil, http.StatusOK, "", basicAs(who)...)
}

// blockCollab makes who a writer on owner/name, as as.
func blockCollab(t *testing.T, srv *testserver.Server, as, owner, name, who string) {
	t.Helper()
	blockWant(t, srv, "PUT", "/repos/"+owner+"/"+name+"/collaborators/"+who, map[string]string{"permission": "write"},
		http.StatusNoContent, "", basicAs(as)...)
}

// TestBlocksUser covers /user/blocks: listing, checking, blocking and
// unblocking, what a block severs, and what it forbids afterwards.
func TestBlocksUser(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		newAccount(t, srv, "eve", gitea.VisibleTypePublic)
		orgCreate(t, carolC, "acme", gitea.VisibleTypePublic)
		for _, n := range []string{"ar", "ar2", "ar3"} {
			createRepo(t, aliceC, gitea.CreateRepoOption{Name: n})
		}
		for _, n := range []string{"br", "br2", "br3"} {
			createRepo(t, bobC, gitea.CreateRepoOption{Name: n})
		}
		createRepo(t, carolC, gitea.CreateRepoOption{Name: "cr"})

		// Ties between alice and bob both ways, and with carol, who stays out of it.
		blockTie(t, srv, "bob", "alice", "ar")
		blockTie(t, srv, "bob", "alice", "ar2")
		blockTie(t, srv, "alice", "bob", "br")
		blockTie(t, srv, "carol", "alice", "ar")
		blockTie(t, srv, "bob", "carol", "cr")
		blockCollab(t, srv, "alice", "alice", "ar", "bob")
		blockCollab(t, srv, "bob", "bob", "br", "alice")
		blockCollab(t, srv, "alice", "alice", "ar", "carol")
		blockWant(t, srv, "POST", "/repos/alice/ar2/transfer", map[string]string{"new_owner": "bob"}, http.StatusCreated, "", basicAs("alice")...)
		blockWant(t, srv, "POST", "/repos/bob/br2/transfer", map[string]string{"new_owner": "alice"}, http.StatusCreated, "", basicAs("bob")...)
		blockWant(t, srv, "POST", "/repos/carol/cr/transfer", map[string]string{"new_owner": "bob"}, http.StatusCreated, "", basicAs("carol")...)
		is.New(t).Equal(blockStarred(t, srv, "bob"), 3)

		t.Run("block", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "PUT", "/user/blocks/bob?note=spam", nil, http.StatusNoContent, "", basicAs("alice")...)
			ok, resp, err := aliceC.CheckUserBlock("bob")
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusNoContent)
			is.True(ok)
			ok, _, _ = bobC.CheckUserBlock("alice")
			is.True(!ok) // one direction
		})

		t.Run("severed", func(t *testing.T) {
			is := is.New(t)
			// Stars and watches of each other's repositories, and the counters.
			for _, c := range []struct{ who, repo string }{{"bob", "alice/ar"}, {"bob", "alice/ar2"}, {"alice", "bob/br"}} {
				blockWant(t, srv, "GET", "/user/starred/"+c.repo, nil, http.StatusNotFound, "", basicAs(c.who)...)
				blockWant(t, srv, "GET", "/repos/"+c.repo+"/subscription", nil, http.StatusNotFound, "", basicAs(c.who)...)
			}
			ar := blockRepo(t, srv, "alice", "ar")
			is.Equal(ar.Stars, 1)    // carol's
			is.Equal(ar.Watchers, 2) // alice's own and carol's
			is.Equal(blockRepo(t, srv, "bob", "br").Stars, 0)
			is.Equal(blockStarred(t, srv, "bob"), 1) // carol/cr only
			is.Equal(blockStarred(t, srv, "alice"), 0)
			blockWant(t, srv, "GET", "/user/starred/carol/cr", nil, http.StatusNoContent, "", basicAs("bob")...)
			// Collaborations each way; carol's stays.
			blockWant(t, srv, "GET", "/repos/alice/ar/collaborators/bob", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "GET", "/repos/bob/br/collaborators/alice", nil, http.StatusNotFound, "", basicAs("bob")...)
			blockWant(t, srv, "GET", "/repos/alice/ar/collaborators/carol", nil, http.StatusNoContent, "", basicAs("alice")...)
			// Pending transfers between them; carol's offer to bob stays.
			blockWant(t, srv, "POST", "/repos/alice/ar2/transfer/accept", nil, http.StatusNotFound, "no pending transfer", basicAs("bob")...)
			blockWant(t, srv, "POST", "/repos/bob/br2/transfer/accept", nil, http.StatusNotFound, "no pending transfer", basicAs("alice")...)
			is.Equal(blockRepo(t, srv, "carol", "cr").Owner.UserName, "carol")
			blockWant(t, srv, "POST", "/repos/carol/cr/transfer/reject", nil, http.StatusOK, "", basicAs("bob")...)
		})

		t.Run("forbidden", func(t *testing.T) {
			// What the blocked user may no longer do to the blocker (Gitea's 403s).
			blockWant(t, srv, "PUT", "/user/starred/alice/ar", nil, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			blockWant(t, srv, "PUT", "/repos/alice/ar/subscription", nil, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			blockWant(t, srv, "PUT", "/repos/alice/ar/collaborators/bob", map[string]string{"permission": "read"},
				http.StatusForbidden, blockMsgBlocked, basicAs("alice")...)
			// A collaboration is refused either way round.
			blockWant(t, srv, "PUT", "/repos/bob/br/collaborators/alice", map[string]string{"permission": "read"},
				http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			blockWant(t, srv, "POST", "/repos/bob/br3/transfer", map[string]string{"new_owner": "alice"},
				http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			// The blocker itself is not held back by its block.
			blockWant(t, srv, "PUT", "/user/starred/bob/br", nil, http.StatusNoContent, "", basicAs("alice")...)
			blockWant(t, srv, "DELETE", "/user/starred/bob/br", nil, http.StatusNoContent, "", basicAs("alice")...)
			// Unstarring and unwatching stay allowed.
			blockWant(t, srv, "DELETE", "/user/starred/alice/ar", nil, http.StatusNoContent, "", basicAs("bob")...)
			blockWant(t, srv, "DELETE", "/repos/alice/ar/subscription", nil, http.StatusNoContent, "", basicAs("bob")...)
		})

		t.Run("refusals", func(t *testing.T) {
			blockWant(t, srv, "PUT", "/user/blocks/bob", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...)   // twice
			blockWant(t, srv, "PUT", "/user/blocks/alice", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...) // oneself
			blockWant(t, srv, "PUT", "/user/blocks/acme", nil, http.StatusBadRequest, blockMsgOrg, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/user/blocks/nobody", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "PUT", "/user/blocks/eve?note=x", nil, http.StatusNoContent, "", basicAs("carol")...)
			assertInvalid(t, srv.Do("PUT", "/user/blocks/bob?note="+strings.Repeat("n", 256), nil, basicAs("carol")...), "note")
			blockWant(t, srv, "DELETE", "/user/blocks/eve", nil, http.StatusBadRequest, blockMsgUnblock, basicAs("alice")...)
			blockWant(t, srv, "DELETE", "/user/blocks/nobody", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "GET", "/user/blocks/eve", nil, http.StatusNotFound, blockMsgNotBlockd, basicAs("alice")...)
			blockWant(t, srv, "GET", "/user/blocks/nobody", nil, http.StatusNotFound, "", basicAs("alice")...)
		})

		t.Run("anonymous", func(t *testing.T) {
			for _, m := range []string{"GET", "PUT", "DELETE"} {
				blockWant(t, srv, m, "/user/blocks/bob", nil, http.StatusUnauthorized, orgMsgNoToken)
			}
			blockWant(t, srv, "GET", "/user/blocks", nil, http.StatusUnauthorized, orgMsgNoToken)
		})

		t.Run("list", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "PUT", "/user/blocks/eve", nil, http.StatusNoContent, "", basicAs("alice")...)
			list, resp, err := aliceC.ListMyBlocks(gitea.ListUserBlocksOptions{})
			is.NoErr(err)
			is.Equal(logins(list), []string{"bob", "eve"}) // in block order
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			r := blockWant(t, srv, "GET", "/user/blocks?limit=1&page=2", nil, http.StatusOK, "", basicAs("alice")...)
			is.Equal(orgUserNames(t, r), []string{"eve"})
			is.Equal(r.Header.Get("X-Total-Count"), "2")
			is.True(r.Header.Get("Link") != "")
			list, _, err = bobC.ListMyBlocks(gitea.ListUserBlocksOptions{})
			is.NoErr(err)
			is.Equal(len(list), 0) // each sees its own blocks only
		})

		t.Run("site admin is never held back", func(t *testing.T) {
			blockWant(t, srv, "PUT", "/user/blocks/admin", nil, http.StatusNoContent, "", basicAs("alice")...)
			blockWant(t, srv, "PUT", "/user/starred/alice/ar", nil, http.StatusNoContent, "", adminHeader(srv)...)
			blockWant(t, srv, "PUT", "/repos/alice/ar/collaborators/admin", map[string]string{"permission": "read"},
				http.StatusNoContent, "", basicAs("alice")...)
		})

		t.Run("unblock", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.UnblockUser("bob")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			blockWant(t, srv, "DELETE", "/user/blocks/bob", nil, http.StatusBadRequest, blockMsgUnblock, basicAs("alice")...)
			// What was severed stays severed; the ban is lifted.
			blockWant(t, srv, "GET", "/repos/alice/ar/collaborators/bob", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "PUT", "/user/starred/alice/ar", nil, http.StatusNoContent, "", basicAs("bob")...)
			blockCollab(t, srv, "alice", "alice", "ar", "bob")
			is.Equal(blockRepo(t, srv, "alice", "ar").Stars, 3) // carol, admin, bob
		})
	})
}

// TestBlocksOrg covers /orgs/{org}/blocks: the owner-only access rule, the
// refusal to block a member, and what an organisation's block forbids.
func TestBlocksOrg(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		newAccount(t, srv, "eve", gitea.VisibleTypePublic)
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
		devs := orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitCode}}, "dave")
		blockWant(t, srv, "POST", "/orgs/acme/repos", map[string]any{"name": "site"}, http.StatusCreated, "", basicAs("alice")...)
		blockTie(t, srv, "bob", "acme", "site")
		blockCollab(t, srv, "alice", "acme", "site", "bob")

		t.Run("access", func(t *testing.T) {
			for _, p := range []string{"/orgs/acme/blocks", "/orgs/acme/blocks/bob"} {
				blockWant(t, srv, "GET", p, nil, http.StatusUnauthorized, orgMsgNoToken)
				blockWant(t, srv, "GET", p, nil, http.StatusForbidden, orgMsgOwner, basicAs("carol")...) // outsider
				blockWant(t, srv, "GET", p, nil, http.StatusForbidden, orgMsgOwner, basicAs("dave")...)  // member
			}
			for _, m := range []string{"PUT", "DELETE"} {
				blockWant(t, srv, m, "/orgs/acme/blocks/bob", nil, http.StatusUnauthorized, orgMsgNoToken)
				blockWant(t, srv, m, "/orgs/acme/blocks/bob", nil, http.StatusForbidden, orgMsgOwner, basicAs("carol")...)
				blockWant(t, srv, m, "/orgs/acme/blocks/bob", nil, http.StatusForbidden, orgMsgOwner, basicAs("dave")...)
			}
			blockWant(t, srv, "GET", "/orgs/nope/blocks", nil, http.StatusNotFound, orgMsgNotFound, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/orgs/nope/blocks/bob", nil, http.StatusNotFound, orgMsgNotFound, basicAs("alice")...)
			blockWant(t, srv, "GET", "/orgs/acme/blocks", nil, http.StatusOK, "", adminHeader(srv)...)
		})

		t.Run("block", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.BlockOrgUser("acme", "bob")
			assertSDKStatus(t, resp, err, http.StatusNoContent)
			ok, _, err := aliceC.CheckOrgBlock("acme", "bob")
			is.NoErr(err)
			is.True(ok)
			blockWant(t, srv, "GET", "/orgs/acme/blocks/eve", nil, http.StatusNotFound, blockMsgNotBlockd, basicAs("alice")...)
			// A site admin may block for the organisation.
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/eve?note=x", nil, http.StatusNoContent, "", adminHeader(srv)...)
			list, resp2, err := aliceC.ListOrgBlocks("acme", gitea.ListOrgBlocksOptions{})
			is.NoErr(err)
			is.Equal(logins(list), []string{"bob", "eve"})
			is.Equal(resp2.Header.Get("X-Total-Count"), "2")
			// The user's own blocks are another list.
			blocks, _, err := aliceC.ListMyBlocks(gitea.ListUserBlocksOptions{})
			is.NoErr(err)
			is.Equal(len(blocks), 0)
		})

		t.Run("severed", func(t *testing.T) {
			is := is.New(t)
			blockWant(t, srv, "GET", "/user/starred/acme/site", nil, http.StatusNotFound, "", basicAs("bob")...)
			blockWant(t, srv, "GET", "/repos/acme/site/subscription", nil, http.StatusNotFound, "", basicAs("bob")...)
			blockWant(t, srv, "GET", "/repos/acme/site/collaborators/bob", nil, http.StatusNotFound, "", basicAs("alice")...)
			is.Equal(blockRepo(t, srv, "acme", "site").Stars, 0)
		})

		t.Run("refusals", func(t *testing.T) {
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/dave", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...)  // a member
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/alice", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...) // oneself
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/acme", nil, http.StatusBadRequest, blockMsgOrg, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/bob", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...) // twice
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/nobody", nil, http.StatusNotFound, "", basicAs("alice")...)
			blockWant(t, srv, "DELETE", "/orgs/acme/blocks/carol", nil, http.StatusBadRequest, blockMsgUnblock, basicAs("alice")...)
		})

		t.Run("forbidden", func(t *testing.T) {
			is := is.New(t)
			resp, err := aliceC.AddTeamMember(devs.ID, "bob")
			assertSDKStatus(t, resp, err, http.StatusForbidden)
			blockWant(t, srv, "PUT", "/teams/"+strconv.FormatInt(devs.ID, 10)+"/members/bob", nil, http.StatusForbidden, blockMsgBlocked, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/repos/acme/site/collaborators/bob", map[string]string{"permission": "read"},
				http.StatusForbidden, blockMsgBlocked, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/user/starred/acme/site", nil, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			blockWant(t, srv, "PUT", "/repos/acme/site/subscription", nil, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			// Others still join.
			_, err = aliceC.AddTeamMember(devs.ID, "carol")
			is.NoErr(err)
		})

		t.Run("unblock", func(t *testing.T) {
			blockWant(t, srv, "DELETE", "/orgs/acme/blocks/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
			blockWant(t, srv, "DELETE", "/orgs/acme/blocks/eve", nil, http.StatusNoContent, "", adminHeader(srv)...)
			blockWant(t, srv, "DELETE", "/orgs/acme/blocks/bob", nil, http.StatusBadRequest, blockMsgUnblock, basicAs("alice")...)
			blockWant(t, srv, "GET", "/orgs/acme/blocks/bob", nil, http.StatusNotFound, blockMsgNotBlockd, basicAs("alice")...)
			blockWant(t, srv, "PUT", "/teams/"+strconv.FormatInt(devs.ID, 10)+"/members/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
			// Now a member, bob cannot be blocked by the organisation.
			blockWant(t, srv, "PUT", "/orgs/acme/blocks/bob", nil, http.StatusBadRequest, blockMsgCannot, basicAs("alice")...)
		})
	})
}
