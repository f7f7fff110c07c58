package issue

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// TemplateDirs are the folders of the default branch whose files are issue
// templates, in Gitea's order.
var TemplateDirs = []string{
	"ISSUE_TEMPLATE", "issue_template",
	".gitea/ISSUE_TEMPLATE", ".gitea/issue_template",
	".github/ISSUE_TEMPLATE", ".github/issue_template",
	".gitlab/ISSUE_TEMPLATE", ".gitlab/issue_template",
}

// TemplateConfigPaths are where the issue config is looked for, in order;
// each is tried with ".yaml" then ".yml".
var TemplateConfigPaths = []string{
	".gitea/ISSUE_TEMPLATE/config", ".gitea/issue_template/config",
	".github/ISSUE_TEMPLATE/config", ".github/issue_template/config",
}

// MaxTemplateBytes bounds what is read of one template or config file.
const MaxTemplateBytes = 1 << 20

// Template is an issue template: a Markdown file with YAML front matter
// (Fields nil) or a YAML issue form (Fields set).
type Template struct {
	Name      string
	Title     string
	About     string
	Labels    []string
	Assignees []string
	// Ref is the full ref new issues start on ("refs/heads/x"), or "".
	Ref string
	// Content is a Markdown template's body.
	Content string
	Fields  []*FormField
	// FileName is the file's path from the repository's root.
	FileName string
}

// FormField is one element of an issue form. Attributes and Validations
// keep the file's keys as they are, as Gitea hands them on.
type FormField struct {
	Type        string
	ID          string
	Attributes  map[string]any
	Validations map[string]any
	Visible     []string
}

// TemplateConfig is a repository's issue config.
type TemplateConfig struct {
	BlankIssuesEnabled bool
	ContactLinks       []ContactLink
}

// ContactLink sends reporters somewhere else than a new issue.
type ContactLink struct {
	Name, URL, About string
}

// DefaultTemplateConfig is the config of a repository without a config file.
func DefaultTemplateConfig() TemplateConfig {
	return TemplateConfig{BlankIssuesEnabled: true, ContactLinks: []ContactLink{}}
}

// TemplateKind is "md" or "yaml" for a template's file name, "" when the
// file cannot be a template.
func TemplateKind(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".md":
		return "md"
	case ".yaml", ".yml":
		return "yaml"
	}
	return ""
}

// stringList reads a YAML list of strings or a comma-separated string.
type stringList []string

func (s *stringList) UnmarshalYAML(n *yaml.Node) error {
	var out []string
	switch n.Kind {
	case yaml.ScalarNode:
		for _, part := range strings.Split(n.Value, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		for _, p := range list {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	default:
		return errors.New("must be a string or a list of strings")
	}
	*s = out
	return nil
}

type templateFile struct {
	Name        string       `yaml:"name"`
	Title       string       `yaml:"title"`
	About       string       `yaml:"about"`
	Description string       `yaml:"description"`
	Labels      stringList   `yaml:"labels"`
	Assignees   stringList   `yaml:"assignees"`
	Ref         string       `yaml:"ref"`
	Body        []*fieldFile `yaml:"body"`
}

type fieldFile struct {
	Type        string         `yaml:"type"`
	ID          string         `yaml:"id"`
	Attributes  map[string]any `yaml:"attributes"`
	Validations map[string]any `yaml:"validations"`
	Visible     []string       `yaml:"visible"`
}

// ParseTemplate parses and validates the template file at name (its path
// from the repository's root). An invalid file is an error saying why; the
// listing skips it, as Gitea does.
func ParseTemplate(name string, content []byte) (*Template, error) {
	var f templateFile
	t := &Template{FileName: name}
	switch TemplateKind(name) {
	case "md":
		meta, body, err := frontMatter(string(content))
		if err != nil {
			return nil, err
		}
		if err := yaml.Unmarshal([]byte(meta), &f); err != nil {
			return nil, fmt.Errorf("front matter: %w", err)
		}
		t.Content = body
	case "yaml":
		if err := yaml.Unmarshal(content, &f); err != nil {
			return nil, fmt.Errorf("yaml: %w", err)
		}
		if f.Body == nil {
			f.Body = []*fieldFile{}
		}
		t.Fields = make([]*FormField, len(f.Body))
		for i, b := range f.Body {
			if b == nil {
				return nil, fmt.Errorf("body[%d]: must be a mapping", i)
			}
			id := b.ID
			if id == "" {
				id = fmt.Sprint(i)
			}
			t.Fields[i] = &FormField{Type: b.Type, ID: id, Attributes: jsonMap(b.Attributes),
				Validations: jsonMap(b.Validations), Visible: b.Visible}
		}
	default:
		return nil, errors.New("not a template file")
	}
	t.Name, t.Title, t.About, t.Ref = strings.TrimSpace(f.Name), f.Title, strings.TrimSpace(f.About), f.Ref
	if t.About == "" {
		t.About = strings.TrimSpace(f.Description)
	}
	t.Labels, t.Assignees = nonNil(f.Labels), nonNil(f.Assignees)
	if t.Ref != "" && !strings.HasPrefix(t.Ref, "refs/") {
		t.Ref = "refs/heads/" + t.Ref
	}
	if err := validateTemplate(t); err != nil {
		return nil, err
	}
	return t, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// frontMatter splits "---\n<yaml>\n---\n<body>".
func frontMatter(s string) (meta, body string, err error) {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return "", "", errors.New("front matter not found")
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return "", strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n"), nil
	}
	i := strings.Index(rest, "\n---\n")
	if i < 0 {
		if strings.HasSuffix(rest, "\n---") {
			return rest[:len(rest)-4], "", nil
		}
		return "", "", errors.New("front matter not closed")
	}
	return rest[:i], rest[i+5:], nil
}

var fieldIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// validateTemplate applies Gitea's rules for template metadata and forms.
func validateTemplate(t *Template) error {
	if t.Name == "" {
		return errors.New("'name' is required")
	}
	if t.About == "" {
		return errors.New("'about' is required")
	}
	if t.Fields == nil {
		return nil
	}
	if len(t.Fields) == 0 {
		return errors.New("'body' is required")
	}
	seen := map[string]bool{}
	for i, f := range t.Fields {
		pos := fmt.Sprintf("body[%d]", i)
		switch f.Type {
		case "markdown", "textarea", "input", "dropdown", "checkboxes":
		default:
			return fmt.Errorf("%s: unknown type %q", pos, f.Type)
		}
		if !fieldIDPattern.MatchString(f.ID) {
			return fmt.Errorf("%s: 'id' should contain only alphanumerics, '-' and '_'", pos)
		}
		if seen[f.ID] {
			return fmt.Errorf("%s: 'id' should be unique", pos)
		}
		seen[f.ID] = true
		attr := func(k string) (any, bool) { v, ok := f.Attributes[k]; return v, ok }
		if f.Type == "markdown" {
			if v, _ := attr("value"); fmt.Sprint(v) == "" || v == nil {
				return fmt.Errorf("%s: 'value' is required", pos)
			}
			continue
		}
		if v, _ := attr("label"); v == nil || fmt.Sprint(v) == "" {
			return fmt.Errorf("%s: 'label' is required", pos)
		}
		if f.Type == "dropdown" || f.Type == "checkboxes" {
			opts, _ := attr("options")
			list, ok := opts.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("%s: 'options' is required and should be a non-empty array", pos)
			}
			if f.Type == "checkboxes" {
				for j, o := range list {
					m, ok := o.(map[string]any)
					if !ok || m["label"] == nil || fmt.Sprint(m["label"]) == "" {
						return fmt.Errorf("%s: 'label' of option %d is required", pos, j)
					}
				}
			}
		}
	}
	return nil
}

// jsonMap makes a decoded YAML mapping encodable as JSON: nested mappings
// with non-string keys get their keys written out.
func jsonMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = jsonValue(v)
	}
	return out
}

func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return jsonMap(x)
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case float64:
		// JSON has no infinities or NaN: YAML's .inf and .nan are handed
		// on as YAML spells them, or the whole listing would fail to encode.
		switch {
		case math.IsNaN(x):
			return ".nan"
		case math.IsInf(x, 1):
			return ".inf"
		case math.IsInf(x, -1):
			return "-.inf"
		}
	}
	return v
}

type configFile struct {
	BlankIssuesEnabled *bool `yaml:"blank_issues_enabled"`
	ContactLinks       []struct {
		Name  string `yaml:"name"`
		URL   string `yaml:"url"`
		About string `yaml:"about"`
	} `yaml:"contact_links"`
}

// ParseTemplateConfig parses and validates an issue config file. On error
// the default config is returned with it, as Gitea answers the default for
// a broken file and tells why only when asked to validate.
func ParseTemplateConfig(content []byte) (TemplateConfig, error) {
	var f configFile
	if err := yaml.Unmarshal(content, &f); err != nil {
		return DefaultTemplateConfig(), fmt.Errorf("yaml: %w", err)
	}
	c := DefaultTemplateConfig()
	if f.BlankIssuesEnabled != nil {
		c.BlankIssuesEnabled = *f.BlankIssuesEnabled
	}
	for i, l := range f.ContactLinks {
		switch {
		case l.Name == "":
			return DefaultTemplateConfig(), fmt.Errorf("contact_link at position %d is missing name key", i+1)
		case l.URL == "":
			return DefaultTemplateConfig(), fmt.Errorf("contact_link at position %d is missing url key", i+1)
		case l.About == "":
			return DefaultTemplateConfig(), fmt.Errorf("contact_link at position %d is missing about key", i+1)
		}
		if _, err := url.ParseRequestURI(l.URL); err != nil {
			return DefaultTemplateConfig(), fmt.Errorf("%s is not a valid URL", l.URL)
		}
		c.ContactLinks = append(c.ContactLinks, ContactLink{Name: l.Name, URL: l.URL, About: l.About})
	}
	return c, nil
}
