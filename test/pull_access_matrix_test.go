package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pullMatrixRoute is one route of the pull request group with its outcome
// per actor on the public and the private repository.
type pullMatrixRoute struct {
	method, path string
	body         any
	want         map[string][2]string
}

// pullMatrixActors are the callers of the matrix, in the order of
// pullMatrixOutcomes' cells.
var pullMatrixActors = []string{"anonymous", "outsider", "reader", "writer", "admin", "public-only", "no-repo-scope"}

// pullMatrixOutcomes reads "public/private" cells in pullMatrixActors' order.
func pullMatrixOutcomes(cells ...string) map[string][2]string {
	if len(cells) != len(pullMatrixActors) {
		panic(fmt.Sprintf("pullMatrixOutcomes: %d cells", len(cells)))
	}
	out := map[string][2]string{}
	for i, c := range cells {
		pub, priv, ok := strings.Cut(c, "/")
		if !ok {
			panic("pullMatrixOutcomes: no slash in " + c)
		}
		out[pullMatrixActors[i]] = [2]string{pub, priv}
	}
	return out
}

// pullMatrixRepo makes alice's repository with pullsRepo's branches and a
// read, a write and an admin collaborator; #1 (feature) is open and #2
// (second) merged. It returns the merge commit.
func pullMatrixRepo(t *testing.T, srv *testserver.Server, aliceC *gitea.Client, name string, private bool) string {
	t.Helper()
	pullsRepo(t, srv, aliceC, name, private)
	for who, mode := range map[string]gitea.AccessMode{
		"reader": gitea.AccessModeRead, "writer": gitea.AccessModeWrite, "boss": gitea.AccessModeAdmin,
	} {
		if _, err := aliceC.AddCollaborator("alice", name, who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatalf("add collaborator %s to %s: %v", who, name, err)
		}
	}
	alice := basicAs("alice")
	pullsOpen(t, srv, "alice", name, map[string]any{"head": "feature", "base": "main", "title": "open one"}, alice...)
	pullsOpen(t, srv, "alice", name, map[string]any{"head": "second", "base": "main", "title": "merged one"}, alice...)
	pullsWait(t, srv, "alice", name, 2, alice...)
	if _, _, err := aliceC.MergePullRequest("alice", name, 2, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}); err != nil {
		t.Fatalf("merge %s#2: %v", name, err)
	}
	return bareRev(t, srv, "alice", name, "main")
}

// TestPullAccessMatrix runs every route of the pull request group against
// every kind of caller, on a public and a private repository. Writes that
// pass the access checks are refused further on (no commits ahead, a merge
// style the repository forbids, nothing scheduled), so nothing changes
// but the edited title.
func TestPullAccessMatrix(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, n := range []string{"carol", "reader", "writer", "boss"} {
		newAccount(t, srv, n, gitea.VisibleTypePublic)
	}
	merges := [2]string{pullMatrixRepo(t, srv, aliceC, "pub", false), pullMatrixRepo(t, srv, aliceC, "priv", true)}
	headers := map[string]string{
		"outsider":      testserver.Basic("carol", userPassword),
		"reader":        testserver.Basic("reader", userPassword),
		"writer":        testserver.Basic("writer", userPassword),
		"admin":         testserver.Basic("boss", userPassword),
		"public-only":   "token " + srv.CreateToken("alice", userPassword, "public-only", "write:repository"),
		"no-repo-scope": "token " + srv.CreateToken("alice", userPassword, "write:user", "write:issue"),
	}
	held := map[string]string{"no-repo-scope": "write:issue,write:user"}

	read := pullMatrixOutcomes("200/404r", "200/404r", "200/200", "200/200", "200/200", "200/public", "scope/scope")
	routes := []pullMatrixRoute{
		{"GET", "/pulls", nil, read},
		{"GET", "/pulls/pinned", nil, read},
		{"GET", "/pulls/1", nil, read},
		{"GET", "/pulls/main/feature", nil, read},
		{"GET", "/pulls/main/alice:feature", nil, read},
		{"GET", "/commits/{merge}/pull", nil, read},
		{"GET", "/pulls/2/merge", nil, pullMatrixOutcomes("204/404r", "204/404r", "204/204", "204/204", "204/204", "204/public", "scope/scope")},
		{"GET", "/pulls/1/merge", nil, pullMatrixOutcomes("404/404r", "404/404r", "404/404", "404/404", "404/404", "404/public", "scope/scope")},
		// Access passes, then "no commits ahead" refuses.
		{"POST", "/pulls", map[string]any{"head": "even", "base": "main", "title": "nothing"},
			pullMatrixOutcomes("401/404r", "422/404r", "422/422", "422/422", "422/422", "422/public", "scope/scope")},
		{"PATCH", "/pulls/1", map[string]any{"title": "edited"},
			pullMatrixOutcomes("401/404r", "403/404r", "403/403", "201/201", "201/201", "201/public", "scope/scope")},
		// Access passes, then the forbidden manual merge style refuses (405).
		{"POST", "/pulls/1/merge", map[string]any{"Do": "manually-merged"},
			pullMatrixOutcomes("401/404r", "403/404r", "403/403", "405/405", "405/405", "405/public", "scope/scope")},
		// Access passes, then nothing is scheduled (404).
		{"DELETE", "/pulls/1/merge", nil,
			pullMatrixOutcomes("401/404r", "404/404r", "404/404", "404/404", "404/404", "404/public", "scope/scope")},
	}
	vars := [2]map[string]string{{"{merge}": merges[0]}, {"{merge}": merges[1]}}
	runPullMatrix(t, srv, headers, held, vars, routes)

	t.Run("nothing changed but the title", func(t *testing.T) {
		is := is.New(t)
		for _, repo := range []string{"pub", "priv"} {
			list, resp, err := aliceC.ListRepoPullRequests("alice", repo, gitea.ListPullRequestsOptions{State: gitea.StateAll})
			is.NoErr(err)
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			is.Equal(len(list), 2)
			pr, _, err := aliceC.GetPullRequest("alice", repo, 1)
			is.NoErr(err)
			is.Equal(pr.Title, "edited")
			is.True(!pr.HasMerged)
			is.Equal(pr.State, gitea.StateOpen)
		}
	})
}

// runPullMatrix runs each route as each actor on alice's pub and priv
// repositories (the placeholders of vars replaced in each path, per
// repository) and checks the outcomes: a status, or one of the access
// refusals ("401", "404r", "public", "scope").
func runPullMatrix(t *testing.T, srv *testserver.Server, headers, held map[string]string, vars [2]map[string]string,
	routes []pullMatrixRoute) {
	t.Helper()
	for _, rt := range routes {
		t.Run(rt.method+" R"+rt.path, func(t *testing.T) {
			for _, actor := range pullMatrixActors {
				for vis, repo := range []string{"pub", "priv"} {
					t.Run(actor+" on "+repo, func(t *testing.T) {
						path := rt.path
						for k, v := range vars[vis] {
							path = strings.ReplaceAll(path, k, v)
						}
						path = "/repos/alice/" + repo + path
						var header []string
						if h := headers[actor]; h != "" {
							header = []string{"Authorization", h}
						}
						key := rt.want[actor][vis]
						r := srv.Do(rt.method, path, rt.body, header...)
						switch key {
						case "401":
							assertAPIError(t, r, http.StatusUnauthorized, msgTokenRequired)
						case "404r":
							assertAPIError(t, r, http.StatusNotFound, msgNoRepo)
						case "public":
							assertAPIError(t, r, http.StatusForbidden, msgPublicOnly)
						case "scope":
							level := "read"
							if rt.method != http.MethodGet {
								level = "write"
							}
							assertAPIError(t, r, http.StatusForbidden, scopeDenied+level+":repository], token scope="+held[actor])
						default:
							var want int
							fmt.Sscan(key, &want)
							if r.Status != want {
								t.Fatalf("%s %s as %s: %d, want %d (%s)", rt.method, path, actor, r.Status, want, r.Body)
							}
						}
					})
				}
			}
		})
	}
}
