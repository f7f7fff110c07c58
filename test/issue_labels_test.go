package test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

const (
	lblMsgWriter  = "user should have a permission to write to a repo"
	lblMsgToken   = "token is required"
	lblMsgOwner   = "Must be an organization owner"
	lblMsgNoWrite = "write permission is required"
)

// createLabel makes a repository label through the raw API, failing on error.
func createLabel(t *testing.T, srv *testserver.Server, as []string, path string, body map[string]any) *gitea.Label {
	t.Helper()
	r := srv.Do("POST", path, body, as...)
	if r.Status != http.StatusCreated {
		t.Fatalf("create label at %s: status %d: %s", path, r.Status, r.Body)
	}
	var l gitea.Label
	r.Decode(t, &l)
	return &l
}

func labelNames(list []*gitea.Label) []string {
	out := make([]string, len(list))
	for i, l := range list {
		out[i] = l.Name
	}
	return out
}

func TestIssueLabelsRepoCRUD(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "rita", gitea.VisibleTypePublic)
		newAccount(t, srv, "wendy", gitea.VisibleTypePublic)
		newAccount(t, srv, "stranger", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		read, write := gitea.AccessModeRead, gitea.AccessModeWrite
		for _, c := range []struct {
			user string
			mode *gitea.AccessMode
		}{{"rita", &read}, {"wendy", &write}} {
			if _, err := alice.AddCollaborator("alice", "tools", c.user, gitea.AddCollaboratorOption{Permission: c.mode}); err != nil {
				t.Fatal(err)
			}
		}
		const base = "/repos/alice/tools/labels"

		t.Run("create, get, list and colours", func(t *testing.T) {
			is := is.New(t)
			l, _, err := alice.CreateLabel("alice", "tools", gitea.CreateLabelOption{Name: "bug", Color: "#EE0701",
				Description: "Something is not working"})
			is.NoErr(err)
			is.Equal(l.Color, "ee0701") // answered lower-case, without '#'
			is.Equal(l.Name, "bug")
			is.Equal(l.Description, "Something is not working")
			is.Equal(l.URL, srv.API+base+"/"+strconv.FormatInt(l.ID, 10))
			is.True(!l.IsArchived && !l.Exclusive)

			short := createLabel(t, srv, basicAs("alice"), base, map[string]any{"name": "  short  ", "color": "AbC",
				"exclusive": true, "is_archived": true})
			is.Equal(short.Color, "aabbcc") // three digits expand, as in Gitea
			is.Equal(short.Name, "short")
			is.True(short.Exclusive && short.IsArchived)

			got, _, err := alice.GetRepoLabel("alice", "tools", l.ID)
			is.NoErr(err)
			is.Equal(got, l)
			// By name too, as Gitea answers it.
			r := srv.Do("GET", base+"/bug", nil)
			is.Equal(r.Status, http.StatusOK)
			var byName gitea.Label
			r.Decode(t, &byName)
			is.Equal(byName.ID, l.ID)

			// Anonymous readers list a public repository's labels, paginated.
			anon := srv.Client()
			list, resp, err := anon.ListRepoLabels("alice", "tools", gitea.ListLabelsOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
			is.NoErr(err)
			is.Equal(labelNames(list), []string{"bug"})
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			is.True(resp.Header.Get("Link") != "")
			list, _, err = anon.ListRepoLabels("alice", "tools", gitea.ListLabelsOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
			is.NoErr(err)
			is.Equal(labelNames(list), []string{"short"})
		})

		t.Run("edit and delete", func(t *testing.T) {
			is := is.New(t)
			l := createLabel(t, srv, basicAs("wendy"), base, map[string]any{"name": "temp", "color": "#000000"})
			name, color, desc, yes := "kind/temp", "#FFFFFF", "changed", true
			got, _, err := alice.EditLabel("alice", "tools", l.ID, gitea.EditLabelOption{Name: &name, Color: &color,
				Description: &desc, Exclusive: &yes, IsArchived: &yes})
			is.NoErr(err)
			is.Equal(got.Name, "kind/temp")
			is.Equal(got.Color, "ffffff")
			is.Equal(got.Description, "changed")
			is.True(got.Exclusive && got.IsArchived)
			// Fields left out are kept.
			r := srv.Do("PATCH", fmt.Sprintf("%s/%d", base, l.ID), map[string]any{"description": "again"}, basicAs("wendy")...)
			is.Equal(r.Status, http.StatusOK)
			var kept gitea.Label
			r.Decode(t, &kept)
			is.Equal(kept.Name, "kind/temp")
			is.True(kept.IsArchived)
			is.Equal(kept.Description, "again")

			_, err = alice.DeleteLabel("alice", "tools", l.ID)
			is.NoErr(err)
			assertAPIError(t, srv.Do("GET", fmt.Sprintf("%s/%d", base, l.ID), nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("%s/%d", base, l.ID), nil, basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("PATCH", base+"/999999", map[string]any{"name": "x"}, basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("PATCH", base+"/abc", map[string]any{"name": "x"}, basicAs("alice")...), http.StatusNotFound, "")
		})

		t.Run("invalid bodies", func(t *testing.T) {
			for _, tc := range []struct {
				body  any
				field string
			}{
				{map[string]any{"name": "x", "color": "#12345g"}, "Color"},
				{map[string]any{"name": "x", "color": "red"}, "Color"},
				{map[string]any{"name": "x"}, "Color"},
				{map[string]any{"name": "", "color": "#ffffff"}, "Name"},
				{map[string]any{"name": "   ", "color": "#ffffff"}, "Name"},
				{map[string]any{"color": "#ffffff"}, "Name"},
				{map[string]any{"name": 5, "color": "#ffffff"}, "Name"},
			} {
				assertInvalid(t, srv.Do("POST", base, tc.body, basicAs("alice")...), tc.field)
			}
			l := createLabel(t, srv, basicAs("alice"), base, map[string]any{"name": "valid", "color": "fff"})
			path := fmt.Sprintf("%s/%d", base, l.ID)
			assertInvalid(t, srv.Do("PATCH", path, map[string]any{"color": "#12345g"}, basicAs("alice")...), "Color")
			assertInvalid(t, srv.Do("PATCH", path, map[string]any{"name": ""}, basicAs("alice")...), "Name")
			assertAPIError(t, srv.Do("POST", base, "{", basicAs("alice")...), http.StatusBadRequest, "")
		})

		t.Run("access", func(t *testing.T) {
			body := map[string]any{"name": "x", "color": "#ffffff"}
			assertAPIError(t, srv.Do("POST", base, body), http.StatusUnauthorized, lblMsgToken)
			assertAPIError(t, srv.Do("POST", base, body, basicAs("stranger")...), http.StatusForbidden, lblMsgWriter)
			assertAPIError(t, srv.Do("POST", base, body, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			l := createLabel(t, srv, basicAs("wendy"), base, body)
			path := fmt.Sprintf("%s/%d", base, l.ID)
			assertAPIError(t, srv.Do("PATCH", path, body, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			assertAPIError(t, srv.Do("DELETE", path, nil, basicAs("rita")...), http.StatusForbidden, lblMsgWriter)
			assertAPIError(t, srv.Do("DELETE", path, nil), http.StatusUnauthorized, lblMsgToken)

			// A private repository is 404 to others, readable to its owner.
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/labels", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/labels", nil, basicAs("stranger")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", "/repos/alice/secret/labels", body, basicAs("stranger")...), http.StatusNotFound, "")
			is.New(t).Equal(srv.Do("GET", "/repos/alice/secret/labels", nil, basicAs("alice")...).Status, http.StatusOK)
			assertAPIError(t, srv.Do("GET", "/repos/alice/absent/labels", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/tools/labels/424242", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/tools/labels/no-such-name", nil), http.StatusNotFound, "")
		})

		t.Run("issues and pulls disabled", func(t *testing.T) {
			createRepo(t, alice, gitea.CreateRepoOption{Name: "untracked"})
			no := false
			_, _, err := alice.EditRepo("alice", "untracked", gitea.EditRepoOption{HasIssues: &no, HasPullRequests: &no})
			is.New(t).NoErr(err)
			assertAPIError(t, srv.Do("GET", "/repos/alice/untracked/labels", nil, basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", "/repos/alice/untracked/labels", map[string]any{"name": "x", "color": "fff"},
				basicAs("alice")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/untracked/milestones", nil, basicAs("alice")...), http.StatusNotFound, "")
		})
	})
}

func TestIssueLabelsOrg(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		newAccount(t, srv, "stranger", gitea.VisibleTypePublic)
		orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
		orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "devs", Permission: gitea.AccessModeWrite,
			Units: []gitea.RepoUnitType{gitea.RepoUnitIssues, gitea.RepoUnitCode, gitea.RepoUnitPulls}}, "bob")
		orgCreate(t, alice, "hidden", gitea.VisibleTypePrivate)

		l, _, err := alice.CreateOrgLabel("acme", gitea.CreateOrgLabelOption{Name: "org/urgent", Color: "#FF0000",
			Description: "for all", Exclusive: true})
		is.NoErr(err)
		is.Equal(l.Color, "ff0000")
		is.True(l.Exclusive)
		is.Equal(l.URL, fmt.Sprintf("%s/orgs/acme/labels/%d", srv.API, l.ID))

		list, resp, err := srv.Client().ListOrgLabels("acme", gitea.ListOrgLabelsOptions{})
		is.NoErr(err)
		is.Equal(labelNames(list), []string{"org/urgent"})
		is.Equal(resp.Header.Get("X-Total-Count"), "1")

		got, _, err := bob.GetOrgLabel("acme", l.ID)
		is.NoErr(err)
		is.Equal(got, l)
		path := fmt.Sprintf("/orgs/acme/labels/%d", l.ID)
		assertAPIError(t, srv.Do("GET", path, nil), http.StatusUnauthorized, lblMsgToken)

		name := "org/critical"
		edited, _, err := alice.EditOrgLabel("acme", l.ID, gitea.EditOrgLabelOption{Name: &name})
		is.NoErr(err)
		is.Equal(edited.Name, "org/critical")
		is.Equal(edited.Color, "ff0000")

		// Members who are not owners may not write; strangers neither.
		body := map[string]any{"name": "x", "color": "#ffffff"}
		assertAPIError(t, srv.Do("POST", "/orgs/acme/labels", body, basicAs("bob")...), http.StatusForbidden, lblMsgOwner)
		assertAPIError(t, srv.Do("POST", "/orgs/acme/labels", body, basicAs("stranger")...), http.StatusForbidden, lblMsgOwner)
		assertAPIError(t, srv.Do("POST", "/orgs/acme/labels", body), http.StatusUnauthorized, lblMsgToken)
		assertAPIError(t, srv.Do("PATCH", path, body, basicAs("bob")...), http.StatusForbidden, lblMsgOwner)
		assertAPIError(t, srv.Do("DELETE", path, nil, basicAs("bob")...), http.StatusForbidden, lblMsgOwner)
		assertInvalid(t, srv.Do("POST", "/orgs/acme/labels", map[string]any{"name": "x", "color": "#12345g"}, basicAs("alice")...), "Color")
		assertInvalid(t, srv.Do("PATCH", path, map[string]any{"name": " "}, basicAs("alice")...), "Name")

		// A hidden or absent organisation is 404.
		assertAPIError(t, srv.Do("GET", "/orgs/hidden/labels", nil, basicAs("stranger")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/orgs/nobody/labels", nil), http.StatusNotFound, "")

		// The organisation's labels are not its repositories', nor another's.
		createRepo(t, alice, gitea.CreateRepoOption{Name: "solo"})
		assertAPIError(t, srv.Do("GET", fmt.Sprintf("/repos/alice/solo/labels/%d", l.ID), nil), http.StatusNotFound, "")
		orgCreate(t, alice, "other", gitea.VisibleTypePublic)
		assertAPIError(t, srv.Do("GET", fmt.Sprintf("/orgs/other/labels/%d", l.ID), nil, basicAs("alice")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("/orgs/other/labels/%d", l.ID), nil, basicAs("alice")...), http.StatusNotFound, "")

		_, err = alice.DeleteOrgLabel("acme", l.ID)
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", path, nil, basicAs("alice")...), http.StatusNotFound, "")
	})
}

func TestIssueLabelsOnIssues(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "rita", gitea.VisibleTypePublic)
		newAccount(t, srv, "stranger", gitea.VisibleTypePublic)
		orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		if _, _, err := alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "app"}); err != nil {
			t.Fatal(err)
		}
		read := gitea.AccessModeRead
		if _, err := alice.AddCollaborator("alice", "tools", "rita", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
			t.Fatal(err)
		}
		mk := func(owner, repo, name string, exclusive bool) int64 {
			t.Helper()
			return createLabel(t, srv, basicAs("alice"), "/repos/"+owner+"/"+repo+"/labels",
				map[string]any{"name": name, "color": "#00aabb", "exclusive": exclusive}).ID
		}
		bug, doc := mk("alice", "tools", "bug", false), mk("alice", "tools", "doc", false)
		kindBug, kindFeat := mk("alice", "tools", "kind/bug", true), mk("alice", "tools", "kind/feature", true)
		foreign := mk("alice", "other", "foreign", false)
		issue, _, err := alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "labelled"})
		if err != nil {
			t.Fatalf("create issue: %v", err)
		}
		path := fmt.Sprintf("/repos/alice/tools/issues/%d/labels", issue.Index)
		send := func(method string, body any) []string {
			t.Helper()
			r := srv.Do(method, path, body, basicAs("alice")...)
			if r.Status != http.StatusOK {
				t.Fatalf("%s %s: status %d: %s", method, path, r.Status, r.Body)
			}
			var list []*gitea.Label
			r.Decode(t, &list)
			return labelNames(list)
		}

		t.Run("add, exclusive scopes, replace, remove, clear", func(t *testing.T) {
			is := is.New(t)
			got, _, err := alice.AddIssueLabels("alice", "tools", issue.Index, gitea.IssueLabelsOption{Labels: []int64{kindBug, bug}})
			is.NoErr(err)
			is.Equal(labelNames(got), []string{"bug", "kind/bug"})
			// An exclusive label takes the other label of its scope off.
			is.Equal(send("POST", map[string]any{"labels": []int64{kindFeat}}), []string{"bug", "kind/feature"})
			// Unknown and foreign labels are skipped, as in Gitea; repeats are harmless.
			is.Equal(send("POST", map[string]any{"labels": []int64{999999, foreign, bug}}), []string{"bug", "kind/feature"})
			// Names work too.
			is.Equal(send("POST", map[string]any{"labels": []string{"doc", "nope"}}), []string{"bug", "doc", "kind/feature"})
			// Of two exclusive labels of one scope in one request, the last wins.
			is.Equal(send("PUT", map[string]any{"labels": []int64{doc, kindFeat, kindBug}}), []string{"doc", "kind/bug"})
			list, _, err := srv.Client().GetIssueLabels("alice", "tools", issue.Index, gitea.ListLabelsOptions{})
			is.NoErr(err)
			is.Equal(labelNames(list), []string{"doc", "kind/bug"})

			_, err = alice.DeleteIssueLabel("alice", "tools", issue.Index, doc)
			is.NoErr(err)
			_, err = alice.DeleteIssueLabel("alice", "tools", issue.Index, bug) // not on the issue: nothing changes
			is.NoErr(err)
			is.Equal(send("GET", nil), []string{"kind/bug"})
			_, err = alice.ClearIssueLabels("alice", "tools", issue.Index)
			is.NoErr(err)
			is.Equal(len(send("GET", nil)), 0)
			is.Equal(send("PUT", map[string]any{"labels": []int64{}}), []string{})
		})

		t.Run("the issue is touched", func(t *testing.T) {
			is := is.New(t)
			before, _, err := alice.GetIssue("alice", "tools", issue.Index)
			is.NoErr(err)
			// Times are answered to the second: change labels until the
			// clock has moved on, and the issue's updated_at with it.
			var after *gitea.Issue
			testkit.Eventually(t, "a label change to touch the issue", func() bool {
				send("PUT", map[string]any{"labels": []int64{}})
				send("POST", map[string]any{"labels": []int64{doc}})
				after, _, err = alice.GetIssue("alice", "tools", issue.Index)
				return err == nil && after.Updated.After(before.Updated)
			})
			is.Equal(labelNames(after.Labels), []string{"doc"})
		})

		t.Run("timeline events", func(t *testing.T) {
			is := is.New(t)
			i, _, err := alice.CreateIssue("alice", "tools", gitea.CreateIssueOption{Title: "timeline"})
			is.NoErr(err)
			_, _, err = alice.AddIssueLabels("alice", "tools", i.Index, gitea.IssueLabelsOption{Labels: []int64{kindBug}})
			is.NoErr(err)
			_, _, err = alice.AddIssueLabels("alice", "tools", i.Index, gitea.IssueLabelsOption{Labels: []int64{kindFeat}})
			is.NoErr(err)
			r := srv.Do("GET", fmt.Sprintf("/repos/alice/tools/issues/%d/timeline", i.Index), nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			// The SDK declares "label" a list, Gitea answers one object.
			var events []struct {
				Type  string       `json:"type"`
				Body  string       `json:"body"`
				Label *gitea.Label `json:"label"`
			}
			r.Decode(t, &events)
			var seen []string
			for _, e := range events {
				if e.Type == "label" && e.Label != nil {
					seen = append(seen, e.Label.Name+":"+e.Body)
				}
			}
			// Added ("1"), then swapped by the exclusive scope: removed, added.
			is.Equal(seen, []string{"kind/bug:1", "kind/bug:", "kind/feature:1"})
		})

		t.Run("bad bodies and ids", func(t *testing.T) {
			assertAPIError(t, srv.Do("POST", path, map[string]any{"labels": []any{bug, "doc"}}, basicAs("alice")...), http.StatusBadRequest, "labels should be an array of strings or integers")
			assertAPIError(t, srv.Do("POST", path, map[string]any{"labels": []any{true}}, basicAs("alice")...), http.StatusBadRequest, "a label must be an integer or a string")
			assertAPIError(t, srv.Do("PUT", path, "{", basicAs("alice")...), http.StatusBadRequest, "")
			assertInvalid(t, srv.Do("DELETE", path+"/999999", nil, basicAs("alice")...), "id")
			assertAPIError(t, srv.Do("GET", "/repos/alice/tools/issues/999/labels", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", "/repos/alice/tools/issues/999/labels", map[string]any{"labels": []int64{bug}}, basicAs("alice")...), http.StatusNotFound, "")
		})

		t.Run("access", func(t *testing.T) {
			body := map[string]any{"labels": []int64{bug}}
			assertAPIError(t, srv.Do("POST", path, body), http.StatusUnauthorized, lblMsgToken)
			assertAPIError(t, srv.Do("PUT", path, body), http.StatusUnauthorized, lblMsgToken)
			assertAPIError(t, srv.Do("DELETE", path, nil), http.StatusUnauthorized, lblMsgToken)
			for _, who := range []string{"rita", "stranger"} {
				assertAPIError(t, srv.Do("POST", path, body, basicAs(who)...), http.StatusForbidden, lblMsgNoWrite)
				assertAPIError(t, srv.Do("PUT", path, body, basicAs(who)...), http.StatusForbidden, lblMsgNoWrite)
				assertAPIError(t, srv.Do("DELETE", path, nil, basicAs(who)...), http.StatusForbidden, lblMsgNoWrite)
				assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("%s/%d", path, bug), nil, basicAs(who)...), http.StatusForbidden, lblMsgNoWrite)
			}
			is.New(t).Equal(srv.Do("GET", path, nil, basicAs("rita")...).Status, http.StatusOK)
			priv, _, err := alice.CreateIssue("alice", "secret", gitea.CreateIssueOption{Title: "hidden"})
			is.New(t).NoErr(err)
			privPath := fmt.Sprintf("/repos/alice/secret/issues/%d/labels", priv.Index)
			assertAPIError(t, srv.Do("GET", privPath, nil, basicAs("stranger")...), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", privPath, body, basicAs("stranger")...), http.StatusNotFound, "")
		})

		t.Run("organisation labels on its repositories' issues", func(t *testing.T) {
			is := is.New(t)
			orgLabel, _, err := alice.CreateOrgLabel("acme", gitea.CreateOrgLabelOption{Name: "org-wide", Color: "#123456"})
			is.NoErr(err)
			repoLabel := mk("acme", "app", "local", false)
			i, _, err := alice.CreateIssue("acme", "app", gitea.CreateIssueOption{Title: "org issue"})
			is.NoErr(err)
			got, _, err := alice.AddIssueLabels("acme", "app", i.Index, gitea.IssueLabelsOption{Labels: []int64{orgLabel.ID, repoLabel}})
			is.NoErr(err)
			is.Equal(labelNames(got), []string{"local", "org-wide"})
			is.Equal(got[1].URL, fmt.Sprintf("%s/orgs/acme/labels/%d", srv.API, orgLabel.ID))
			is.Equal(got[0].URL, fmt.Sprintf("%s/repos/acme/app/labels/%d", srv.API, repoLabel))
			// A user's repository cannot use the organisation's labels.
			is.Equal(send("PUT", map[string]any{"labels": []int64{orgLabel.ID}}), []string{})

			// Deleting a label takes it off its issues.
			_, err = alice.DeleteOrgLabel("acme", orgLabel.ID)
			is.NoErr(err)
			list, _, err := alice.GetIssueLabels("acme", "app", i.Index, gitea.ListLabelsOptions{})
			is.NoErr(err)
			is.Equal(labelNames(list), []string{"local"})
		})
	})
}
