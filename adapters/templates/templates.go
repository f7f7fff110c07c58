// Package templates implements ports.Templates: the .gitignore files, label
// sets, README skeletons and licence texts a new repository can start with,
// embedded in the binary.
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sync"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.Templates = (*Templates)(nil)

// data holds the embedded templates. A file's name is the template's name,
// case-sensitive as Gitea's are ("C++", "macOS", "VisualStudioCode"). Where
// they come from matters, since a new repository's first commit is compared
// with Gitea's byte for byte: gitignore/ holds templates of the
// github/gitignore collection (CC0) and licenses/ SPDX license-list-data
// texts, both copied by upstream_data_gen.go from the data Gitea 1.27 ships
// (that file names the version); licences not among them keep
// licenseclassifier's text (licenses.go). The label sets are Gitea's Default
// and Advanced sets (names, colours, descriptions, exclusivity) and
// readme/Default is Gitea's README template, without a final newline as
// Gitea's has none.
//
//go:generate go run upstream_data_gen.go
//go:embed gitignore/* labels/*.json readme/* licenses/*
var data embed.FS

// colorPattern is the only colour form the label store accepts.
var colorPattern = regexp.MustCompile(`^#[0-9a-f]{6}$`)

// Templates implements ports.Templates. The small embedded texts are indexed
// at construction so a broken data file fails start-up; licences are indexed
// on first use because there are hundreds of them.
type Templates struct {
	gitignores []string
	readmes    []string
	labelSets  map[string][]ports.LabelTemplate
	labelNames []string

	licensesOnce sync.Once
	licenses     licenseIndex
}

// New indexes the embedded templates and checks every label set parses.
func New() (*Templates, error) {
	gitignores, err := names("gitignore")
	if err != nil {
		return nil, err
	}
	readmes, err := names("readme")
	if err != nil {
		return nil, err
	}
	labelFiles, err := fs.Glob(data, "labels/*.json")
	if err != nil {
		return nil, err
	}
	t := &Templates{gitignores: gitignores, readmes: readmes, labelSets: map[string][]ports.LabelTemplate{}}
	for _, file := range labelFiles {
		name := file[len("labels/") : len(file)-len(".json")]
		set, err := parseLabelSet(file)
		if err != nil {
			return nil, err
		}
		t.labelSets[name] = set
		t.labelNames = append(t.labelNames, name)
	}
	slices.Sort(t.labelNames)
	return t, nil
}

// names lists the files of one embedded folder, sorted.
func names(dir string) ([]string, error) {
	entries, err := data.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("templates: list %s: %w", dir, err)
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// labelFile is the on-disk shape of one label of a set.
type labelFile struct {
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description"`
	Exclusive   bool   `json:"exclusive"`
}

func parseLabelSet(file string) ([]ports.LabelTemplate, error) {
	raw, err := data.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("templates: read %s: %w", file, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var labels []labelFile
	if err := dec.Decode(&labels); err != nil {
		return nil, fmt.Errorf("templates: parse %s: %w", file, err)
	}
	out := make([]ports.LabelTemplate, 0, len(labels))
	seen := map[string]bool{}
	for _, l := range labels {
		if l.Name == "" || !colorPattern.MatchString(l.Color) || seen[l.Name] {
			return nil, fmt.Errorf("templates: %s: bad label %q (%q)", file, l.Name, l.Color)
		}
		seen[l.Name] = true
		out = append(out, ports.LabelTemplate(l))
	}
	return out, nil
}

// Gitignores returns the names of the .gitignore templates, sorted.
func (t *Templates) Gitignores() []string { return slices.Clone(t.gitignores) }

// Gitignore returns the text of the named .gitignore template.
func (t *Templates) Gitignore(name string) (string, error) {
	// Looking the name up in the index first keeps "../readme/Default" and
	// the like from reaching the file system.
	if _, ok := slices.BinarySearch(t.gitignores, name); !ok {
		return "", errs.NotFound("gitignore template not found")
	}
	b, err := data.ReadFile("gitignore/" + name)
	if err != nil {
		return "", fmt.Errorf("templates: read gitignore %s: %w", name, err)
	}
	return string(b), nil
}

// LabelSets returns the names of the label sets, sorted.
func (t *Templates) LabelSets() []string { return slices.Clone(t.labelNames) }

// LabelSet returns the labels of the named set, in the file's order. The
// slice is the caller's own.
func (t *Templates) LabelSet(name string) ([]ports.LabelTemplate, error) {
	set, ok := t.labelSets[name]
	if !ok {
		return nil, errs.NotFound("label template not found")
	}
	return slices.Clone(set), nil
}

// Readme returns the named README template with its {Name}, {Description}
// and {CloneURL...} placeholders left for the caller.
func (t *Templates) Readme(name string) (string, error) {
	if _, ok := slices.BinarySearch(t.readmes, name); !ok {
		return "", errs.NotFound("readme template not found")
	}
	b, err := data.ReadFile("readme/" + name)
	if err != nil {
		return "", fmt.Errorf("templates: read readme %s: %w", name, err)
	}
	return string(b), nil
}
