package libgit2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/depothq/depot/ports"
)

// repoGitWaitDelay is how long a finished or killed git may hold its
// output open (a child it left behind).
const repoGitWaitDelay = 10 * time.Second

// runGit runs the git executable in p's repository for what libgit2 does
// not do (fsck, gc, repack): `git <config> <args>` with a clean
// configuration and environment, in a process group of its own that the end
// of ctx kills whole (git's own children too). A missing repository is not
// found; git's report, bounded, is the error.
func (s *Storage) runGit(ctx context.Context, p ports.RepoPath, config []string, args ...string) error {
	dir, err := s.repoDir(p)
	if err != nil {
		return err
	}
	if ok, err := dirExists(dir); err != nil {
		return err
	} else if !ok {
		return errNoRepo()
	}
	cmd := exec.CommandContext(ctx, "git", append(slices.Clone(config), args...)...)
	cmd.Dir = dir
	cmd.Env = append(gitFreeEnv(),
		"GIT_DIR="+dir,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C", // git's messages untranslated: callers read some
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
	cmd.WaitDelay = repoGitWaitDelay
	var out limitedBuffer
	out.limit = 4 << 10
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("git %s %s/%s: %w", args[0], p.Owner, p.Name, ctx.Err())
		}
		return fmt.Errorf("git %s %s/%s: %w: %s", args[0], p.Owner, p.Name, err, strings.TrimSpace(out.String()))
	}
	return nil
}
