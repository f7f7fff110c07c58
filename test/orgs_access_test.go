package test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// orgCaller is one caller of the access matrix: a name and its credentials.
type orgCaller struct {
	name   string
	header []string
}

// TestOrgsRepoAccess checks who reaches which repository of organisations
// of each visibility: the owner, a writer whose team was given the private
// repository, a plain member whose team has none, an outsider, an anonymous
// caller and a site admin.
func TestOrgsRepoAccess(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		for _, n := range []string{"writer", "member", "outsider"} {
			newAccount(t, srv, n, gitea.VisibleTypePublic)
		}
		callers := []orgCaller{
			{"owner", basicAs("alice")}, {"writer", basicAs("writer")}, {"member", basicAs("member")},
			{"outsider", basicAs("outsider")}, {"anonymous", nil}, {"admin", adminHeader(srv)},
		}
		writerTeams := map[string]int64{}
		for _, vis := range []gitea.VisibleType{gitea.VisibleTypePublic, gitea.VisibleTypeLimited, gitea.VisibleTypePrivate} {
			name := "org-" + string(vis)
			orgCreate(t, aliceC, name, vis)
			for _, r := range []struct {
				name    string
				private bool
			}{{"open", false}, {"closed", true}} {
				if _, _, err := aliceC.CreateOrgRepo(name, gitea.CreateRepoOption{Name: r.name, Private: r.private, AutoInit: true}); err != nil {
					t.Fatalf("create %s/%s: %v", name, r.name, err)
				}
			}
			writers := orgTeam(t, aliceC, name, gitea.CreateTeamOption{Name: "writers", Permission: gitea.AccessModeWrite}, "writer")
			writerTeams[name] = writers.ID
			if _, err := aliceC.AddTeamRepository(writers.ID, name, "closed"); err != nil {
				t.Fatalf("give closed to writers: %v", err)
			}
			orgTeam(t, aliceC, name, gitea.CreateTeamOption{Name: "plain", Permission: gitea.AccessModeRead}, "member")
		}

		// want[org visibility][repo] lists who reads it; everyone else gets 404.
		all := []string{"owner", "writer", "member", "outsider", "anonymous", "admin"}
		insiders := []string{"owner", "writer", "admin"}
		want := map[string]map[string][]string{
			"public":  {"open": all, "closed": insiders},
			"limited": {"open": {"owner", "writer", "member", "outsider", "admin"}, "closed": insiders},
			"private": {"open": {"owner", "writer", "member", "admin"}, "closed": insiders},
		}
		orgWant := map[string][]string{
			"public":  all,
			"limited": {"owner", "writer", "member", "outsider", "admin"},
			"private": {"owner", "writer", "member", "admin"},
		}
		for vis, repos := range want {
			org := "org-" + vis
			for _, c := range callers {
				t.Run(vis+"/"+c.name, func(t *testing.T) {
					is := is.New(t)
					r := srv.Do("GET", "/orgs/"+org, nil, c.header...)
					is.Equal(r.Status, orgStatus(orgWant[vis], c.name)) // GET /orgs/{org}
					var listed []string
					for repo, who := range repos {
						r := srv.Do("GET", "/repos/"+org+"/"+repo, nil, c.header...)
						is.Equal(r.Status, orgStatus(who, c.name)) // GET /repos/{org}/{repo}
						if r.Status == http.StatusOK {
							listed = append(listed, repo)
						}
					}
					r = srv.Do("GET", "/orgs/"+org+"/repos", nil, c.header...)
					if orgStatus(orgWant[vis], c.name) != http.StatusOK {
						is.Equal(r.Status, http.StatusNotFound) // a hidden org hides its repositories
						return
					}
					var list []*gitea.Repository
					r.Decode(t, &list)
					is.Equal(len(list), len(listed)) // the listing shows what the caller reaches
				})
			}
		}

		// Permissions per caller on the private organisation's repositories.
		is := is.New(t)
		for _, tc := range []struct {
			caller, repo      string
			admin, push, pull bool
		}{
			{"alice", "closed", true, true, true},
			{"writer", "closed", false, true, true},
			{"writer", "open", false, false, true}, // not given: the public floor only
			{"member", "open", false, false, true},
		} {
			var r gitea.Repository
			resp := srv.Do("GET", "/repos/org-private/"+tc.repo, nil, basicAs(tc.caller)...)
			is.Equal(resp.Status, http.StatusOK)
			resp.Decode(t, &r)
			is.Equal(*r.Permissions, gitea.Permission{Admin: tc.admin, Push: tc.push, Pull: tc.pull}) // caller on repo
		}

		// Per-unit modes: a team reading code and writing issues pulls but
		// does not push.
		newAccount(t, srv, "tracker", gitea.VisibleTypePublic)
		trackers := orgTeam(t, aliceC, "org-private", gitea.CreateTeamOption{Name: "trackers", Permission: gitea.AccessModeRead,
			UnitsMap: map[string]string{"repo.code": "read", "repo.issues": "write"}}, "tracker")
		if _, err := aliceC.AddTeamRepository(trackers.ID, "org-private", "closed"); err != nil {
			t.Fatalf("give closed to trackers: %v", err)
		}
		var tracked gitea.Repository
		srv.Do("GET", "/repos/org-private/closed", nil, basicAs("tracker")...).Decode(t, &tracked)
		is.Equal(*tracked.Permissions, gitea.Permission{Pull: true})

		// Writing follows the team's unit: the writer commits to the given
		// repository, the member may not write to the open one.
		file := map[string]any{"message": "add", "content": base64.StdEncoding.EncodeToString([]byte("hi\n"))}
		is.Equal(srv.Do("POST", "/repos/org-private/closed/contents/a.txt", file, basicAs("writer")...).Status, http.StatusCreated)
		is.Equal(srv.Do("POST", "/repos/org-private/open/contents/a.txt", file, basicAs("member")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("POST", "/repos/org-private/closed/contents/b.txt", file, basicAs("member")...).Status, http.StatusNotFound)

		// Team repositories: the repository's admin gives it; others may not.
		writersID := writerTeams["org-public"]
		is.Equal(srv.Do("PUT", fmt.Sprintf("/teams/%d/repos/org-public/open", writersID), nil, basicAs("writer")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("PUT", fmt.Sprintf("/teams/%d/repos/org-public/nothing", writersID), nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PUT", fmt.Sprintf("/teams/%d/repos/org-private/open", writersID), nil, basicAs("alice")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PUT", fmt.Sprintf("/teams/%d/repos/org-public/open", writersID), nil, basicAs("alice")...).Status, http.StatusNoContent)
		var r gitea.Repository
		srv.Do("GET", "/repos/org-public/open", nil, basicAs("writer")...).Decode(t, &r)
		is.True(r.Permissions.Push) // given now

		// An outsider reads nothing of an organisation's permissions.
		perm, _, err := srv.Client(gitea.SetBasicAuth("outsider", userPassword)).GetOrgPermissions("org-public", "outsider")
		is.NoErr(err)
		is.Equal(*perm, gitea.OrgPermissions{})
		assertAPIError(t, srv.Do("GET", "/users/outsider/orgs/org-private/permissions", nil, basicAs("outsider")...), http.StatusNotFound, orgMsgNotFound)

		// Tokens: a public-only token is refused on a non-public organisation,
		// a token without the organization scope on any.
		publicOnly := []string{"Authorization", "token " + srv.CreateToken("alice", userPassword, "public-only", "read:organization")}
		is.Equal(srv.Do("GET", "/orgs/org-public", nil, publicOnly...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/orgs/org-limited", nil, publicOnly...), http.StatusForbidden, "token scope is limited to public orgs")
		noScope := []string{"Authorization", "token " + srv.CreateToken("alice", userPassword, "read:user")}
		is.Equal(srv.Do("GET", "/orgs/org-public", nil, noScope...).Status, http.StatusForbidden)
		is.Equal(srv.Do("GET", fmt.Sprintf("/teams/%d", writerTeams["org-private"]), nil, basicAs("outsider")...).Status, http.StatusNotFound)

		// Listing organisations follows their visibility.
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil)), []string{"org-public"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, basicAs("outsider")...)), []string{"org-limited", "org-public"})
		is.Equal(orgGetNames(t, srv.Do("GET", "/orgs", nil, basicAs("member")...)), []string{"org-limited", "org-private", "org-public"})
	})
}

// orgStatus is 200 when caller is among who, else 404.
func orgStatus(who []string, caller string) int {
	for _, w := range who {
		if w == caller {
			return http.StatusOK
		}
	}
	return http.StatusNotFound
}
