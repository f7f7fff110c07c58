package issue

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseTemplate fuzzes an issue template file of a repository, as
// Markdown with front matter or as a YAML form: it is refused with a
// reason, or parsed to a template that has its name and about, names a
// full ref, and encodes as JSON (the API hands it on as it is).
func FuzzParseTemplate(f *testing.F) {
	f.Add("bug.md", "---\nname: Bug\nabout: Report\ntitle: \"[bug] \"\nlabels: [bug, ui]\nref: main\n---\nBody\n")
	f.Add("form.yaml", "name: Form\ndescription: d\nbody:\n- type: input\n  id: a\n  attributes: {label: A}\n"+
		"- type: checkboxes\n  attributes:\n    label: C\n    options: [{label: x}]\n- type: markdown\n  attributes: {value: hi}\n")
	f.Add("f.yml", "name: n\nabout: a\nbody:\n- type: dropdown\n  attributes: {label: L, options: [.inf, .nan, {1: 2}]}\n")
	f.Add("x.md", "\ufeff---\r\nname: n\r\nabout: a\r\nlabels: one\r\n---\r\n")
	f.Add("x.yaml", "body: [~]\n")
	f.Add("x.txt", "name: n")
	f.Fuzz(func(t *testing.T, name, content string) {
		tpl, err := ParseTemplate(name, []byte(content))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("refused without a reason")
			}
			return
		}
		if tpl.Name == "" || tpl.About == "" || tpl.FileName != name || tpl.Labels == nil || tpl.Assignees == nil {
			t.Fatalf("template %+v", tpl)
		}
		if tpl.Ref != "" && !strings.HasPrefix(tpl.Ref, "refs/") {
			t.Fatalf("ref %q is not full", tpl.Ref)
		}
		if _, err := json.Marshal(tpl); err != nil {
			t.Fatalf("template from %q does not encode as JSON: %v", content, err)
		}
	})
}

// FuzzParseTemplateConfig fuzzes a repository's issue config file: a
// broken one answers the default with its reason, and a good one's
// contact links all have a name, an about and a URL.
func FuzzParseTemplateConfig(f *testing.F) {
	f.Add("blank_issues_enabled: false\ncontact_links:\n- name: Forum\n  url: https://forum.example\n  about: Ask\n")
	f.Add("contact_links:\n- name: x\n  url: not a url\n  about: a\n")
	f.Add("blank_issues_enabled: maybe\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, content string) {
		c, err := ParseTemplateConfig([]byte(content))
		if err != nil {
			def := DefaultTemplateConfig()
			if c.BlankIssuesEnabled != def.BlankIssuesEnabled || len(c.ContactLinks) != len(def.ContactLinks) {
				t.Fatalf("a broken config answered %+v", c)
			}
			return
		}
		for _, l := range c.ContactLinks {
			if l.Name == "" || l.About == "" || l.URL == "" {
				t.Fatalf("contact link %+v", l)
			}
		}
		if _, err := json.Marshal(c); err != nil {
			t.Fatalf("config does not encode: %v", err)
		}
	})
}
