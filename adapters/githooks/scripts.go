// Package githooks keeps repositories' own Git hook scripts on disk,
// implementing ports.GitHookScripts.
//
// A repository's script for hook <name> lives in its bare directory at
// hooks/<name>.d/<name>, where Gitea keeps custom hooks too. Git itself
// never runs it (Depot points core.hooksPath at its own scripts); Depot's
// push hook scripts run it after their own logic (adapters/githttp).
package githooks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// Dirs says where a repository lives on disk.
type Dirs interface {
	Dir(p ports.RepoPath) (string, error)
}

// Scripts is the file-system implementation of ports.GitHookScripts.
type Scripts struct{ dirs Dirs }

var _ ports.GitHookScripts = (*Scripts)(nil)

// New returns the scripts of the repositories dirs locates.
func New(dirs Dirs) *Scripts { return &Scripts{dirs: dirs} }

// Path is where p's script for hook name lives: <repo>/hooks/<name>.d/<name>.
// The push hook scripts look there.
func Path(repoDir, name string) string {
	return filepath.Join(repoDir, "hooks", name+".d", name)
}

func (s *Scripts) path(ctx context.Context, p ports.RepoPath, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	// The name becomes a path segment: only the known names may.
	if err := hook.CheckGitHookName(name); err != nil {
		return "", err
	}
	dir, err := s.dirs.Dir(p)
	if err != nil {
		return "", err
	}
	return Path(dir, name), nil
}

// Read returns the script of hook name; ok is false when there is none.
func (s *Scripts) Read(ctx context.Context, p ports.RepoPath, name string) (string, bool, error) {
	path, err := s.path(ctx, p, name)
	if err != nil {
		return "", false, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("githooks: read %s: %w", name, err)
	}
	return string(data), true, nil
}

// Write stores the script, executable, replacing any other at once (a push
// running meanwhile sees the old script or the new one, never half of one).
func (s *Scripts) Write(ctx context.Context, p ports.RepoPath, name, content string) error {
	path, err := s.path(ctx, p, name)
	if err != nil {
		return err
	}
	// hooks/ is made on demand, but never a repository directory: writing
	// into one that is gone would leave a stray directory behind.
	if _, err := os.Stat(filepath.Dir(filepath.Dir(filepath.Dir(path)))); err != nil {
		return errs.NotFound("repository files do not exist")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+name+"-*")
	if err != nil {
		return fmt.Errorf("githooks: %w", err)
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o755), os.Rename(tmp.Name(), path)); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("githooks: write %s: %w", name, err)
	}
	return nil
}

// Remove deletes the script; none is not an error.
func (s *Scripts) Remove(ctx context.Context, p ports.RepoPath, name string) error {
	path, err := s.path(ctx, p, name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("githooks: remove %s: %w", name, err)
	}
	return nil
}
