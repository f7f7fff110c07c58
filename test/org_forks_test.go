package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestOrgForkBlocked checks that whom a repository's owner blocks may not
// fork its repositories (Gitea's ForkRepository: 403 "user is blocked"),
// whether the owner is a user or an organisation; others still may, and a
// site admin is not held back.
func TestOrgForkBlocked(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		for _, n := range []string{"bob", "carol", "dave"} {
			newAccount(t, srv, n, gitea.VisibleTypePublic)
		}
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
		if _, _, err := aliceC.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "code", AutoInit: true}); err != nil {
			t.Fatalf("create acme/code: %v", err)
		}
		blockWant(t, srv, "PUT", "/user/blocks/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
		blockWant(t, srv, "PUT", "/orgs/acme/blocks/carol", nil, http.StatusNoContent, "", basicAs("alice")...)

		t.Run("blocked by the owning user", func(t *testing.T) {
			blockWant(t, srv, "POST", "/repos/alice/pub/forks", map[string]any{}, http.StatusForbidden, blockMsgBlocked, basicAs("bob")...)
			is.New(t).Equal(srv.Do("GET", "/repos/bob/pub", nil, basicAs("bob")...).Status, http.StatusNotFound) // nothing made
		})
		t.Run("blocked by the owning organisation", func(t *testing.T) {
			blockWant(t, srv, "POST", "/repos/acme/code/forks", map[string]any{}, http.StatusForbidden, blockMsgBlocked, basicAs("carol")...)
			is.New(t).Equal(srv.Do("GET", "/repos/carol/code", nil, basicAs("carol")...).Status, http.StatusNotFound)
		})
		t.Run("others may fork", func(t *testing.T) {
			is := is.New(t)
			// bob is blocked by alice only: acme's repository is open to him,
			// and carol may fork alice's.
			var fork gitea.Repository
			blockWant(t, srv, "POST", "/repos/acme/code/forks", map[string]any{}, http.StatusAccepted, "", basicAs("bob")...).Decode(t, &fork)
			is.Equal(fork.FullName, "bob/code")
			blockWant(t, srv, "POST", "/repos/alice/pub/forks", map[string]any{}, http.StatusAccepted, "", basicAs("carol")...).Decode(t, &fork)
			is.Equal(fork.FullName, "carol/pub")
		})
		t.Run("unblocked", func(t *testing.T) {
			blockWant(t, srv, "DELETE", "/user/blocks/bob", nil, http.StatusNoContent, "", basicAs("alice")...)
			blockWant(t, srv, "POST", "/repos/alice/pub/forks", map[string]any{}, http.StatusAccepted, "", basicAs("bob")...)
		})
	})
}

// TestOrgForkIntoOrganization checks forking into an organisation (Gitea's
// prepareDoerCreateRepoInOrg): its owners and members of a team allowed to
// create repositories may, other members get 403, non-members 403, a
// hidden organisation is an unknown owner (422 on the field); and a fork of
// a private organisation's public repository is private.
func TestOrgForkIntoOrganization(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		for _, n := range []string{"maker", "reader", "outsider"} {
			newAccount(t, srv, n, gitea.VisibleTypePublic)
		}
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "lib", AutoInit: true})
		orgCreate(t, aliceC, "acme", gitea.VisibleTypePublic)
		orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "makers", Permission: gitea.AccessModeWrite, CanCreateOrgRepo: true}, "maker")
		orgTeam(t, aliceC, "acme", gitea.CreateTeamOption{Name: "readers", Permission: gitea.AccessModeRead}, "reader")
		orgCreate(t, aliceC, "secret", gitea.VisibleTypePrivate)
		into := func(org, name string) map[string]any { return map[string]any{"organization": org, "name": name} }

		t.Run("owner and creating team", func(t *testing.T) {
			is := is.New(t)
			var fork gitea.Repository
			blockWant(t, srv, "POST", "/repos/alice/lib/forks", into("acme", "lib-a"), http.StatusAccepted, "", basicAs("alice")...).Decode(t, &fork)
			is.Equal(fork.FullName, "acme/lib-a")
			is.True(fork.Fork)
			blockWant(t, srv, "POST", "/repos/alice/lib/forks", into("acme", "lib-m"), http.StatusConflict, "", basicAs("maker")...) // one fork per owner
			// The maker's fork exists under acme already: a new source shows the right.
			createRepo(t, aliceC, gitea.CreateRepoOption{Name: "tool", AutoInit: true})
			blockWant(t, srv, "POST", "/repos/alice/tool/forks", into("acme", ""), http.StatusAccepted, "", basicAs("maker")...).Decode(t, &fork)
			is.Equal(fork.FullName, "acme/tool")
			is.Equal(fork.Owner.UserName, "acme")
		})
		t.Run("member without the right", func(t *testing.T) {
			createRepo(t, aliceC, gitea.CreateRepoOption{Name: "other", AutoInit: true})
			blockWant(t, srv, "POST", "/repos/alice/other/forks", into("acme", ""), http.StatusForbidden,
				"Given user is not allowed to create repository in organization acme.", basicAs("reader")...)
		})
		t.Run("non-member", func(t *testing.T) {
			blockWant(t, srv, "POST", "/repos/alice/other/forks", into("acme", ""), http.StatusForbidden, orgMsgMember, basicAs("outsider")...)
			assertInvalid(t, srv.Do("POST", "/repos/alice/other/forks", into("secret", ""), basicAs("outsider")...), "organization")
		})
		t.Run("site admin", func(t *testing.T) {
			var fork gitea.Repository
			blockWant(t, srv, "POST", "/repos/alice/other/forks", into("secret", ""), http.StatusAccepted, "", adminHeader(srv)...).Decode(t, &fork)
			is.New(t).Equal(fork.FullName, "secret/other")
		})
		t.Run("fork of a private organisation's repository stays private", func(t *testing.T) {
			is := is.New(t)
			if _, _, err := aliceC.CreateOrgRepo("secret", gitea.CreateRepoOption{Name: "plans", AutoInit: true}); err != nil {
				t.Fatalf("create secret/plans: %v", err)
			}
			var fork gitea.Repository
			blockWant(t, srv, "POST", "/repos/secret/plans/forks", map[string]any{}, http.StatusAccepted, "", basicAs("alice")...).Decode(t, &fork)
			is.Equal(fork.FullName, "alice/plans")
			is.True(fork.Private)
			is.Equal(srv.Do("GET", "/repos/alice/plans", nil, basicAs("outsider")...).Status, http.StatusNotFound)
		})
	})
}
