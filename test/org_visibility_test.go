package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// setRestricted marks an account restricted (or not) as the site admin.
func setRestricted(t *testing.T, srv *testserver.Server, name string, restricted bool) {
	t.Helper()
	if _, err := srv.AdminClient().AdminEditUser(name, gitea.EditUserOption{LoginName: name, Restricted: &restricted}); err != nil {
		t.Fatalf("restrict %s: %v", name, err)
	}
}

// orgVisibilityWorld is three organisations of alice's, one per visibility, each with
// a public and a private repository and alice's membership shown publicly;
// rita is a member of the limited one only (team "readers", given its
// private repository).
func orgVisibilityWorld(t *testing.T, srv *testserver.Server) *gitea.Client {
	t.Helper()
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "rita", gitea.VisibleTypePublic)
	newAccount(t, srv, "olga", gitea.VisibleTypePublic) // an outsider who is not restricted
	for _, vis := range []gitea.VisibleType{gitea.VisibleTypePublic, gitea.VisibleTypeLimited, gitea.VisibleTypePrivate} {
		name := "org-" + string(vis)
		orgCreate(t, aliceC, name, vis)
		for _, r := range []struct {
			name    string
			private bool
		}{{"open", false}, {"closed", true}} {
			if _, _, err := aliceC.CreateOrgRepo(name, gitea.CreateRepoOption{Name: r.name, Private: r.private}); err != nil {
				t.Fatalf("create %s/%s: %v", name, r.name, err)
			}
		}
		if _, err := aliceC.SetPublicOrgMembership(name, "alice", true); err != nil {
			t.Fatalf("publicize alice in %s: %v", name, err)
		}
	}
	readers := orgTeam(t, aliceC, "org-limited", gitea.CreateTeamOption{Name: "readers", Permission: gitea.AccessModeRead}, "rita")
	if _, err := aliceC.AddTeamRepository(readers.ID, "org-limited", "closed"); err != nil {
		t.Fatalf("give closed to readers: %v", err)
	}
	return aliceC
}

// TestOrgRestrictedUser checks that a restricted account sees only the
// organisations it belongs to, public ones included (Gitea's
// HasOrgOrUserVisible and the restricted branch of the organisation search),
// on every route that names or lists organisations, and that lifting the
// restriction gives the ordinary view back.
func TestOrgRestrictedUser(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		orgVisibilityWorld(t, srv)
		setRestricted(t, srv, "rita", true)
		rita := basicAs("rita")

		t.Run("listings", func(t *testing.T) {
			is := is.New(t)
			is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, rita...)), []string{"org-limited"})
			is.Equal(orgGetNames(t, srv.Do("GET", "/user/orgs", nil, rita...)), []string{"org-limited"})
			is.Equal(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, rita...)), []string{"org-limited"})
			// An unrestricted outsider sees the public and limited ones.
			is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, basicAs("olga")...)), []string{"org-limited", "org-public"})
			is.Equal(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, basicAs("olga")...)), []string{"org-limited", "org-public"})
			r := srv.Do("GET", "/orgs", nil, rita...)
			is.Equal(r.Header.Get("X-Total-Count"), "1") // the total counts what the restricted user sees
		})

		t.Run("organisation routes", func(t *testing.T) {
			for _, org := range []string{"org-public", "org-private"} {
				for _, path := range []string{"/orgs/" + org, "/orgs/" + org + "/repos", "/orgs/" + org + "/members",
					"/orgs/" + org + "/members/alice", "/orgs/" + org + "/public_members", "/orgs/" + org + "/public_members/alice",
					"/users/alice/orgs/" + org + "/permissions"} {
					t.Run(path, func(t *testing.T) {
						assertAPIError(t, srv.Do("GET", path, nil, rita...), http.StatusNotFound, orgMsgNotFound)
					})
				}
			}
			// The public organisation's public repository stays hidden in its
			// organisation's listing, but the organisation is visible to others.
			is := is.New(t)
			is.Equal(srv.Do("GET", "/orgs/org-public", nil, basicAs("olga")...).Status, http.StatusOK)
			is.Equal(srv.Do("GET", "/orgs/org-public/repos", nil).Status, http.StatusOK)
		})

		t.Run("member of the organisation", func(t *testing.T) {
			is := is.New(t)
			var o gitea.Organization
			blockWant(t, srv, "GET", "/orgs/org-limited", nil, http.StatusOK, "", rita...).Decode(t, &o)
			is.Equal(o.UserName, "org-limited")
			var repos []*gitea.Repository
			blockWant(t, srv, "GET", "/orgs/org-limited/repos", nil, http.StatusOK, "", rita...).Decode(t, &repos)
			names := map[string]bool{}
			for _, r := range repos {
				names[r.Name] = true
			}
			// A restricted account has no public floor: only what its teams give.
			is.Equal(names, map[string]bool{"closed": true})
			is.Equal(orgUserNames(t, srv.Do("GET", "/orgs/org-limited/members", nil, rita...)), []string{"alice", "rita"})
			var perm gitea.OrgPermissions
			blockWant(t, srv, "GET", "/users/rita/orgs/org-limited/permissions", nil, http.StatusOK, "", rita...).Decode(t, &perm)
			is.Equal(perm, gitea.OrgPermissions{CanRead: true})
		})

		t.Run("restriction lifted", func(t *testing.T) {
			is := is.New(t)
			setRestricted(t, srv, "rita", false)
			defer setRestricted(t, srv, "rita", true)
			is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, rita...)), []string{"org-limited", "org-public"})
			is.Equal(srv.Do("GET", "/orgs/org-public", nil, rita...).Status, http.StatusOK)
		})
	})
}

// TestOrgPublicOnlyTokenListings checks that a public-only token lists
// public organisations only, even the ones its owner belongs to, on
// /user/orgs, /users/{username}/orgs and /orgs, as Gitea's ApplyPublicOnly;
// the same account's full token lists them all.
func TestOrgPublicOnlyTokenListings(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		aliceC := orgVisibilityWorld(t, srv)
		is := is.New(t)
		full := []string{"Authorization", "token " + srv.CreateToken("alice", userPassword, "read:organization", "read:user")}
		public := []string{"Authorization", "token " + srv.CreateToken("alice", userPassword, "public-only", "read:organization", "read:user")}
		all := []string{"org-limited", "org-private", "org-public"}

		is.Equal(orgGetNames(t, srv.Do("GET", "/user/orgs", nil, full...)), all)
		is.Equal(orgGetNames(t, srv.Do("GET", "/user/orgs", nil, public...)), []string{"org-public"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, full...)), all)
		is.Equal(orgGetNames(t, srv.Do("GET", "/users/alice/orgs", nil, public...)), []string{"org-public"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, full...)), all)
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, public...)), []string{"org-public"})
		r := srv.Do("GET", "/user/orgs", nil, public...)
		is.Equal(r.Header.Get("X-Total-Count"), "1")

		// Another member's organisations through a public-only token: the
		// public ones only.
		orgTeam(t, aliceC, "org-private", gitea.CreateTeamOption{Name: "members", Permission: gitea.AccessModeRead}, "rita")
		ritaC := srv.Client(gitea.SetBasicAuth("rita", userPassword))
		for _, org := range []string{"org-limited", "org-private"} {
			_, err := ritaC.SetPublicOrgMembership(org, "rita", true)
			is.NoErr(err)
		}
		is.Equal(orgGetNames(t, srv.Do("GET", "/users/rita/orgs", nil, full...)), []string{"org-limited", "org-private"})
		is.Equal(len(orgGetNames(t, srv.Do("GET", "/users/rita/orgs", nil, public...))), 0)

		// A site admin's public-only token is no wider.
		adminPublic := []string{"Authorization", "token " + srv.CreateToken("admin", srv.AdminPassword, "public-only", "read:organization", "read:user")}
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, adminPublic...)), []string{"org-public"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, adminHeader(srv)...)), all)
	})
}
