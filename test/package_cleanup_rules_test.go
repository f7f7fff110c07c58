package test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// cleanupRule is the JSON of a package cleanup rule (Gitea's SDK has no
// type: Gitea serves the rules in its web settings only).
type cleanupRule struct {
	ID            int64  `json:"id"`
	Enabled       bool   `json:"enabled"`
	Type          string `json:"type"`
	KeepCount     int    `json:"keep_count"`
	KeepPattern   string `json:"keep_pattern"`
	RemoveDays    int    `json:"remove_days"`
	RemovePattern string `json:"remove_pattern"`
	MatchFullName bool   `json:"match_full_name"`
}

func decodeCleanupRule(t *testing.T, r testserver.Response, status int) cleanupRule {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d (body %s)", r.Status, status, r.Body)
	}
	var out cleanupRule
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
	return out
}

// packageVersions lists the versions of the owner's package, as the
// management API answers them.
func packageVersions(t *testing.T, c *gitea.Client, owner, name string) []string {
	t.Helper()
	list, _, err := c.ListPackages(owner, gitea.ListPackagesOptions{Q: name, ListOptions: gitea.ListOptions{PageSize: 50}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range list {
		out = append(out, p.Version)
	}
	slices.Sort(out)
	return out
}

// TestPackageCleanupRules covers the cleanup rules of users and
// organisations over HTTP (who may read and write them, 422 naming the
// field for a bad regexp, type or count, one rule per type) and their
// application by the cleanup_packages cron task run by an administrator:
// versions the rules select are deleted with their blobs, the others stay,
// disabled rules do nothing, on both backends.
func TestPackageCleanupRules(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, append(opts, testserver.WithSettings(func(s *site.Settings) {
			s.Cron = site.DefaultCron()
			c := s.Cron[site.CronCleanupPackages]
			c.RunAtStart = false
			s.Cron[site.CronCleanupPackages] = c
		}))...)
		socialAccounts(t, srv, "alice", "bob", "carol", "dave", "erin")
		carol := userClient(srv, "carol")
		orgCreate(t, carol, "acme", gitea.VisibleTypePublic)
		orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "publishers", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitPackages}}, "dave")
		orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "readers", Permission: gitea.AccessModeRead,
			Units: []gitea.RepoUnitType{gitea.RepoUnitPackages}}, "erin")
		const mine, acme = "/user/packages/cleanup_rules", "/orgs/acme/packages/cleanup_rules"
		var aliceRule cleanupRule

		t.Run("management", func(t *testing.T) {
			is := is.New(t)
			assertAPIError(t, srv.Do("GET", mine, nil), http.StatusUnauthorized, "")
			is.Equal(srv.Do("GET", mine, nil, tokenHeader(srv, "alice", "read:user")...).Status, http.StatusForbidden)
			is.Equal(srv.Do("POST", mine, map[string]any{"type": "generic"}, tokenHeader(srv, "alice", "read:package")...).Status,
				http.StatusForbidden)
			r := srv.Do("GET", mine, nil, tokenHeader(srv, "alice", "read:package")...)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(string(r.Body), "[]\n")

			aliceRule = decodeCleanupRule(t, srv.Do("POST", mine, map[string]any{"type": "generic", "enabled": true,
				"keep_count": 1, "remove_pattern": `1\..*`}, basicAs("alice")...), http.StatusCreated)
			is.True(aliceRule.ID != 0)
			is.Equal(aliceRule, cleanupRule{ID: aliceRule.ID, Enabled: true, Type: "generic", KeepCount: 1,
				RemovePattern: `1\..*`})

			// Bad input names its field; one rule per type.
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "generic"}, basicAs("alice")...), "type")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "nosuch"}, basicAs("alice")...), "type")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{}, basicAs("alice")...), "type")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "npm", "keep_pattern": "("}, basicAs("alice")...),
				"keep_pattern")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "npm", "remove_pattern": "a)|(b"}, basicAs("alice")...),
				"remove_pattern")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "npm", "keep_count": -1}, basicAs("alice")...),
				"keep_count")
			assertInvalid(t, srv.Do("POST", mine, map[string]any{"type": "npm", "remove_days": "x"}, basicAs("alice")...),
				"RemoveDays") // the decoder's wording of a mistyped field
			is.Equal(srv.Do("POST", mine, "{", basicAs("alice")...).Status, http.StatusBadRequest)

			one := mine + "/" + strconv.FormatInt(aliceRule.ID, 10)
			got := decodeCleanupRule(t, srv.Do("GET", one, nil, basicAs("alice")...), http.StatusOK)
			is.Equal(got, aliceRule)
			// Another user's rules are not there for bob.
			is.Equal(srv.Do("GET", one, nil, basicAs("bob")...).Status, http.StatusNotFound)
			is.Equal(srv.Do("PATCH", one, map[string]any{"enabled": false}, basicAs("bob")...).Status, http.StatusNotFound)
			is.Equal(srv.Do("GET", mine+"/abc", nil, basicAs("alice")...).Status, http.StatusNotFound)

			assertInvalid(t, srv.Do("PATCH", one, map[string]any{"remove_pattern": "["}, basicAs("alice")...), "remove_pattern")
			edited := decodeCleanupRule(t, srv.Do("PATCH", one, map[string]any{"keep_count": 2}, basicAs("alice")...), http.StatusOK)
			is.Equal(edited.KeepCount, 2)
			is.Equal(edited.RemovePattern, `1\..*`) // left as it was
			aliceRule = decodeCleanupRule(t, srv.Do("PATCH", one, map[string]any{"keep_count": 1}, basicAs("alice")...), http.StatusOK)

			npm := decodeCleanupRule(t, srv.Do("POST", mine, map[string]any{"type": "npm"}, basicAs("alice")...), http.StatusCreated)
			r = srv.Do("GET", mine+"?limit=1&page=2", nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(r.Header.Get("X-Total-Count"), "2")
			var page []cleanupRule
			is.NoErr(json.Unmarshal(r.Body, &page))
			is.Equal(len(page), 1)
			is.Equal(page[0].ID, npm.ID) // by type: generic, then npm
			npmPath := mine + "/" + strconv.FormatInt(npm.ID, 10)
			is.Equal(srv.Do("DELETE", npmPath, nil, basicAs("alice")...).Status, http.StatusNoContent)
			is.Equal(srv.Do("DELETE", npmPath, nil, basicAs("alice")...).Status, http.StatusNotFound)

			// An organisation's rules: its owners and package writers manage
			// them; readers and outsiders are refused; site admins may.
			org := decodeCleanupRule(t, srv.Do("POST", acme, map[string]any{"type": "generic", "enabled": false},
				basicAs("carol")...), http.StatusCreated)
			is.Equal(srv.Do("GET", acme, nil, basicAs("dave")...).Status, http.StatusOK)
			orgOne := acme + "/" + strconv.FormatInt(org.ID, 10)
			assertAPIError(t, srv.Do("GET", orgOne, nil, basicAs("erin")...), http.StatusForbidden,
				"user should have specific permission or be a site admin")
			is.Equal(srv.Do("PATCH", orgOne, map[string]any{"keep_count": 3}, basicAs("bob")...).Status, http.StatusForbidden)
			is.Equal(srv.Do("GET", orgOne, nil, socialAdmin(srv)...).Status, http.StatusOK)
			is.Equal(srv.Do("GET", "/orgs/nosuch/packages/cleanup_rules", nil, basicAs("carol")...).Status, http.StatusNotFound)
			// alice's rule is not the organisation's.
			is.Equal(srv.Do("GET", acme+"/"+strconv.FormatInt(aliceRule.ID, 10), nil, basicAs("carol")...).Status,
				http.StatusNotFound)
		})

		t.Run("cron applies the rules", func(t *testing.T) {
			is := is.New(t)
			reg := func(path string) string { return srv.URL + "/api/packages" + path }
			for _, v := range []string{"1.0", "1.1", "1.2", "2.0"} {
				is.Equal(srv.Do("PUT", reg("/alice/generic/tool/"+v+"/tool.bin"), "tool "+v, basicAs("alice")...).Status,
					http.StatusCreated)
			}
			is.Equal(srv.Do("PUT", reg("/alice/generic/other/1.5/o.bin"), "other", basicAs("alice")...).Status, http.StatusCreated)
			is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.0/lib.bin"), "lib", basicAs("dave")...).Status, http.StatusCreated)
			is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.1/lib.bin"), "lib 1.1", basicAs("dave")...).Status, http.StatusCreated)
			// bob removes what is older than 30 days: one version of his is
			// recorded as published 40 days ago, behind the API's back.
			is.Equal(srv.Do("PUT", reg("/bob/generic/app/new/app.bin"), "app new", basicAs("bob")...).Status, http.StatusCreated)
			st := srv.App.DB.Stores()
			bob, err := st.Users.GetByName(t.Context(), "bob")
			is.NoErr(err)
			p := &packages.Package{OwnerID: bob.ID, Type: packages.TypeGeneric, Name: "app"}
			is.NoErr(st.Packages.Ensure(t.Context(), p))
			is.NoErr(st.Packages.CreateVersion(t.Context(), &packages.Version{PackageID: p.ID, Version: "old",
				CreatorID: bob.ID, Metadata: "{}", CreatedAt: time.Now().AddDate(0, 0, -40)}))
			decodeCleanupRule(t, srv.Do("POST", mine, map[string]any{"type": "generic", "enabled": true, "remove_days": 30},
				basicAs("bob")...), http.StatusCreated)
			blobs := countPackageBlobs(t, srv)

			admin := srv.AdminClient()
			before := cronTasks(t, admin)[site.CronCleanupPackages]
			_, err = admin.RunCronTasks(site.CronCleanupPackages)
			is.NoErr(err)
			waitCronRuns(t, admin, site.CronCleanupPackages, before.ExecTimes+1)
			viewer := userClient(srv, "erin")
			deadline := time.Now().Add(15 * time.Second)
			for !slices.Equal(packageVersions(t, viewer, "alice", "tool"), []string{"2.0"}) ||
				!slices.Equal(packageVersions(t, viewer, "bob", "app"), []string{"new"}) {
				if time.Now().After(deadline) {
					t.Fatalf("rules not applied: alice/tool %v, bob/app %v", packageVersions(t, viewer, "alice", "tool"),
						packageVersions(t, viewer, "bob", "app"))
				}
				time.Sleep(50 * time.Millisecond)
			}
			// keep_count 1 kept 2.0; 1.x went; another package keeps its
			// newest version by count; the disabled rule of acme did nothing.
			is.Equal(packageVersions(t, viewer, "alice", "other"), []string{"1.5"})
			is.Equal(packageVersions(t, viewer, "acme", "lib"), []string{"1.0", "1.1"})
			is.Equal(countPackageBlobs(t, srv), blobs-3) // the three 1.x files' blobs
			is.Equal(srv.Do("GET", reg("/alice/generic/tool/1.0/tool.bin"), nil).Status, http.StatusNotFound)
			r := srv.Do("GET", reg("/alice/generic/tool/2.0/tool.bin"), nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(string(r.Body), "tool 2.0")
		})
	})
}
