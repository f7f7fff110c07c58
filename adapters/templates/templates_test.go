package templates

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

func newTemplates(t *testing.T) *Templates {
	t.Helper()
	tpl, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tpl
}

func TestGitignores(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	list := tpl.Gitignores()
	is.True(len(list) > 0)
	is.True(slices.IsSorted(list))
	for _, want := range []string{"Go", "Python", "Node", "Rust", "Java", "C", "C++", "Ruby", "macOS", "Windows",
		"Linux", "JetBrains", "VisualStudioCode", "Vim", "Emacs", "Archives"} {
		is.True(slices.Contains(list, want)) // template missing
	}
	for _, name := range list {
		body, err := tpl.Gitignore(name)
		is.NoErr(err)
		is.True(strings.TrimSpace(body) != "")
		// The collection's own bytes: Kotlin and Rust end without a newline.
		want, err := data.ReadFile("gitignore/" + name)
		is.NoErr(err)
		is.Equal(body, string(want))
	}
	is.True(!slices.Contains(list, "PHP")) // github/gitignore has none
	body, err := tpl.Gitignore("Go")
	is.NoErr(err)
	is.True(strings.Contains(body, "*.test"))

	list[0] = "changed"
	is.True(tpl.Gitignores()[0] != "changed") // caller's slice is a copy
}

func TestGitignoreUnknown(t *testing.T) {
	tpl := newTemplates(t)
	for _, name := range []string{"", "go", "Cobol", "../readme/Default", "gitignore/Go", "/Go", "Go/"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			_, err := tpl.Gitignore(name)
			is.True(errors.Is(err, errs.ErrNotFound))
			is.Equal(errs.Message(err), "gitignore template not found")
		})
	}
}

func TestLabelSets(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	sets := tpl.LabelSets()
	is.True(slices.IsSorted(sets))
	is.True(slices.Contains(sets, "Default"))
	is.True(slices.Contains(sets, "Advanced"))
	for _, name := range sets {
		labels, err := tpl.LabelSet(name)
		is.NoErr(err)
		is.True(len(labels) > 0)
		for _, l := range labels {
			is.True(colorPattern.MatchString(l.Color))
			is.True(l.Name != "")
			is.True(l.Description != "")
			// Only scoped labels may be exclusive.
			if l.Exclusive {
				is.True(strings.Contains(l.Name, "/"))
			}
		}
	}

	def, err := tpl.LabelSet("Default")
	is.NoErr(err)
	var names []string
	for _, l := range def {
		names = append(names, l.Name)
		is.True(!l.Exclusive)
	}
	// Gitea's Default set: seven labels, in its file's order.
	is.Equal(names, []string{"bug", "duplicate", "enhancement", "help wanted", "invalid", "question", "wontfix"})

	adv, err := tpl.LabelSet("Advanced")
	is.NoErr(err)
	i := slices.IndexFunc(adv, func(l ports.LabelTemplate) bool { return l.Name == "Kind/Bug" })
	is.True(i >= 0)
	is.True(!adv[i].Exclusive) // kinds combine; reviews, states and priorities exclude
	j := slices.IndexFunc(adv, func(l ports.LabelTemplate) bool { return l.Name == "Priority/High" })
	is.True(j >= 0)
	is.True(adv[j].Exclusive)

	adv[i].Name = "changed"
	again, err := tpl.LabelSet("Advanced")
	is.NoErr(err)
	is.Equal(again[i].Name, "Kind/Bug") // caller's slice is a copy
}

func TestLabelSetUnknown(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	_, err := tpl.LabelSet("default")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(errs.Message(err), "label template not found")
}

func TestReadme(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	body, err := tpl.Readme("Default")
	is.NoErr(err)
	is.Equal(body, "# {Name}\n\n{Description}") // as Gitea's Default: no final newline

	_, err = tpl.Readme("Fancy")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(errs.Message(err), "readme template not found")
}

func TestLicenses(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	list := tpl.Licenses()
	is.True(len(list) > 100)
	is.True(slices.IsSortedFunc(list, func(a, b ports.LicenseInfo) int { return strings.Compare(a.Key, b.Key) }))
	keys := map[string]ports.LicenseInfo{}
	for _, l := range list {
		is.True(l.Name != "")
		is.Equal(l.URL, "https://spdx.org/licenses/"+l.Key+".html")
		keys[l.Key] = l
	}
	is.Equal(keys["MIT"].Name, "MIT License")
	for _, k := range []string{"MIT", "Apache-2.0", "GPL-3.0-or-later", "GPL-2.0-only", "BSD-3-Clause", "0BSD", "MPL-2.0"} {
		_, ok := keys[k]
		is.True(ok) // licence missing from the list
	}
}

func TestLicense(t *testing.T) {
	tpl := newTemplates(t)
	cases := []struct {
		name, key, title, contains string
	}{
		{"MIT", "MIT", "MIT License", "Permission is hereby granted"},
		{"mit", "MIT", "MIT License", "Permission is hereby granted"},
		{"Apache-2.0", "Apache-2.0", "Apache License 2.0", "Apache License"},
		{"gpl-3.0-or-later", "GPL-3.0-or-later", "GNU General Public License v3.0 or later", "GNU GENERAL PUBLIC LICENSE"},
		{"0BSD", "0BSD", "BSD Zero Clause License", "Permission to use, copy, modify"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			l, err := tpl.License(c.name)
			is.NoErr(err)
			is.Equal(l.Key, c.key)
			is.Equal(l.Name, c.title)
			is.Equal(l.URL, "https://spdx.org/licenses/"+c.key+".html")
			is.True(strings.Contains(l.Body, c.contains))
		})
	}
}

// TestLicenseShippedTexts checks that the licences copied from SPDX's
// license-list-data are served with those bytes, under their own id and
// under the -only/-or-later ids that share the text.
func TestLicenseShippedTexts(t *testing.T) {
	is := is.New(t)
	tpl := newTemplates(t)
	entries, err := data.ReadDir("licenses")
	is.NoErr(err)
	is.Equal(len(entries), 28)
	mit, err := tpl.License("MIT")
	is.NoErr(err)
	// SPDX's text/MIT.txt: title, notice, the grant wrapped near 100
	// columns with a space left at the end of each wrapped line.
	is.True(strings.HasPrefix(mit.Body, "MIT License\n\nCopyright (c) <year> <copyright holders>\n\n"+
		"Permission is hereby granted, free of charge, to any person obtaining a copy of this software and \n"))
	is.True(strings.HasSuffix(mit.Body, "IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE \nUSE OR OTHER DEALINGS IN THE SOFTWARE.\n"))
	is.Equal(strings.Count(mit.Body, "\n"), 18)
	for id, file := range map[string]string{"MIT": "MIT", "Apache-2.0": "Apache-2.0", "GPL-3.0-or-later": "GPL-3.0",
		"GPL-2.0-only": "GPL-2.0", "0BSD": "0BSD", "MulanPSL-2.0": "MulanPSL-2.0"} {
		l, err := tpl.License(id)
		is.NoErr(err)
		want, err := data.ReadFile("licenses/" + file)
		is.NoErr(err)
		is.Equal(l.Body, string(want)) // shipped text served
		is.Equal(l.Key, id)
	}
}

func TestLicenseUnknown(t *testing.T) {
	tpl := newTemplates(t)
	for _, name := range []string{"", "NoSuchLicense", "../MIT", "License/MIT/pristine.txt"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			_, err := tpl.License(name)
			is.True(errors.Is(err, errs.ErrNotFound))
			is.Equal(errs.Message(err), "license not found")
		})
	}
}
