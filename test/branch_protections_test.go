package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestBranchProtectionsCRUD covers creating, reading, listing, editing and
// deleting rules, their allowlists by name, and the 422s, on both backends.
func TestBranchProtectionsCRUD(t *testing.T) {
	t.Parallel()
	backends(t, testBranchProtectionsCRUD)
}

func testBranchProtectionsCRUD(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "bpowner", "bpwriter", "bpreader")
	createRepoAs(t, srv, "bpowner", "guarded", false)
	socialCollab(t, srv, "bpowner", "guarded", "bpwriter", gitea.AccessModeWrite)
	socialCollab(t, srv, "bpowner", "guarded", "bpreader", gitea.AccessModeRead)
	owner := userClient(srv, "bpowner")

	t.Run("create and get", func(t *testing.T) {
		is := is.New(t)
		bp, resp, err := owner.CreateBranchProtection("bpowner", "guarded", gitea.CreateBranchProtectionOption{
			RuleName: "main", EnablePush: true, EnablePushWhitelist: true,
			PushWhitelistUsernames: []string{"bpwriter", "bpreader"}, // a reader is dropped, as in Gitea
			EnableStatusCheck:      true, StatusCheckContexts: []string{"ci/*"},
			ProtectedFilePatterns: "*.lock", RequiredApprovals: 2, BlockOnOutdatedBranch: true,
		})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(bp.RuleName, "main")
		is.Equal(bp.BranchName, "main")
		is.True(bp.EnablePush && bp.EnablePushWhitelist)
		is.Equal(bp.PushWhitelistUsernames, []string{"bpwriter"})
		is.Equal(bp.StatusCheckContexts, []string{"ci/*"})
		is.Equal(bp.RequiredApprovals, int64(2))
		is.True(bp.BlockOnOutdatedBranch)
		got, _, err := owner.GetBranchProtection("bpowner", "guarded", "main")
		is.NoErr(err)
		is.Equal(got.ProtectedFilePatterns, "*.lock")
	})

	t.Run("invalid input", func(t *testing.T) {
		cases := []struct {
			name string
			body any
			want int
			msg  string
		}{
			{"same name", gitea.CreateBranchProtectionOption{RuleName: "main"}, http.StatusUnprocessableEntity, "Branch protection already exist"},
			{"unknown user", gitea.CreateBranchProtectionOption{RuleName: "x", MergeWhitelistUsernames: []string{"nobody"}},
				http.StatusUnprocessableEntity, "MergeWhitelistUsernames"},
			{"bad glob", gitea.CreateBranchProtectionOption{RuleName: "release/[a"}, http.StatusUnprocessableEntity, "RuleName"},
			{"no name", gitea.CreateBranchProtectionOption{}, http.StatusBadRequest, "both rule_name and branch_name are empty"},
			{"malformed", "{", http.StatusBadRequest, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("POST", "/repos/bpowner/guarded/branch_protections", c.body, tokenHeader(srv, "bpowner", "write:repository")...)
				is.Equal(r.Status, c.want)
				is.True(strings.Contains(r.Message(), c.msg))
			})
		}
	})

	t.Run("edit", func(t *testing.T) {
		is := is.New(t)
		off := false
		n := int64(0)
		bp, _, err := owner.EditBranchProtection("bpowner", "guarded", "main", gitea.EditBranchProtectionOption{
			EnablePush: &off, RequiredApprovals: &n, MergeWhitelistUsernames: []string{"bpwriter"},
		})
		is.NoErr(err)
		is.True(!bp.EnablePush)
		is.True(!bp.EnablePushWhitelist) // push off takes its allowlist with it
		is.Equal(bp.RequiredApprovals, int64(0))
		is.Equal(bp.MergeWhitelistUsernames, []string{"bpwriter"})
		is.Equal(bp.StatusCheckContexts, []string{"ci/*"}) // untouched
		_, resp, _ := owner.EditBranchProtection("bpowner", "guarded", "absent", gitea.EditBranchProtectionOption{})
		is.Equal(resp.StatusCode, http.StatusNotFound)
	})

	t.Run("priority", func(t *testing.T) {
		is := is.New(t)
		for _, name := range []string{"release/*", "**"} {
			_, _, err := owner.CreateBranchProtection("bpowner", "guarded", gitea.CreateBranchProtectionOption{RuleName: name})
			is.NoErr(err)
		}
		var list []struct {
			ID       int64  `json:"id"`
			RuleName string `json:"rule_name"`
			Priority int64  `json:"priority"`
		}
		r := srv.Do("GET", "/repos/bpowner/guarded/branch_protections", nil, tokenHeader(srv, "bpowner", "read:repository")...)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &list)
		is.Equal(len(list), 3)
		is.Equal(list[0].RuleName, "main") // exact names first
		is.Equal(list[1].RuleName, "release/*")
		is.Equal(list[2].RuleName, "**")

		// The priority route takes ids; Gitea's list does not show them, so
		// they are read from the store's order: main=1, release/*=2, **=3.
		r = srv.Do("POST", "/repos/bpowner/guarded/branch_protections/priority", map[string]any{"ids": []int64{3, 2, 1}},
			tokenHeader(srv, "bpowner", "write:repository")...)
		is.Equal(r.Status, http.StatusNoContent)
		r = srv.Do("GET", "/repos/bpowner/guarded/branch_protections", nil, tokenHeader(srv, "bpowner", "read:repository")...)
		r.Decode(t, &list)
		is.Equal(list[0].RuleName, "main")
		is.Equal(list[1].RuleName, "**")
		is.Equal(list[1].Priority, int64(1))
		is.Equal(list[2].RuleName, "release/*")

		r = srv.Do("POST", "/repos/bpowner/guarded/branch_protections/priority", map[string]any{"ids": []int64{99}},
			tokenHeader(srv, "bpowner", "write:repository")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := owner.DeleteBranchProtection("bpowner", "guarded", "**")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		resp, _ = owner.DeleteBranchProtection("bpowner", "guarded", "**")
		is.Equal(resp.StatusCode, http.StatusNotFound)
		_, resp, _ = owner.GetBranchProtection("bpowner", "guarded", "**")
		is.Equal(resp.StatusCode, http.StatusNotFound)
	})
}

// TestBranchProtectionsAccess is the access matrix of the rule routes:
// only repository administrators (and site admins) reach them.
func TestBranchProtectionsAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	socialAccounts(t, srv, "acowner", "acadmin", "acwriter", "acreader", "acoutsider")
	createRepoAs(t, srv, "acowner", "guarded", false)
	createRepoAs(t, srv, "acowner", "secret", true)
	socialCollab(t, srv, "acowner", "guarded", "acadmin", gitea.AccessModeAdmin)
	socialCollab(t, srv, "acowner", "guarded", "acwriter", gitea.AccessModeWrite)
	socialCollab(t, srv, "acowner", "guarded", "acreader", gitea.AccessModeRead)
	_, _, err := userClient(srv, "acowner").CreateBranchProtection("acowner", "guarded", gitea.CreateBranchProtectionOption{RuleName: "main"})
	if err != nil {
		t.Fatal(err)
	}
	who := map[string][]string{
		"anonymous":  nil,
		"outsider":   tokenHeader(srv, "acoutsider", "write:repository"),
		"reader":     tokenHeader(srv, "acreader", "write:repository"),
		"writer":     tokenHeader(srv, "acwriter", "write:repository"),
		"admin":      tokenHeader(srv, "acadmin", "write:repository"),
		"owner":      tokenHeader(srv, "acowner", "write:repository"),
		"site admin": socialAdmin(srv),
		"no scope":   tokenHeader(srv, "acowner", "read:user"),
		"read scope": tokenHeader(srv, "acowner", "read:repository"),
	}
	cases := []struct {
		method, path string
		body         any
		want         map[string]int
	}{
		{"GET", "/repos/acowner/guarded/branch_protections", nil, map[string]int{"anonymous": 401, "outsider": 403, "reader": 403,
			"writer": 403, "admin": 200, "owner": 200, "site admin": 200, "no scope": 403, "read scope": 200}},
		{"GET", "/repos/acowner/guarded/branch_protections/main", nil, map[string]int{"anonymous": 401, "outsider": 403,
			"reader": 403, "writer": 403, "admin": 200, "owner": 200, "site admin": 200, "no scope": 403}},
		{"PATCH", "/repos/acowner/guarded/branch_protections/main", map[string]any{}, map[string]int{"anonymous": 401,
			"outsider": 403, "reader": 403, "writer": 403, "admin": 200, "no scope": 403, "read scope": 403}},
		{"POST", "/repos/acowner/guarded/branch_protections/priority", map[string]any{"ids": []int64{}}, map[string]int{
			"anonymous": 401, "writer": 403, "admin": 204, "read scope": 403}},
		{"GET", "/repos/acowner/secret/branch_protections", nil, map[string]int{"outsider": 404, "owner": 200}},
	}
	for _, c := range cases {
		for name, want := range c.want {
			t.Run(c.method+" "+c.path+" "+name, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do(c.method, c.path, c.body, who[name]...)
				is.Equal(r.Status, want)
			})
		}
	}
}
