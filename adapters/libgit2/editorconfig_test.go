package libgit2_test

import (
	"context"
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

// editorconfigFixture is a root .editorconfig with overlapping sections.
const editorconfigFixture = `root = true

[*]
indent_style = space
indent_size = 4
end_of_line = LF
charset = utf-8
trim_trailing_whitespace = true
insert_final_newline = true

[*.go]
indent_style = tab

[Makefile]
indent_style = tab

[*.{md,txt}]
trim_trailing_whitespace = false

[docs/**]
max_line_length = 80

[*.py]
indent_size = unset
`

func TestAnalysisEditorconfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, p, bare, work := analysisRepo(t)
	archiveWrite(t, work, ".editorconfig", editorconfigFixture, 0o644)
	analysisCommit(t, work, bare, "editorconfig")

	base := map[string]string{"indent_style": "space", "indent_size": "4", "end_of_line": "lf", "charset": "utf-8",
		"trim_trailing_whitespace": "true", "insert_final_newline": "true"}
	with := func(changes map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range changes {
			if v == "" {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	for _, tc := range []struct {
		file string
		want map[string]string
	}{
		{"main.go", with(map[string]string{"indent_style": "tab"})},
		{"cmd/tool/main.go", with(map[string]string{"indent_style": "tab"})},
		{"Makefile", with(map[string]string{"indent_style": "tab"})},
		{"README.md", with(map[string]string{"trim_trailing_whitespace": "false"})},
		{"docs/guide.md", with(map[string]string{"trim_trailing_whitespace": "false", "max_line_length": "80"})},
		{"docs/deep/x.rst", with(map[string]string{"max_line_length": "80"})},
		{"lib/app.py", with(map[string]string{"indent_size": ""})},
		{"/main.go", with(map[string]string{"indent_style": "tab"})},
		{"data.bin", base},
	} {
		t.Run(tc.file, func(t *testing.T) {
			is := is.New(t)
			got, err := s.EditorConfig(ctx, p, "main", tc.file)
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}

	t.Run("absent ref", func(t *testing.T) {
		if _, err := s.EditorConfig(ctx, p, "nothing", "a.go"); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("want not found, got %v", err)
		}
	})
}

func TestAnalysisEditorconfigMissingOrBroken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, p, bare, work := analysisRepo(t)
	archiveWrite(t, work, "main.go", "package main\n", 0o644)
	// Only the root .editorconfig counts.
	archiveWrite(t, work, "sub/.editorconfig", "[*]\nindent_style = tab\n", 0o644)
	analysisCommit(t, work, bare, "no editorconfig")
	if _, err := s.EditorConfig(ctx, p, "main", "sub/a.go"); !errors.Is(err, errs.ErrNotFound) {
		t.Fatalf("no .editorconfig: want not found, got %v", err)
	}

	archiveWrite(t, work, ".editorconfig", "[*\nindent_style = tab\n", 0o644)
	analysisCommit(t, work, bare, "broken editorconfig")
	if _, err := s.EditorConfig(ctx, p, "main", "a.go"); !errors.Is(err, errs.ErrNotFound) {
		t.Fatalf("broken .editorconfig: want not found, got %v", err)
	}

	// A bad value is a warning: the other properties still apply.
	archiveWrite(t, work, ".editorconfig", "[*]\nindent_style = tab\ninsert_final_newline = maybe\n", 0o644)
	analysisCommit(t, work, bare, "odd value")
	got, err := s.EditorConfig(ctx, p, "main", "a.go")
	is := is.New(t)
	is.NoErr(err)
	is.Equal(got["indent_style"], "tab")
}
