package test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestRepoCreateIssueLabels checks that issue_labels on a creation gives the
// new repository every label of the set, as the set's template lists them
// (Gitea's InitializeLabels), for an individual's and an organisation's
// repository, and that an unknown set is a 422 that creates nothing.
func TestRepoCreateIssueLabels(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		orgCreate(t, alice, "acme", gitea.VisibleTypePublic)

		sets, _, err := alice.ListLabelTemplates()
		if err != nil {
			t.Fatalf("list label templates: %v", err)
		}
		if !slices.Contains(sets, "Default") || !slices.Contains(sets, "Advanced") {
			t.Fatalf("label sets %v lack Default or Advanced", sets)
		}
		for _, set := range sets {
			t.Run(set, func(t *testing.T) {
				is := is.New(t)
				want, _, err := alice.GetLabelTemplate(set)
				is.NoErr(err)
				name := "labels-" + strings.ToLower(set)
				createRepo(t, alice, gitea.CreateRepoOption{Name: name, IssueLabels: set})
				assertRepoLabels(t, alice, "alice", name, want)
				_, _, err = alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: name, IssueLabels: set, AutoInit: true})
				is.NoErr(err)
				assertRepoLabels(t, alice, "acme", name, want)
			})
		}

		t.Run("Gitea's Default set", func(t *testing.T) {
			is := is.New(t)
			got, _, err := alice.ListRepoLabels("alice", "labels-default", gitea.ListLabelsOptions{})
			is.NoErr(err)
			var rows []string
			for _, l := range got {
				rows = append(rows, l.Name+" "+l.Color+" "+l.Description)
				is.True(!l.Exclusive)
			}
			is.Equal(rows, []string{
				"bug ee0701 Something is not working",
				"duplicate cccccc This issue or pull request already exists",
				"enhancement 84b6eb New feature",
				"help wanted 128a0c Need some help",
				"invalid e6e6e6 Something is wrong",
				"question cc317c More information is needed",
				"wontfix ffffff This won't be fixed",
			})
		})

		t.Run("unknown set creates nothing", func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("POST", "/user/repos", map[string]any{"name": "nolabels", "issue_labels": "NoSuchSet"},
				"Authorization", testserver.Basic("alice", userPassword))
			is.Equal(r.Status, http.StatusUnprocessableEntity)
			is.True(strings.Contains(string(r.Body), "IssueLabels"))
			_, resp, err := alice.GetRepo("alice", "nolabels")
			assertSDKStatus(t, resp, err, http.StatusNotFound)
		})
	})
}

// assertRepoLabels checks that owner/name has exactly the labels of want.
func assertRepoLabels(t *testing.T, c *gitea.Client, owner, name string, want []*gitea.LabelTemplate) {
	t.Helper()
	got, _, err := c.ListRepoLabels(owner, name, gitea.ListLabelsOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
	if err != nil {
		t.Fatalf("list labels of %s/%s: %v", owner, name, err)
	}
	row := func(name, color, desc string, excl bool) string {
		return name + "|" + color + "|" + desc + "|" + map[bool]string{true: "exclusive", false: ""}[excl]
	}
	var g, w []string
	for _, l := range got {
		g = append(g, row(l.Name, l.Color, l.Description, l.Exclusive))
	}
	for _, l := range want {
		w = append(w, row(l.Name, l.Color, l.Description, l.Exclusive))
	}
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("labels of %s/%s:\n got %q\nwant %q", owner, name, g, w)
	}
}
