package issue

import (
	"testing"

	"github.com/matryer/is"
)

func TestParseTemplate(t *testing.T) {
	t.Run("markdown", func(t *testing.T) {
		is := is.New(t)
		tpl, err := ParseTemplate(".gitea/ISSUE_TEMPLATE/bug.md", []byte("---\nname: Bug\nabout: Report a bug\ntitle: \"[bug] \"\nlabels: bug, triage\nref: main\n---\nSteps:\n"))
		is.NoErr(err)
		is.Equal(tpl.Name, "Bug")
		is.Equal(tpl.About, "Report a bug")
		is.Equal(tpl.Title, "[bug] ")
		is.Equal(tpl.Labels, []string{"bug", "triage"})
		is.Equal(tpl.Assignees, []string{})
		is.Equal(tpl.Ref, "refs/heads/main")
		is.Equal(tpl.Content, "Steps:\n")
		is.True(tpl.Fields == nil)
	})
	t.Run("form", func(t *testing.T) {
		is := is.New(t)
		src := "name: Feature\ndescription: Ask for one\nlabels: [enhancement]\nbody:\n" +
			"- type: markdown\n  attributes:\n    value: Thanks\n" +
			"- type: input\n  id: what\n  attributes:\n    label: What\n  validations:\n    required: true\n" +
			"- type: dropdown\n  attributes:\n    label: Pick\n    options: [a, b]\n"
		tpl, err := ParseTemplate("ISSUE_TEMPLATE/f.yml", []byte(src))
		is.NoErr(err)
		is.Equal(tpl.About, "Ask for one")
		is.Equal(tpl.Labels, []string{"enhancement"})
		is.Equal(len(tpl.Fields), 3)
		is.Equal(tpl.Fields[0].ID, "0")
		is.Equal(tpl.Fields[1].ID, "what")
		is.Equal(tpl.Fields[1].Validations["required"], true)
		is.Equal(tpl.Fields[2].ID, "2")
	})
	bad := map[string]string{
		"x.md":   "no front matter",
		"y.md":   "---\nabout: x\n---\n",
		"z.yaml": "name: a\nabout: b\n",
		"w.yaml": "name: a\nabout: b\nbody:\n- type: nope\n",
		"v.yaml": "name: a\nabout: b\nbody:\n- type: dropdown\n  attributes:\n    label: L\n",
		"u.yaml": "name: [",
		"t.txt":  "name: a",
	}
	for name, src := range bad {
		t.Run("invalid "+name, func(t *testing.T) {
			is := is.New(t)
			_, err := ParseTemplate(name, []byte(src))
			is.True(err != nil)
		})
	}
}

func TestParseTemplateConfig(t *testing.T) {
	is := is.New(t)
	c, err := ParseTemplateConfig([]byte("blank_issues_enabled: false\ncontact_links:\n- name: Forum\n  url: https://example.com\n  about: Ask there\n"))
	is.NoErr(err)
	is.Equal(c.BlankIssuesEnabled, false)
	is.Equal(c.ContactLinks, []ContactLink{{Name: "Forum", URL: "https://example.com", About: "Ask there"}})
	c, err = ParseTemplateConfig([]byte("contact_links:\n- name: Forum\n  url: https://example.com\n"))
	is.Equal(err.Error(), "contact_link at position 1 is missing about key")
	is.Equal(c, DefaultTemplateConfig())
	_, err = ParseTemplateConfig([]byte("contact_links:\n- name: F\n  url: not a url\n  about: a\n"))
	is.True(err != nil)
}
