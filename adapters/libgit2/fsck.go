package libgit2

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/depothq/depot/ports"
)

var _ ports.GitFsck = (*Storage)(nil)

// Fsck runs `git fsck` in p's repository (libgit2 has no integrity check),
// with a clean git configuration; its report, bounded, is the error.
func (s *Storage) Fsck(ctx context.Context, p ports.RepoPath) error {
	dir, err := s.repoDir(p)
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("git fsck %s/%s: %w", p.Owner, p.Name, err)
	}
	cmd := exec.CommandContext(ctx, "git", "fsck", "--no-progress")
	cmd.Dir = dir
	cmd.Env = append(gitFreeEnv(),
		"GIT_DIR="+dir,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
	)
	var out limitedBuffer
	out.limit = 4 << 10
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("git fsck %s/%s: %w", p.Owner, p.Name, ctx.Err())
		}
		return fmt.Errorf("git fsck %s/%s: %w: %s", p.Owner, p.Name, err, strings.TrimSpace(out.String()))
	}
	return nil
}
