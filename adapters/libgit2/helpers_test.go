package libgit2_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// newStorage returns a Storage rooted in a fresh temporary directory, and
// that root.
func newStorage(t *testing.T) (*libgit2.Storage, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repos")
	s, err := libgit2.New(root, slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, root
}

// repoDir is where the adapter keeps p under root.
func repoDir(root string, p ports.RepoPath) string {
	return filepath.Join(root, strings.ToLower(p.Owner), strings.ToLower(p.Name)+".git")
}

// runGit runs the git CLI in dir with no user or system configuration and
// returns its trimmed standard output.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitOutput(t, dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// gitOutput is runGit that returns the error instead of failing.
func gitOutput(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"HOME="+t.TempDir(),
		"GIT_AUTHOR_NAME=Tagger", "GIT_AUTHOR_EMAIL=tagger@example.com",
		"GIT_COMMITTER_NAME=Tagger", "GIT_COMMITTER_EMAIL=tagger@example.com",
	)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return stderr.String(), err
	}
	return strings.TrimSpace(string(out)), nil
}

// alice signs the commits of the tests.
var alice = ports.GitSignature{
	Name:  "Alice Example",
	Email: "alice@example.com",
	When:  time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC),
}

// commit writes files on branch and returns the commit id.
func commit(t *testing.T, s *libgit2.Storage, p ports.RepoPath, branch, msg string, files ...ports.GitFile) string {
	t.Helper()
	id, err := s.CommitFiles(context.Background(), p, ports.GitCommit{
		Branch: branch, Message: msg, Author: alice, Files: files,
	})
	if err != nil {
		t.Fatalf("CommitFiles: %v", err)
	}
	return id
}

// file is a non-executable GitFile.
func file(path, content string) ports.GitFile {
	return ports.GitFile{Path: path, Content: []byte(content)}
}

// invalidFields returns the fields of an errs.ErrInvalid error, failing the
// test when err is anything else.
func invalidFields(t *testing.T, err error) []string {
	t.Helper()
	var e *errs.Error
	if !errors.Is(err, errs.ErrInvalid) || !errors.As(err, &e) {
		t.Fatalf("want an invalid error, got %v", err)
	}
	return e.Fields
}

// hasField reports whether err is invalid and names field.
func hasField(t *testing.T, err error, field string) bool {
	t.Helper()
	return slices.Contains(invalidFields(t, err), field)
}

// listDir returns the names in dir, or nil when it does not exist.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
