package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// socialCounts reads owner/repo as the owner and returns its star and watcher counts.
func socialCounts(t *testing.T, srv *testserver.Server, owner, repo string) (stars, watchers int) {
	t.Helper()
	st, r := getRepoAs(t, srv, owner, repo, basicAs(owner)...)
	if st != http.StatusOK {
		t.Fatalf("get %s/%s: %d", owner, repo, st)
	}
	return r.Stars, r.Watchers
}

// repoList decodes a raw array of repositories and returns their sorted full names.
func repoList(t *testing.T, r testserver.Response) []string {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var list []*gitea.Repository
	r.Decode(t, &list)
	return repoNames(list)
}

// TestSocStars covers starring, unstarring, the counters and the star
// listings, with their access rules, on both backends.
func TestSocStars(t *testing.T) {
	t.Parallel()
	backends(t, testSocStars)
}

func testSocStars(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "sam", "rita")
	createRepoAs(t, srv, "carol", "shiny", false)
	createRepoAs(t, srv, "carol", "secret", true)
	sam := userClient(srv, "sam")
	carol := userClient(srv, "carol")

	t.Run("star", func(t *testing.T) {
		is := is.New(t)
		ok, _, err := sam.IsRepoStarring("carol", "shiny")
		is.NoErr(err)
		is.True(!ok)
		resp, err := sam.StarRepo("carol", "shiny")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		is.Equal(srv.Do("GET", "/user/starred/carol/shiny", nil, basicAs("sam")...).Status, http.StatusNoContent)
		ok, _, err = sam.IsRepoStarring("carol", "shiny")
		is.NoErr(err)
		is.True(ok)
		stars, _ := socialCounts(t, srv, "carol", "shiny")
		is.Equal(stars, 1)
		// Starring twice counts once.
		is.Equal(srv.Do("PUT", "/user/starred/carol/shiny", nil, basicAs("sam")...).Status, http.StatusNoContent)
		stars, _ = socialCounts(t, srv, "carol", "shiny")
		is.Equal(stars, 1)
		// The user's starred_repos_count follows, once per repository.
		var me gitea.User
		srv.Do("GET", "/users/sam", nil, basicAs("rita")...).Decode(t, &me)
		is.Equal(me.StarredRepoCount, 1)
		// Another star.
		_, err = carol.StarRepo("carol", "shiny")
		is.NoErr(err)
		stars, _ = socialCounts(t, srv, "carol", "shiny")
		is.Equal(stars, 2)
		// Others do not see sam's star as theirs.
		assertAPIError(t, srv.Do("GET", "/user/starred/carol/shiny", nil, basicAs("rita")...), http.StatusNotFound, "")
	})

	t.Run("stargazers", func(t *testing.T) {
		is := is.New(t)
		list, _, err := carol.ListRepoStargazers("carol", "shiny", gitea.ListStargazersOptions{})
		is.NoErr(err)
		is.Equal(socialLogins(list), []string{"carol", "sam"})
		// Anyone who may read the repository may list them.
		is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/shiny/stargazers", nil)), []string{"carol", "sam"})
		assertAPIError(t, srv.Do("GET", "/repos/carol/secret/stargazers", nil, basicAs("sam")...), http.StatusNotFound, "")
	})

	t.Run("starred lists", func(t *testing.T) {
		is := is.New(t)
		_, err := carol.StarRepo("carol", "secret")
		is.NoErr(err)
		mine, _, err := sam.GetMyStarredRepos()
		is.NoErr(err)
		is.Equal(repoNames(mine), []string{"carol/shiny"})
		theirs, _, err := carol.GetStarredRepos("sam")
		is.NoErr(err)
		is.Equal(repoNames(theirs), []string{"carol/shiny"})
		mine, _, err = carol.GetMyStarredRepos()
		is.NoErr(err)
		is.Equal(repoNames(mine), []string{"carol/secret", "carol/shiny"})
		// The private one is left out for whoever may not see it…
		is.Equal(repoList(t, srv.Do("GET", "/users/carol/starred", nil, basicAs("sam")...)), []string{"carol/shiny"})
		// …and for a public-only token, even the owner's.
		is.Equal(repoList(t, srv.Do("GET", "/user/starred", nil, tokenHeader(srv, "carol", "public-only", "read:repository")...)),
			[]string{"carol/shiny"})
		// The site admin sees both.
		is.Equal(repoList(t, srv.Do("GET", "/users/carol/starred", nil, socialAdmin(srv)...)), []string{"carol/secret", "carol/shiny"})
		assertAPIError(t, srv.Do("GET", "/users/ghost/starred", nil, basicAs("sam")...), http.StatusNotFound, "")
		// As in Gitea (whose GetStarredRepos checks no account visibility),
		// a private account's stars of repositories the viewer may see are
		// listed.
		newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
		_, err = userClient(srv, "hermit").StarRepo("carol", "shiny")
		is.NoErr(err)
		is.Equal(repoList(t, srv.Do("GET", "/users/hermit/starred", nil, basicAs("sam")...)), []string{"carol/shiny"})
		is.Equal(repoList(t, srv.Do("GET", "/users/hermit/starred", nil, basicAs("hermit")...)), []string{"carol/shiny"})
		_, err = userClient(srv, "hermit").UnStarRepo("carol", "shiny")
		is.NoErr(err)
	})

	t.Run("hidden or absent repositories", func(t *testing.T) {
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			assertAPIError(t, srv.Do(m, "/user/starred/carol/secret", nil, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/user/starred/carol/nope", nil, basicAs("sam")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do(m, "/user/starred/carol/secret", nil, tokenHeader(srv, "carol", "public-only", "write:repository")...),
				http.StatusForbidden, msgPublicOnly)
		}
		stars, _ := socialCounts(t, srv, "carol", "secret")
		is.New(t).Equal(stars, 1)
	})

	t.Run("unstar", func(t *testing.T) {
		is := is.New(t)
		resp, err := sam.UnStarRepo("carol", "shiny")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", "/user/starred/carol/shiny", nil, basicAs("sam")...), http.StatusNotFound, "")
		stars, _ := socialCounts(t, srv, "carol", "shiny")
		is.Equal(stars, 1)
		// Unstarring again is no error and changes nothing.
		is.Equal(srv.Do("DELETE", "/user/starred/carol/shiny", nil, basicAs("sam")...).Status, http.StatusNoContent)
		stars, _ = socialCounts(t, srv, "carol", "shiny")
		is.Equal(stars, 1)
		mine, _, err := sam.GetMyStarredRepos()
		is.NoErr(err)
		is.Equal(len(mine), 0)
		var me gitea.User
		srv.Do("GET", "/user", nil, basicAs("sam")...).Decode(t, &me)
		is.Equal(me.StarredRepoCount, 0)
		list, _, err := carol.ListRepoStargazers("carol", "shiny", gitea.ListStargazersOptions{})
		is.NoErr(err)
		is.Equal(socialLogins(list), []string{"carol"})
	})

	t.Run("needs a caller and the scope", func(t *testing.T) {
		is := is.New(t)
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			assertAPIError(t, srv.Do(m, "/user/starred/carol/shiny", nil), http.StatusUnauthorized, msgTokenRequired)
		}
		assertAPIError(t, srv.Do("GET", "/user/starred", nil), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("GET", "/users/carol/starred", nil), http.StatusUnauthorized, msgTokenRequired)
		scopeWantDenied(is, srv.Do("PUT", "/user/starred/carol/shiny", nil, tokenHeader(srv, "sam", "write:user")...), "write:repository", "write:user")
		scopeWantDenied(is, srv.Do("PUT", "/user/starred/carol/shiny", nil, tokenHeader(srv, "sam", "read:repository")...),
			"write:repository", "read:repository")
		is.Equal(srv.Do("PUT", "/user/starred/carol/shiny", nil, tokenHeader(srv, "sam", "write:repository")...).Status, http.StatusNoContent)
	})
}

// TestSocStarsDisabled checks that every star route answers 403 when the
// site turns stars off.
func TestSocStarsDisabled(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.EnableStars = false }))
	socialAccounts(t, srv, "carol", "sam")
	createRepoAs(t, srv, "carol", "shiny", false)
	for _, rt := range []struct{ method, path string }{
		{"GET", "/user/starred"},
		{"GET", "/user/starred/carol/shiny"},
		{"PUT", "/user/starred/carol/shiny"},
		{"DELETE", "/user/starred/carol/shiny"},
		{"GET", "/users/carol/starred"},
		{"GET", "/repos/carol/shiny/stargazers"},
	} {
		assertAPIError(t, srv.Do(rt.method, rt.path, nil, basicAs("sam")...), http.StatusForbidden, msgStarsOff)
	}
	// Anonymous callers of the public listing learn the same.
	assertAPIError(t, srv.Do("GET", "/repos/carol/shiny/stargazers", nil), http.StatusForbidden, msgStarsOff)
	stars, _ := socialCounts(t, srv, "carol", "shiny")
	is.New(t).Equal(stars, 0)
}

// TestSocDeletionForgetsRelations checks that deleting a repository drops
// its collaborators, keys, stars, watches and topics, so that a new
// repository of the same name starts clean (no inherited access), and
// that deleting an account drops its stars, watches and collaborations.
func TestSocDeletionForgetsRelations(t *testing.T) {
	t.Parallel()
	backends(t, testSocDeletionForgetsRelations)
}

func testSocDeletionForgetsRelations(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "sam", "rita")
	carol := userClient(srv, "carol")
	sam := userClient(srv, "sam")

	t.Run("repository", func(t *testing.T) {
		is := is.New(t)
		createRepoAs(t, srv, "carol", "phoenix", true)
		socialCollab(t, srv, "carol", "phoenix", "sam", gitea.AccessModeWrite)
		_, err := sam.StarRepo("carol", "phoenix")
		is.NoErr(err)
		_, err = sam.WatchRepo("carol", "phoenix")
		is.NoErr(err)
		line, _ := ed25519Key(t, "")
		_, _, err = carol.CreateDeployKey("carol", "phoenix", gitea.CreateKeyOption{Title: "ci", Key: line})
		is.NoErr(err)
		_, err = carol.SetRepoTopics("carol", "phoenix", []string{"reborn"})
		is.NoErr(err)
		stars, watchers := socialCounts(t, srv, "carol", "phoenix")
		is.Equal(stars, 1)
		is.Equal(watchers, 2)

		resp, err := carol.DeleteRepo("carol", "phoenix")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		createRepoAs(t, srv, "carol", "phoenix", true)

		st, _ := getRepoAs(t, srv, "carol", "phoenix", basicAs("sam")...)
		is.Equal(st, http.StatusNotFound) // the old collaboration is gone
		list, _, err := carol.ListCollaborators("carol", "phoenix", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		keys, _, err := carol.ListDeployKeys("carol", "phoenix", gitea.ListDeployKeysOptions{})
		is.NoErr(err)
		is.Equal(len(keys), 0)
		// The key may be added again: nothing of the old one is left.
		_, _, err = carol.CreateDeployKey("carol", "phoenix", gitea.CreateKeyOption{Title: "ci", Key: line})
		is.NoErr(err)
		is.Equal(socialTopics(t, srv, "carol", "phoenix"), []string{})
		is.True(searchTopic(t, srv, "reborn") == nil)
		stars, watchers = socialCounts(t, srv, "carol", "phoenix")
		is.Equal(stars, 0)
		is.Equal(watchers, 1)
		mine, _, err := sam.GetMyStarredRepos()
		is.NoErr(err)
		is.Equal(len(mine), 0)
		watched, _, err := sam.GetMyWatchedRepos()
		is.NoErr(err)
		is.Equal(len(watched), 0)
	})

	t.Run("account", func(t *testing.T) {
		is := is.New(t)
		createRepoAs(t, srv, "carol", "kept", false)
		socialCollab(t, srv, "carol", "kept", "rita", gitea.AccessModeWrite)
		rita := userClient(srv, "rita")
		_, err := rita.StarRepo("carol", "kept")
		is.NoErr(err)
		_, err = rita.WatchRepo("carol", "kept")
		is.NoErr(err)
		stars, watchers := socialCounts(t, srv, "carol", "kept")
		is.Equal(stars, 1)
		is.Equal(watchers, 2)

		resp, err := srv.AdminClient().AdminDeleteUser("rita")
		assertSDKStatus(t, resp, err, http.StatusNoContent)

		stars, watchers = socialCounts(t, srv, "carol", "kept")
		is.Equal(stars, 0)
		is.Equal(watchers, 1)
		list, _, err := carol.ListCollaborators("carol", "kept", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		gazers, _, err := carol.ListRepoStargazers("carol", "kept", gitea.ListStargazersOptions{})
		is.NoErr(err)
		is.Equal(len(gazers), 0)
		is.Equal(decodeLogins(t, srv.Do("GET", "/repos/carol/kept/subscribers", nil)), []string{"carol"})
		assigned, _, err := carol.GetAssignees("carol", "kept")
		is.NoErr(err)
		is.Equal(socialLogins(assigned), []string{"carol"})
		// A new account of the same name inherits nothing.
		socialAccounts(t, srv, "rita")
		ok, _, err := carol.IsCollaborator("carol", "kept", "rita")
		is.NoErr(err)
		is.True(!ok)
		assertAPIError(t, srv.Do("GET", "/user/starred/carol/kept", nil, basicAs("rita")...), http.StatusNotFound, "")
	})
}

// TestSocStarsRenamed checks that the star routes follow a renamed
// repository: 301 for reads, 307 for writes.
func TestSocStarsRenamed(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "carol", "sam")
	createRepoAs(t, srv, "carol", "before", false)
	is := is.New(t)
	_, _, err := userClient(srv, "carol").EditRepo("carol", "before", gitea.EditRepoOption{Name: gitea.OptionalString("after")})
	is.NoErr(err)

	r := srv.Do("PUT", "/user/starred/carol/before", nil, basicAs("sam")...)
	is.Equal(r.Status, http.StatusTemporaryRedirect)
	is.Equal(r.Header.Get("Location"), "/api/v1/user/starred/carol/after")
	r = srv.Do("GET", "/user/starred/carol/before", nil, basicAs("sam")...)
	is.Equal(r.Status, http.StatusMovedPermanently)
	is.Equal(r.Header.Get("Location"), "/api/v1/user/starred/carol/after")
	r = srv.Do("PUT", "/repos/carol/before/subscription", nil, basicAs("sam")...)
	is.Equal(r.Status, http.StatusTemporaryRedirect)
	is.Equal(r.Header.Get("Location"), "/api/v1/repos/carol/after/subscription")
	// The SDK's client follows them.
	_, err = userClient(srv, "sam").StarRepo("carol", "before")
	is.NoErr(err)
	stars, _ := socialCounts(t, srv, "carol", "after")
	is.Equal(stars, 1)
}

// TestSocStarsConcurrent stars and watches one repository from many
// accounts at once and checks that the counters match the rows, on both
// backends.
func TestSocStarsConcurrent(t *testing.T) {
	t.Parallel()
	backends(t, testSocStarsConcurrent)
}

func testSocStarsConcurrent(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	const n = 12
	names := make([]string, n)
	for i := range names {
		names[i] = "fan" + string(rune('a'+i))
	}
	socialAccounts(t, srv, append(names, "carol")...)
	createRepoAs(t, srv, "carol", "popular", false)

	errs := make(chan error, 2*n)
	send := func(method, path, name string) {
		req, err := http.NewRequest(method, srv.API+path, nil)
		if err != nil {
			errs <- err
			return
		}
		req.SetBasicAuth(name, userPassword)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			errs <- err
			return
		}
		_ = resp.Body.Close()
		if resp.StatusCode >= 300 {
			errs <- &statusError{method + " " + path, resp.StatusCode}
			return
		}
		errs <- nil
	}
	for _, name := range names {
		go send("PUT", "/user/starred/carol/popular", name)
		go send("PUT", "/repos/carol/popular/subscription", name)
	}
	is := is.New(t)
	for range 2 * n {
		is.NoErr(<-errs)
	}
	stars, watchers := socialCounts(t, srv, "carol", "popular")
	is.Equal(stars, n)
	is.Equal(watchers, n+1)
	gazers, _, err := userClient(srv, "carol").ListRepoStargazers("carol", "popular", gitea.ListStargazersOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
	is.NoErr(err)
	is.Equal(len(gazers), n)
}

// statusError is an unexpected status seen off the test goroutine.
type statusError struct {
	what   string
	status int
}

func (e *statusError) Error() string { return e.what + ": status " + http.StatusText(e.status) }
