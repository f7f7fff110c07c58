package markup

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

func TestMarkdownMode(t *testing.T) {
	is := is.New(t)
	is.Equal(MarkdownMode(Request{Mode: "comment"}), ModeComment)
	is.Equal(MarkdownMode(Request{Mode: "gfm"}), ModeGFM)
	is.Equal(MarkdownMode(Request{Mode: "wiki"}), ModeWiki)
	is.Equal(MarkdownMode(Request{Wiki: true}), ModeWiki)
	is.Equal(MarkdownMode(Request{Mode: "file"}), ModeMarkdown)
	is.Equal(MarkdownMode(Request{Mode: "bogus"}), ModeMarkdown)
}

func TestFileFormat(t *testing.T) {
	is := is.New(t)
	for name, want := range map[string]ports.MarkupFormat{"a.md": ports.MarkupMarkdown, "docs/B.MarkDown": ports.MarkupMarkdown,
		"x.livemd": ports.MarkupMarkdown, "notes.txt": ports.MarkupPlainText} {
		got, err := fileFormat(name)
		is.NoErr(err)
		is.Equal(got, want)
	}
	for _, name := range []string{"a.rst", "Makefile", "a.org", ""} {
		_, err := fileFormat(name)
		is.True(errors.Is(err, errs.ErrInvalid))
	}
}

func TestPlaceLinks(t *testing.T) {
	s := &Service{appURL: "http://h"}
	repo := &repos.Access{Repo: &repository.Repository{Name: "r", Owner: repository.Owner{Name: "o"}, DefaultBranch: "release/1"}}
	cases := []struct {
		name         string
		a            *repos.Access
		r            Request
		repoURL, ref string
		treePath     string
	}{
		{"no context, no repository", nil, Request{}, "", "", ""},
		{"a repository's root", nil, Request{Context: "/o/r"}, "http://h/o/r", "", ""},
		{"with the site's URL", nil, Request{Context: "http://h/o/r"}, "http://h/o/r", "", ""},
		{"a file on a branch", nil, Request{Context: "/o/r/src/branch/feat/x/docs", FilePath: "docs/a.md"},
			"http://h/o/r", "branch/feat/x", "docs"},
		{"a commit", nil, Request{Context: "/o/r/src/commit/abc", FilePath: "a.md"}, "http://h/o/r", "commit/abc", ""},
		{"not a source path", nil, Request{Context: "/o/r/issues/1"}, "http://h/o/r", "", ""},
		{"the route's repository", repo, Request{}, "http://h/o/r", "", ""},
		{"a file of the route's repository", repo, Request{Mode: ModeFile, FilePath: "../../d/a.md"},
			"http://h/o/r", "branch/release/1", "d"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			var doc ports.MarkupDocument
			s.placeLinks(&doc, c.a, c.r)
			is.Equal(doc.RepoURL, c.repoURL)
			is.Equal(doc.RefPath, c.ref)
			is.Equal(doc.TreePath, c.treePath)
		})
	}
}
