package test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// The refusals of the access matrix, as domain/permission/code.go and
// domain/token/scope.go word them.
const (
	msgTokenRequired = "token is required"
	msgRepoAdmin     = "user should be an owner or a collaborator with admin write of a repository"
	msgRepoOwner     = "user should be the owner of the repo"
	msgPublicOnly    = "token scope is limited to public repos"
	msgNoRepo        = "repository does not exist"
)

// forkActor is one caller of the access matrix.
type forkActor struct {
	name string
	// header is the Authorization header value, "" for anonymous.
	header string
	// scopes is the token's scope string as scope errors quote it; "" for
	// password callers.
	scopes string
}

// forkRoute is one representative route of an access code.
type forkRoute struct {
	method, path, codes string
	// body builds the request body; nil for none.
	body func() any
	// throwaway runs each case on a fresh repository (for DELETE).
	throwaway bool
	// want is per actor the expected outcome on the public and the private
	// repository: a status, or one of the refusal keys of forkExpect.
	want map[string][2]string
}

// forkExpect turns an outcome key into the status and message to assert. A
// plain number is a success (or conflict) status whose message is not
// checked; "scope" is the token scope refusal for the route's method.
func forkExpect(t *testing.T, key string, rt forkRoute, a forkActor) (int, string) {
	t.Helper()
	switch key {
	case "401":
		return http.StatusUnauthorized, msgTokenRequired
	case "404":
		return http.StatusNotFound, msgNoRepo
	case "ra":
		return http.StatusForbidden, msgRepoAdmin
	case "ro":
		return http.StatusForbidden, msgRepoOwner
	case "public":
		return http.StatusForbidden, msgPublicOnly
	case "scope":
		level := "read"
		if rt.method != http.MethodGet {
			level = "write"
		}
		return http.StatusForbidden, scopeDenied + level + ":repository], token scope=" + a.scopes
	}
	n, err := strconv.Atoi(key)
	if err != nil {
		t.Fatalf("bad outcome key %q", key)
	}
	return n, ""
}

// matrixRepos makes alice's repository name (public or private) with a
// read, a write and an admin collaborator.
func matrixRepos(t *testing.T, aliceC *gitea.Client, name string, private bool) *gitea.Repository {
	t.Helper()
	r := createRepo(t, aliceC, gitea.CreateRepoOption{Name: name, Private: private, AutoInit: true})
	for who, mode := range map[string]gitea.AccessMode{
		"reader": gitea.AccessModeRead, "writer": gitea.AccessModeWrite, "boss": gitea.AccessModeAdmin,
	} {
		if _, err := aliceC.AddCollaborator("alice", name, who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatalf("add collaborator %s to %s: %v", who, name, err)
		}
	}
	return r
}

// forkOutcomes is a want row written as "public/private" per actor, in the
// order of the matrix's actors.
func forkOutcomes(cells ...string) map[string][2]string {
	names := []string{"anonymous", "other", "reader", "writer", "admin-collaborator", "owner", "site-admin",
		"public-only", "no-repo-scope", "read-repo-token"}
	if len(cells) != len(names) {
		panic(fmt.Sprintf("forkOutcomes: %d cells for %d actors", len(cells), len(names)))
	}
	out := map[string][2]string{}
	for i, c := range cells {
		pub, priv, ok := strings.Cut(c, "/")
		if !ok {
			panic("forkOutcomes: cell without a slash: " + c)
		}
		out[names[i]] = [2]string{pub, priv}
	}
	return out
}

// TestRepoAccessMatrix runs one representative route of each access code of
// the repository routes against every kind of caller, on a public and a
// private repository, and checks the exact status and refusal message.
func TestRepoAccessMatrix(t *testing.T) {
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runMatrix(t, testserver.Start(t, b.opts...))
		})
	}
}

func runMatrix(t *testing.T, srv *testserver.Server) {
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"carol", "reader", "writer", "boss", "dave"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	repos := [2]*gitea.Repository{matrixRepos(t, aliceC, "pub", false), matrixRepos(t, aliceC, "priv", true)}
	token := func(scopes ...string) forkActor {
		return forkActor{header: "token " + srv.CreateToken("alice", userPassword, scopes...), scopes: strings.Join(scopes, ",")}
	}
	actors := []forkActor{
		{name: "anonymous"},
		{name: "other", header: testserver.Basic("carol", userPassword)},
		{name: "reader", header: testserver.Basic("reader", userPassword)},
		{name: "writer", header: testserver.Basic("writer", userPassword)},
		{name: "admin-collaborator", header: testserver.Basic("boss", userPassword)},
		{name: "owner", header: testserver.Basic("alice", userPassword)},
		{name: "site-admin", header: testserver.Basic("admin", srv.AdminPassword)},
	}
	for _, tok := range []struct {
		name   string
		scopes []string
	}{
		{"public-only", []string{"public-only", "write:repository"}},
		{"no-repo-scope", []string{"write:user"}},
		{"read-repo-token", []string{"read:repository"}},
	} {
		a := token(tok.scopes...)
		a.name = tok.name
		actors = append(actors, a)
	}

	// Every route under R resolves the repository first (extended
	// catalogue, 4.5; Gitea's repoAssignment runs before reqToken): an
	// anonymous caller gets 404 for a private repository even where T would
	// answer 401. /repositories/{id} checks T first, as Gitea's reqToken
	// on that route does.
	routes := []forkRoute{
		{method: "GET", path: "", codes: "AR", want: forkOutcomes(
			"200/404", "200/404", "200/200", "200/200", "200/200", "200/200", "200/200", "200/public", "scope/scope", "200/200")},
		{method: "PATCH", path: "", codes: "T,RA", body: func() any { return map[string]any{"description": "edited"} }, want: forkOutcomes(
			"401/404", "ra/404", "ra/ra", "ra/ra", "200/200", "200/200", "200/200", "200/public", "scope/scope", "scope/scope")},
		{method: "DELETE", path: "", codes: "T,RO", throwaway: true, want: forkOutcomes(
			"401/404", "ro/404", "ro/ro", "ro/ro", "ro/ro", "204/204", "204/204", "204/public", "scope/scope", "scope/scope")},
		{method: "GET", path: "/collaborators", codes: "T,AR", want: forkOutcomes(
			"401/404", "200/404", "200/200", "200/200", "200/200", "200/200", "200/200", "200/public", "scope/scope", "200/200")},
		{method: "PUT", path: "/collaborators/dave", codes: "T,RA,NA", body: func() any { return map[string]any{"permission": "read"} },
			want: forkOutcomes(
				"401/404", "ra/404", "ra/ra", "ra/ra", "204/204", "204/204", "204/204", "204/public", "scope/scope", "scope/scope")},
		{method: "GET", path: "/keys", codes: "T,RA", want: forkOutcomes(
			"401/404", "ra/404", "ra/ra", "ra/ra", "200/200", "200/200", "200/200", "200/public", "scope/scope", "200/200")},
		{method: "PUT", path: "/topics", codes: "T,RA,AR,NA", body: func() any { return map[string]any{"topics": []string{"matrix"}} },
			want: forkOutcomes(
				"401/404", "ra/404", "ra/ra", "ra/ra", "204/204", "204/204", "204/204", "204/public", "scope/scope", "scope/scope")},
		// The owner (and its token) cannot fork into its own account: 409.
		{method: "POST", path: "/forks", codes: "T,RR(code)", body: func() any { return map[string]any{} }, want: forkOutcomes(
			"401/404", "202/404", "202/202", "202/202", "202/202", "409/409", "202/202", "409/public", "scope/scope", "scope/scope")},
		{method: "GET", path: "/stargazers", codes: "ST", want: forkOutcomes(
			"200/404", "200/404", "200/200", "200/200", "200/200", "200/200", "200/200", "200/public", "scope/scope", "200/200")},
		{method: "PUT", path: "/subscription", codes: "T", want: forkOutcomes(
			"401/404", "200/404", "200/200", "200/200", "200/200", "200/200", "200/200", "200/public", "scope/scope", "scope/scope")},
		{method: "GET", path: "/repositories/{id}", codes: "T", want: forkOutcomes(
			"401/401", "200/404", "200/200", "200/200", "200/200", "200/200", "200/200", "200/public", "scope/scope", "200/200")},
	}

	throwaways := 0
	for _, rt := range routes {
		t.Run(rt.method+" R"+rt.path+" ("+rt.codes+")", func(t *testing.T) {
			for _, a := range actors {
				for vis, label := range []string{"public", "private"} {
					t.Run(a.name+" on "+label, func(t *testing.T) {
						is := is.New(t)
						repo := repos[vis]
						if rt.throwaway {
							throwaways++
							repo = matrixRepos(t, aliceC, fmt.Sprintf("del-%d", throwaways), vis == 1)
						}
						path := "/repos/alice/" + repo.Name + rt.path
						if rt.path == "/repositories/{id}" {
							path = "/repositories/" + strconv.FormatInt(repo.ID, 10)
						}
						var body any
						if rt.body != nil {
							body = rt.body()
						}
						var header []string
						if a.header != "" {
							header = []string{"Authorization", a.header}
						}
						status, msg := forkExpect(t, rt.want[a.name][vis], rt, a)
						r := srv.Do(rt.method, path, body, header...)
						if msg != "" {
							assertAPIError(t, r, status, msg)
							return
						}
						is.Equal(r.Status, status) // status
						if rt.throwaway && status == http.StatusNoContent {
							_, resp, err := aliceC.GetRepo("alice", repo.Name)
							assertSDKStatus(t, resp, err, http.StatusNotFound)
						}
					})
				}
			}
		})
	}

	t.Run("effects of the successful writes", func(t *testing.T) {
		is := is.New(t)
		// Watchers: alice (as creator), the three collaborators and the site
		// admin, and carol on the public one.
		for name, watchers := range map[string]int{"pub": 6, "priv": 5} {
			got := mustGetRepo(t, aliceC, "alice", name)
			is.Equal(got.Description, "edited")
			is.Equal(strings.Join(got.Topics, ","), "matrix")
			is.Equal(got.Watchers, watchers)
			r := srv.Do("GET", "/repos/alice/"+name+"/collaborators/dave", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusNoContent)
		}
		is.Equal(mustGetRepo(t, aliceC, "alice", "pub").Forks, 5)  // carol, reader, writer, boss, admin
		is.Equal(mustGetRepo(t, aliceC, "alice", "priv").Forks, 4) // reader, writer, boss, admin
	})
}

// TestRepoAccessSiteSwitches covers the access codes that depend on site
// settings or repository state: ST with stars disabled, NA on an archived
// repository.
func TestRepoAccessSiteSwitches(t *testing.T) {
	t.Parallel()

	t.Run("stars disabled", func(t *testing.T) {
		t.Parallel()
		srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.EnableStars = false }))
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pub"})
		for _, h := range [][]string{nil, basicAs("alice"), {"Authorization", testserver.Basic("admin", srv.AdminPassword)}} {
			assertAPIError(t, srv.Do("GET", "/repos/alice/pub/stargazers", nil, h...), http.StatusForbidden, "stars disabled by administrator")
		}
		// The repository is resolved first: a missing one is still a 404.
		assertAPIError(t, srv.Do("GET", "/repos/alice/nothing/stargazers", nil), http.StatusNotFound, msgNoRepo)
	})

	t.Run("archived repository", func(t *testing.T) {
		t.Parallel()
		srv := testserver.Start(t)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "old", AutoInit: true})
		yes := true
		if _, _, err := aliceC.EditRepo("alice", "old", gitea.EditRepoOption{Archived: &yes}); err != nil {
			t.Fatalf("archive: %v", err)
		}
		admin := []string{"Authorization", testserver.Basic("admin", srv.AdminPassword)}
		for _, h := range [][]string{basicAs("alice"), admin} {
			assertAPIError(t, srv.Do("PUT", "/repos/alice/old/topics", map[string]any{"topics": []string{"x"}}, h...),
				http.StatusLocked, "alice/old is archived")
			assertAPIError(t, srv.Do("PUT", "/repos/alice/old/collaborators/dave", map[string]any{"permission": "read"}, h...),
				http.StatusLocked, "alice/old is archived")
		}
		// Access codes before NA still answer first.
		assertAPIError(t, srv.Do("PUT", "/repos/alice/old/topics", map[string]any{"topics": []string{"x"}}), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("PUT", "/repos/alice/old/topics", map[string]any{"topics": []string{"x"}}, basicAs("dave")...),
			http.StatusForbidden, msgRepoAdmin)
		// Routes without NA still work: reading, forking, watching, unarchiving.
		is := is.New(t)
		is.Equal(srv.Do("GET", "/repos/alice/old", nil).Status, http.StatusOK)
		is.Equal(srv.Do("POST", "/repos/alice/old/forks", map[string]any{}, basicAs("dave")...).Status, http.StatusAccepted)
		is.Equal(srv.Do("PUT", "/repos/alice/old/subscription", nil, basicAs("dave")...).Status, http.StatusOK)
		no := false
		r, _, err := aliceC.EditRepo("alice", "old", gitea.EditRepoOption{Archived: &no})
		is.NoErr(err)
		is.Equal(r.Archived, false)
		is.Equal(srv.Do("PUT", "/repos/alice/old/topics", map[string]any{"topics": []string{"x"}}, basicAs("alice")...).Status,
			http.StatusNoContent)
	})
}

// TestRepoAccessResolveFirst covers the order of the checks on routes under
// R: the repository is resolved (404) before T (401), and token scopes come
// before both.
func TestRepoAccessResolveFirst(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pub"})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "priv", Private: true})
	edit := map[string]any{"description": "x"}

	for _, path := range []string{"/repos/alice/nothing", "/repos/nobody/pub", "/repos/alice/priv"} {
		assertAPIError(t, srv.Do("PATCH", path, edit), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("DELETE", path, nil), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("POST", path+"/forks", map[string]any{}), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("POST", path+"/transfer", map[string]any{"new_owner": "admin"}), http.StatusNotFound, msgNoRepo)
	}
	assertAPIError(t, srv.Do("PATCH", "/repos/alice/pub", edit), http.StatusUnauthorized, msgTokenRequired)
	assertAPIError(t, srv.Do("POST", "/repos/alice/pub/transfer", map[string]any{"new_owner": "admin"}), http.StatusUnauthorized, msgTokenRequired)
	// A token without the repository scope is refused before the lookup.
	noRepo := "token " + srv.CreateToken("alice", userPassword, "write:user")
	assertAPIError(t, srv.Do("PATCH", "/repos/alice/nothing", edit, "Authorization", noRepo),
		http.StatusForbidden, scopeDenied+"write:repository], token scope=write:user")
}
