package test

import (
	"encoding/base64"
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// putFile commits a file to the default branch through the contents API.
func putFile(t *testing.T, c *gitea.Client, owner, repo, path, content string) {
	t.Helper()
	_, _, err := c.CreateFile(owner, repo, path, gitea.CreateFileOptions{
		FileOptions: gitea.FileOptions{Message: "add " + path},
		Content:     base64.StdEncoding.EncodeToString([]byte(content)),
	})
	if err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
}

func TestIssueTemplates(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, owner := newAccount(t, srv, "tplowner", gitea.VisibleTypePublic)

		t.Run("empty repository: no templates, default config", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, owner, gitea.CreateRepoOption{Name: "empty"})
			list, _, err := owner.GetIssueTemplates("tplowner", "empty")
			is.NoErr(err)
			is.Equal(len(list), 0)
			cfg, _, err := owner.GetIssueConfig("tplowner", "empty")
			is.NoErr(err)
			is.True(cfg.BlankIssuesEnabled)
			is.Equal(len(cfg.ContactLinks), 0)
			v, _, err := owner.ValidateIssueConfig("tplowner", "empty")
			is.NoErr(err)
			is.True(v.Valid)
		})

		createRepo(t, owner, gitea.CreateRepoOption{Name: "tpl", AutoInit: true})
		putFile(t, owner, "tplowner", "tpl", ".gitea/ISSUE_TEMPLATE/bug.md",
			"---\nname: Bug report\nabout: Something is broken\ntitle: \"[bug] \"\nlabels: [bug]\nassignees: tplowner\nref: main\n---\n## Steps\n")
		putFile(t, owner, "tplowner", "tpl", ".gitea/ISSUE_TEMPLATE/feature.yaml",
			"name: Feature\ndescription: Ask for a feature\nbody:\n- type: markdown\n  attributes:\n    value: Thanks!\n"+
				"- type: textarea\n  id: what\n  attributes:\n    label: What\n  validations:\n    required: true\n")
		putFile(t, owner, "tplowner", "tpl", ".gitea/ISSUE_TEMPLATE/broken.yaml", "name: [unclosed\n")
		putFile(t, owner, "tplowner", "tpl", ".gitea/ISSUE_TEMPLATE/config.yml",
			"blank_issues_enabled: false\ncontact_links:\n- name: Forum\n  url: https://forum.example.com\n  about: Ask there\n")
		putFile(t, owner, "tplowner", "tpl", ".github/ISSUE_TEMPLATE/other.md", "---\nname: Other\nabout: From GitHub's folder\n---\nbody\n")

		t.Run("templates from the default branch", func(t *testing.T) {
			is := is.New(t)
			list, _, err := owner.GetIssueTemplates("tplowner", "tpl")
			is.NoErr(err)
			is.Equal(len(list), 3) // broken.yaml and config.yml are skipped
			bug, feature, other := list[0], list[1], list[2]
			is.Equal(bug.Name, "Bug report")
			is.Equal(bug.About, "Something is broken")
			is.Equal(bug.IssueTitle, "[bug] ")
			is.Equal(bug.IssueLabels, []string{"bug"})
			is.Equal(bug.IssueRef, "refs/heads/main")
			is.Equal(bug.Filename, ".gitea/ISSUE_TEMPLATE/bug.md")
			is.Equal(bug.MarkdownContent, "## Steps\n")
			is.True(!bug.IsForm())
			is.Equal(feature.Name, "Feature")
			is.Equal(feature.About, "Ask for a feature")
			is.True(feature.IsForm())
			is.Equal(len(feature.Form), 2)
			is.Equal(feature.Form[0].Type, gitea.IssueFormElementMarkdown)
			is.Equal(feature.Form[0].Attributes.Value, "Thanks!")
			is.Equal(feature.Form[1].ID, "what")
			is.Equal(feature.Form[1].Attributes.Label, "What")
			is.True(feature.Form[1].Validations.Required)
			is.Equal(other.Filename, ".github/ISSUE_TEMPLATE/other.md")
		})

		t.Run("config and its validation", func(t *testing.T) {
			is := is.New(t)
			cfg, _, err := owner.GetIssueConfig("tplowner", "tpl")
			is.NoErr(err)
			is.True(!cfg.BlankIssuesEnabled)
			is.Equal(cfg.ContactLinks, []gitea.IssueConfigContactLink{{Name: "Forum", URL: "https://forum.example.com", About: "Ask there"}})
			v, _, err := owner.ValidateIssueConfig("tplowner", "tpl")
			is.NoErr(err)
			is.True(v.Valid)
			is.Equal(v.Message, "")
		})

		t.Run("a broken config answers the default and says why", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, owner, gitea.CreateRepoOption{Name: "badcfg", AutoInit: true})
			putFile(t, owner, "tplowner", "badcfg", ".github/ISSUE_TEMPLATE/config.yaml",
				"contact_links:\n- name: Forum\n  url: https://forum.example.com\n")
			cfg, _, err := owner.GetIssueConfig("tplowner", "badcfg")
			is.NoErr(err)
			is.True(cfg.BlankIssuesEnabled)
			v, _, err := owner.ValidateIssueConfig("tplowner", "badcfg")
			is.NoErr(err)
			is.True(!v.Valid)
			is.Equal(v.Message, "contact_link at position 1 is missing about key")
		})

		t.Run("private repository is hidden", func(t *testing.T) {
			createRepo(t, owner, gitea.CreateRepoOption{Name: "secret", Private: true, AutoInit: true})
			for _, p := range []string{"/issue_templates", "/issue_config", "/issue_config/validate", "/new_pin_allowed"} {
				r := srv.Do("GET", "/repos/tplowner/secret"+p, nil)
				if r.Status != http.StatusNotFound {
					t.Fatalf("%s: status %d, want 404", p, r.Status)
				}
			}
		})
	})
}
