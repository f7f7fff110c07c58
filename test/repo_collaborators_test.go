package test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// Messages of the rules these tests meet beyond the access codes'
// (repo_access_test.go holds those).
const (
	msgStarsOff   = "stars disabled by administrator"
	msgPermOthers = "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own"
)

// socialAccounts makes public accounts with userPassword.
func socialAccounts(t *testing.T, srv *testserver.Server, names ...string) {
	t.Helper()
	for _, n := range names {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
}

// userClient is an SDK client signed in as name with Basic auth.
func userClient(srv *testserver.Server, name string) *gitea.Client {
	return srv.Client(gitea.SetBasicAuth(name, userPassword))
}

// socialAdmin is the Authorization pair of the bootstrap site administrator.
func socialAdmin(srv *testserver.Server) []string {
	return []string{"Authorization", testserver.Basic("admin", srv.AdminPassword)}
}

// tokenHeader makes a token for name with scopes and returns its Authorization pair.
func tokenHeader(srv *testserver.Server, name string, scopes ...string) []string {
	return []string{"Authorization", "token " + srv.CreateToken(name, userPassword, scopes...)}
}

// createRepoAs creates owner/name (private or not) through the API.
func createRepoAs(t *testing.T, srv *testserver.Server, owner, name string, private bool) *gitea.Repository {
	t.Helper()
	return createRepo(t, userClient(srv, owner), gitea.CreateRepoOption{Name: name, Private: private})
}

// socialCollab makes name a collaborator of owner/repo with perm, as the owner.
func socialCollab(t *testing.T, srv *testserver.Server, owner, repo, name string, perm gitea.AccessMode) {
	t.Helper()
	resp, err := userClient(srv, owner).AddCollaborator(owner, repo, name, gitea.AddCollaboratorOption{Permission: &perm})
	assertSDKStatus(t, resp, err, http.StatusNoContent)
}

// getRepoAs reads owner/repo with the given Authorization pair and returns
// the status and, on 200, the repository.
func getRepoAs(t *testing.T, srv *testserver.Server, owner, repo string, header ...string) (int, *gitea.Repository) {
	t.Helper()
	r := srv.Do("GET", "/repos/"+owner+"/"+repo, nil, header...)
	if r.Status != http.StatusOK {
		return r.Status, nil
	}
	var out gitea.Repository
	r.Decode(t, &out)
	return r.Status, &out
}

// socialLogins returns the sorted logins of users.
func socialLogins(users []*gitea.User) []string {
	out := make([]string, 0, len(users))
	for _, u := range users {
		out = append(out, u.UserName)
	}
	sort.Strings(out)
	return out
}

// decodeLogins decodes a raw array of users and returns their sorted logins.
func decodeLogins(t *testing.T, r testserver.Response) []string {
	t.Helper()
	var users []*gitea.User
	r.Decode(t, &users)
	return socialLogins(users)
}

// repoNames returns the sorted full names of repos.
func repoNames(repos []*gitea.Repository) []string {
	out := make([]string, 0, len(repos))
	for _, r := range repos {
		out = append(out, r.FullName)
	}
	sort.Strings(out)
	return out
}

// TestSocCollaborators covers listing, checking, adding (with each
// permission and the default), the permission route and removing
// collaborators, on both backends.
func TestSocCollaborators(t *testing.T) {
	t.Parallel()
	backends(t, testSocCollaborators)
}

func testSocCollaborators(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "rita", "walt", "ada", "sam")
	createRepoAs(t, srv, "carol", "proj", false)
	carol := userClient(srv, "carol")
	const R = "/repos/carol/proj/collaborators/"

	t.Run("empty list", func(t *testing.T) {
		is := is.New(t)
		list, _, err := carol.ListCollaborators("carol", "proj", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		r := srv.Do("GET", "/repos/carol/proj/collaborators", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(strings.TrimSpace(string(r.Body)), "[]") // an array, not null
	})

	t.Run("add with each permission", func(t *testing.T) {
		is := is.New(t)
		socialCollab(t, srv, "carol", "proj", "rita", gitea.AccessModeRead)
		// No body at all and an empty object both mean write.
		is.Equal(srv.Do("PUT", R+"walt", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("PUT", R+"ada", "{}", basicAs("carol")...).Status, http.StatusNoContent)
		p, _, err := carol.CollaboratorPermission("carol", "proj", "ada")
		is.NoErr(err)
		is.Equal(p.Permission, gitea.AccessModeWrite)
		// Adding again changes the permission.
		is.Equal(srv.Do("PUT", R+"ada", map[string]string{"permission": "admin"}, basicAs("carol")...).Status, http.StatusNoContent)
	})

	t.Run("list", func(t *testing.T) {
		is := is.New(t)
		list, _, err := carol.ListCollaborators("carol", "proj", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(socialLogins(list), []string{"ada", "rita", "walt"})
		// A reader of the public repository may list them too (AR).
		list, _, err = userClient(srv, "sam").ListCollaborators("carol", "proj", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 3)
		// Pages.
		r := srv.Do("GET", "/repos/carol/proj/collaborators?limit=2&page=2", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(len(decodeLogins(t, r)), 1)
		is.Equal(r.Header.Get("X-Total-Count"), "3")
	})

	t.Run("check", func(t *testing.T) {
		is := is.New(t)
		ok, _, err := carol.IsCollaborator("carol", "proj", "rita")
		is.NoErr(err)
		is.True(ok)
		is.Equal(srv.Do("GET", R+"rita", nil, basicAs("sam")...).Status, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", R+"sam", nil, basicAs("carol")...), http.StatusNotFound, "")
		// The owner is not a collaborator.
		assertAPIError(t, srv.Do("GET", R+"carol", nil, basicAs("carol")...), http.StatusNotFound, "")
		// An unknown account is a 422, not a 404 (spec 4.2).
		assertAPIError(t, srv.Do("GET", R+"ghost", nil, basicAs("carol")...), http.StatusUnprocessableEntity, "")
	})

	t.Run("invalid additions", func(t *testing.T) {
		is := is.New(t)
		assertInvalid(t, srv.Do("PUT", R+"sam", map[string]string{"permission": "superuser"}, basicAs("carol")...), "Permission")
		assertAPIError(t, srv.Do("PUT", R+"sam", `{"permission": 3}`, basicAs("carol")...), http.StatusUnprocessableEntity, "")
		assertAPIError(t, srv.Do("PUT", R+"ghost", map[string]string{"permission": "read"}, basicAs("carol")...),
			http.StatusUnprocessableEntity, "")
		assertAPIError(t, srv.Do("PUT", R+"carol", map[string]string{"permission": "read"}, basicAs("carol")...),
			http.StatusUnprocessableEntity, "")
		// None of them became a collaborator.
		assertAPIError(t, srv.Do("GET", R+"sam", nil, basicAs("carol")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", R+"carol", nil, basicAs("carol")...), http.StatusNotFound, "")
		list, _, err := carol.ListCollaborators("carol", "proj", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 3)
	})

	t.Run("permission", func(t *testing.T) {
		want := []struct {
			asker, about string
			perm         gitea.AccessMode
		}{
			{"carol", "carol", gitea.AccessModeAdmin},
			{"carol", "rita", gitea.AccessModeRead},
			{"carol", "walt", gitea.AccessModeWrite},
			{"carol", "ada", gitea.AccessModeAdmin},
			// Anyone may read a public repository.
			{"carol", "sam", gitea.AccessModeRead},
			// Collaborators ask about themselves, repository admins about anyone.
			{"rita", "rita", gitea.AccessModeRead},
			{"sam", "sam", gitea.AccessModeRead},
			{"ada", "walt", gitea.AccessModeWrite},
			{"admin", "ada", gitea.AccessModeAdmin},
		}
		for _, w := range want {
			is := is.New(t)
			c := srv.AdminClient()
			if w.asker != "admin" {
				c = userClient(srv, w.asker)
			}
			p, _, err := c.CollaboratorPermission("carol", "proj", w.about)
			is.NoErr(err)
			is.Equal(p.Permission, w.perm) // permission
			is.Equal(p.Role, string(w.perm))
			is.Equal(p.User.UserName, w.about)
		}
		assertAPIError(t, srv.Do("GET", R+"ghost/permission", nil, basicAs("carol")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", R+"walt/permission", nil, basicAs("rita")...), http.StatusForbidden, msgPermOthers)
		assertAPIError(t, srv.Do("GET", R+"carol/permission", nil, basicAs("sam")...), http.StatusForbidden, msgPermOthers)
		// Gitea refuses before looking the account up, so an unknown name
		// tells a non-admin nothing either.
		assertAPIError(t, srv.Do("GET", R+"ghost/permission", nil, basicAs("sam")...), http.StatusForbidden, msgPermOthers)
		// The name is compared without case.
		is.New(t).Equal(srv.Do("GET", R+"RITA/permission", nil, basicAs("rita")...).Status, http.StatusOK)
	})

	t.Run("remove", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.DeleteCollaborator("carol", "proj", "rita")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		ok, _, err := carol.IsCollaborator("carol", "proj", "rita")
		is.NoErr(err)
		is.True(!ok)
		// Removing a non-collaborator succeeds, as in Gitea; an unknown account is a 422.
		is.Equal(srv.Do("DELETE", R+"rita", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("DELETE", R+"sam", nil, basicAs("carol")...).Status, http.StatusNoContent)
		assertAPIError(t, srv.Do("DELETE", R+"ghost", nil, basicAs("carol")...), http.StatusUnprocessableEntity, "")
		list, _, err := carol.ListCollaborators("carol", "proj", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(socialLogins(list), []string{"ada", "walt"})
		// rita is a mere reader of the public repository again.
		p, _, err := carol.CollaboratorPermission("carol", "proj", "rita")
		is.NoErr(err)
		is.Equal(p.Permission, gitea.AccessModeRead)
	})

	t.Run("unknown repository", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/repos/carol/nope/collaborators", nil, basicAs("carol")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("PUT", "/repos/carol/nope/collaborators/sam", nil, basicAs("carol")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/nobody/proj/collaborators/sam/permission", nil, basicAs("carol")...),
			http.StatusNotFound, "")
	})
}

// TestSocCollaboratorAccessEffect checks what each collaborator permission
// gives on a private repository, and that removal takes it away.
func TestSocCollaboratorAccessEffect(t *testing.T) {
	t.Parallel()
	backends(t, testSocCollaboratorAccessEffect)
}

func testSocCollaboratorAccessEffect(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "rita", "walt", "ada", "sam")
	createRepoAs(t, srv, "carol", "vault", true)
	desc := func(s string) map[string]any { return map[string]any{"description": s} }

	t.Run("hidden before", func(t *testing.T) {
		is := is.New(t)
		st, _ := getRepoAs(t, srv, "carol", "vault", basicAs("rita")...)
		is.Equal(st, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/repos/carol/vault/collaborators", nil, basicAs("rita")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("PATCH", "/repos/carol/vault", desc("x"), basicAs("rita")...), http.StatusNotFound, "")
	})

	t.Run("read", func(t *testing.T) {
		is := is.New(t)
		socialCollab(t, srv, "carol", "vault", "rita", gitea.AccessModeRead)
		st, r := getRepoAs(t, srv, "carol", "vault", basicAs("rita")...)
		is.Equal(st, http.StatusOK)
		is.Equal(*r.Permissions, gitea.Permission{Pull: true})
		assertAPIError(t, srv.Do("PATCH", "/repos/carol/vault", desc("x"), basicAs("rita")...), http.StatusForbidden, msgRepoAdmin)
		// A reader lists and checks collaborators (AR) but manages none (RA).
		is.Equal(srv.Do("GET", "/repos/carol/vault/collaborators", nil, basicAs("rita")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/repos/carol/vault/collaborators/rita", nil, basicAs("rita")...).Status, http.StatusNoContent)
		assertAPIError(t, srv.Do("PUT", "/repos/carol/vault/collaborators/sam", nil, basicAs("rita")...), http.StatusForbidden, msgRepoAdmin)
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/vault/collaborators/rita", nil, basicAs("rita")...), http.StatusForbidden, msgRepoAdmin)
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/vault", nil, basicAs("rita")...), http.StatusForbidden, msgRepoOwner)
	})

	t.Run("write", func(t *testing.T) {
		is := is.New(t)
		socialCollab(t, srv, "carol", "vault", "walt", gitea.AccessModeWrite)
		st, r := getRepoAs(t, srv, "carol", "vault", basicAs("walt")...)
		is.Equal(st, http.StatusOK)
		is.Equal(*r.Permissions, gitea.Permission{Push: true, Pull: true})
		assertAPIError(t, srv.Do("PATCH", "/repos/carol/vault", desc("x"), basicAs("walt")...), http.StatusForbidden, msgRepoAdmin)
		assertAPIError(t, srv.Do("PUT", "/repos/carol/vault/collaborators/sam", nil, basicAs("walt")...), http.StatusForbidden, msgRepoAdmin)
	})

	t.Run("admin", func(t *testing.T) {
		is := is.New(t)
		socialCollab(t, srv, "carol", "vault", "ada", gitea.AccessModeAdmin)
		st, r := getRepoAs(t, srv, "carol", "vault", basicAs("ada")...)
		is.Equal(st, http.StatusOK)
		is.Equal(*r.Permissions, gitea.Permission{Admin: true, Push: true, Pull: true})
		edited, _, err := userClient(srv, "ada").EditRepo("carol", "vault", gitea.EditRepoOption{Description: gitea.OptionalString("by ada")})
		is.NoErr(err)
		is.Equal(edited.Description, "by ada")
		// A repository admin manages collaborators…
		is.Equal(srv.Do("PUT", "/repos/carol/vault/collaborators/sam", map[string]string{"permission": "read"}, basicAs("ada")...).Status,
			http.StatusNoContent)
		st, _ = getRepoAs(t, srv, "carol", "vault", basicAs("sam")...)
		is.Equal(st, http.StatusOK)
		is.Equal(srv.Do("DELETE", "/repos/carol/vault/collaborators/sam", nil, basicAs("ada")...).Status, http.StatusNoContent)
		st, _ = getRepoAs(t, srv, "carol", "vault", basicAs("sam")...)
		is.Equal(st, http.StatusNotFound)
		// …but only the owner deletes the repository.
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/vault", nil, basicAs("ada")...), http.StatusForbidden, msgRepoOwner)
		st, _ = getRepoAs(t, srv, "carol", "vault", basicAs("carol")...)
		is.Equal(st, http.StatusOK)
	})

	t.Run("site admin", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("GET", "/repos/carol/vault/collaborators", nil, socialAdmin(srv)...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/repos/carol/vault/collaborators/sam", nil, socialAdmin(srv)...).Status, http.StatusNoContent)
		is.Equal(srv.Do("DELETE", "/repos/carol/vault/collaborators/sam", nil, socialAdmin(srv)...).Status, http.StatusNoContent)
	})

	t.Run("removal hides again", func(t *testing.T) {
		is := is.New(t)
		// rita watches and stars the repository while she may see it.
		_, err := userClient(srv, "rita").WatchRepo("carol", "vault")
		is.NoErr(err)
		_, err = userClient(srv, "rita").StarRepo("carol", "vault")
		is.NoErr(err)
		_, r := getRepoAs(t, srv, "carol", "vault", basicAs("carol")...)
		is.Equal(r.Watchers, 2)
		resp, err := userClient(srv, "carol").DeleteCollaborator("carol", "vault", "rita")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		st, _ := getRepoAs(t, srv, "carol", "vault", basicAs("rita")...)
		is.Equal(st, http.StatusNotFound)
		assertAPIError(t, srv.Do("GET", "/repos/carol/vault/collaborators/rita/permission", nil, basicAs("rita")...),
			http.StatusNotFound, "")
		// As in Gitea (ReconsiderWatches), one who may no longer read the
		// repository stops watching it; the star stays.
		_, r = getRepoAs(t, srv, "carol", "vault", basicAs("carol")...)
		is.Equal(r.Watchers, 1)
		is.Equal(r.Stars, 1)
		is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/vault/subscribers", nil, basicAs("carol")...)), []string{"carol"})
		// Added back, she is no watcher until she watches again.
		socialCollab(t, srv, "carol", "vault", "rita", gitea.AccessModeRead)
		assertAPIError(t, srv.Do("GET", "/repos/carol/vault/subscription", nil, basicAs("rita")...), http.StatusNotFound, "")
	})

	t.Run("removal from a public repository keeps the watch", func(t *testing.T) {
		is := is.New(t)
		createRepoAs(t, srv, "carol", "plaza", false)
		socialCollab(t, srv, "carol", "plaza", "walt", gitea.AccessModeWrite)
		_, err := userClient(srv, "walt").WatchRepo("carol", "plaza")
		is.NoErr(err)
		resp, err := userClient(srv, "carol").DeleteCollaborator("carol", "plaza", "walt")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		ok, _, err := userClient(srv, "walt").CheckRepoWatch("carol", "plaza")
		is.NoErr(err)
		is.True(ok)
		_, r := getRepoAs(t, srv, "carol", "plaza", basicAs("carol")...)
		is.Equal(r.Watchers, 2)
	})
}

// TestSocCollaboratorRouteAccess covers the access rules of the
// collaborator routes: sign-in, strangers, public-only tokens and scopes.
func TestSocCollaboratorRouteAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "carol", "rita", "sam")
	createRepoAs(t, srv, "carol", "open", false)
	createRepoAs(t, srv, "carol", "shut", true)
	socialCollab(t, srv, "carol", "shut", "rita", gitea.AccessModeRead)
	routes := []struct{ method, path string }{
		{"GET", "/collaborators"},
		{"GET", "/collaborators/rita"},
		{"PUT", "/collaborators/sam"},
		{"DELETE", "/collaborators/rita"},
		{"GET", "/collaborators/rita/permission"},
	}

	t.Run("anonymous", func(t *testing.T) {
		for _, rt := range routes {
			assertAPIError(t, srv.Do(rt.method, "/repos/carol/open"+rt.path, nil), http.StatusUnauthorized, msgTokenRequired)
			// As in Gitea, the repository is resolved first: a private or
			// absent one is a 404 to anonymous callers too.
			assertAPIError(t, srv.Do(rt.method, "/repos/carol/shut"+rt.path, nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(rt.method, "/repos/carol/nope"+rt.path, nil), http.StatusNotFound, "")
		}
	})

	t.Run("stranger", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("GET", "/repos/carol/open/collaborators", nil, basicAs("sam")...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("PUT", "/repos/carol/open/collaborators/sam", nil, basicAs("sam")...), http.StatusForbidden, msgRepoAdmin)
		assertAPIError(t, srv.Do("DELETE", "/repos/carol/open/collaborators/rita", nil, basicAs("sam")...), http.StatusForbidden, msgRepoAdmin)
		// A private repository is absent to whoever may not see it.
		for _, rt := range routes {
			assertAPIError(t, srv.Do(rt.method, "/repos/carol/shut"+rt.path, nil, basicAs("sam")...), http.StatusNotFound, "")
		}
	})

	t.Run("public-only token", func(t *testing.T) {
		is := is.New(t)
		tok := tokenHeader(srv, "carol", "public-only", "write:repository")
		is.Equal(srv.Do("GET", "/repos/carol/open/collaborators", nil, tok...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/repos/carol/open/collaborators/sam", nil, tok...).Status, http.StatusNoContent)
		for _, rt := range routes {
			assertAPIError(t, srv.Do(rt.method, "/repos/carol/shut"+rt.path, nil, tok...), http.StatusForbidden, msgPublicOnly)
		}
	})

	t.Run("token scopes", func(t *testing.T) {
		is := is.New(t)
		userOnly := tokenHeader(srv, "carol", "write:user")
		scopeWantDenied(is, srv.Do("GET", "/repos/carol/open/collaborators", nil, userOnly...), "read:repository", "write:user")
		scopeWantDenied(is, srv.Do("GET", "/repos/carol/shut/collaborators/rita/permission", nil, userOnly...), "read:repository", "write:user")
		readRepo := tokenHeader(srv, "carol", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/shut/collaborators", nil, readRepo...).Status, http.StatusOK)
		scopeWantDenied(is, srv.Do("PUT", "/repos/carol/shut/collaborators/sam", nil, readRepo...), "write:repository", "read:repository")
		scopeWantDenied(is, srv.Do("DELETE", "/repos/carol/shut/collaborators/rita", nil, readRepo...), "write:repository", "read:repository")
		writeRepo := tokenHeader(srv, "carol", "write:repository")
		is.Equal(srv.Do("PUT", "/repos/carol/shut/collaborators/sam", nil, writeRepo...).Status, http.StatusNoContent)
	})
}

// TestSocAssignees covers R/assignees: the owner and the collaborators who
// may write, not the readers.
func TestSocAssignees(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "carol", "rita", "walt", "ada", "sam")
	createRepoAs(t, srv, "carol", "tasks", false)
	createRepoAs(t, srv, "carol", "hush", true)
	for _, repo := range []string{"tasks", "hush"} {
		socialCollab(t, srv, "carol", repo, "rita", gitea.AccessModeRead)
		socialCollab(t, srv, "carol", repo, "walt", gitea.AccessModeWrite)
		socialCollab(t, srv, "carol", repo, "ada", gitea.AccessModeAdmin)
	}

	is := is.New(t)
	list, _, err := userClient(srv, "carol").GetAssignees("carol", "tasks")
	is.NoErr(err)
	// Ordered by name, the owner among the others, as in Gitea.
	got := make([]string, len(list))
	for i, u := range list {
		got[i] = u.UserName
	}
	is.Equal(got, []string{"ada", "carol", "walt"})
	// Any reader may ask (AR), the read collaborator of the private one too.
	is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/tasks/assignees", nil, basicAs("sam")...)), []string{"ada", "carol", "walt"})
	is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/hush/assignees", nil, basicAs("rita")...)), []string{"ada", "carol", "walt"})
	is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/hush/assignees", nil, socialAdmin(srv)...)), []string{"ada", "carol", "walt"})

	// An inactive account is assigned nothing.
	no := false
	_, err = srv.AdminClient().AdminEditUser("walt", gitea.EditUserOption{LoginName: "walt", Active: &no})
	is.NoErr(err)
	is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/tasks/assignees", nil, basicAs("carol")...)), []string{"ada", "carol"})

	assertAPIError(t, srv.Do("GET", "/repos/carol/tasks/assignees", nil), http.StatusUnauthorized, msgTokenRequired)
	assertAPIError(t, srv.Do("GET", "/repos/carol/hush/assignees", nil), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("GET", "/repos/carol/hush/assignees", nil, basicAs("sam")...), http.StatusNotFound, "")
	assertAPIError(t, srv.Do("GET", "/repos/carol/hush/assignees", nil, tokenHeader(srv, "carol", "public-only", "read:repository")...),
		http.StatusForbidden, msgPublicOnly)
	scopeWantDenied(is, srv.Do("GET", "/repos/carol/tasks/assignees", nil, tokenHeader(srv, "carol", "read:user")...), "read:repository", "read:user")
}
