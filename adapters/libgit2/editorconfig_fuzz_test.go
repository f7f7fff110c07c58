package libgit2_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// FuzzEditorConfig fuzzes a repository's root .editorconfig and the file
// name asked about: a file that cannot be used is a 404, never a raw
// error, and the properties answered leave out those set to "unset" and
// give Gitea's four in their normal spelling.
func FuzzEditorConfig(f *testing.F) {
	f.Add(editorconfigFixture, "docs/a.md")
	f.Add("root = true\n[*.{go,md\nindent_style = tab\n", "a.go")
	f.Add("[**]\nindent_size = tab\ntab_width = 8\n[[x]\n", "x")
	f.Add("[*]\nend_of_line = CRLF\ncharset = UTF-8\nindent_style = Space\nk=unset\n", "/a")
	f.Add("[{a,b}/{c,{d,e}}]\nx = 1\n[*.[ch]]\ny = 2\n[!a]\nz\n", "b/e")
	f.Add("\xff\xfe[*]\x00 = \n", "")
	s, p := fuzzRepo(f)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, config, name string) {
		commit(t, s, p, "main", "editorconfig", file(".editorconfig", config))
		props, err := s.EditorConfig(ctx, p, "main", name)
		if err != nil {
			if !errors.Is(err, errs.ErrNotFound) {
				t.Fatalf("EditorConfig answered %v", err)
			}
			return
		}
		for k, v := range props {
			if k == "" || strings.EqualFold(v, "unset") {
				t.Fatalf("property %q = %q", k, v)
			}
		}
		for k, allowed := range map[string][]string{"indent_style": {"space", "tab"}, "end_of_line": {"lf", "cr", "crlf"}} {
			if v, ok := props[k]; ok && v != strings.ToLower(v) {
				t.Fatalf("%s = %q is not in its normal spelling (%q)", k, v, allowed)
			}
		}
	})
}

// fuzzRepo is an empty repository for a fuzz target, in a storage kept
// for the whole run (each input commits over the last).
func fuzzRepo(f *testing.F) (*libgit2.Storage, ports.RepoPath) {
	s, err := libgit2.New(filepath.Join(f.TempDir(), "repos"), slog.New(slog.DiscardHandler))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	p := ports.RepoPath{Owner: "alice", Name: "fuzzed"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		f.Fatal(err)
	}
	return s, p
}
