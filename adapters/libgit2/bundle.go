package libgit2

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// bundleBranch is the one branch of a downloaded bundle, as in Gitea: HEAD
// points at it, so `git clone x.bundle` checks it out.
const bundleBranch = "refs/heads/bundle"

// writeBundle streams a Git bundle of commitID's history to w. libgit2
// cannot write bundles, so this runs `git bundle create -` and copies its
// standard output; cancelling ctx kills it.
//
// A bundle lists references, and a commit id is not one: git runs in a
// scratch Git directory holding only HEAD and the bundle branch, with the
// repository's own object directory (GIT_OBJECT_DIRECTORY), so nothing is
// written to the repository and no object is copied.
func writeBundle(ctx context.Context, repoDir, commitID string, w io.Writer) error {
	scratch, err := os.MkdirTemp("", "depot-bundle-")
	if err != nil {
		return fmt.Errorf("libgit2: bundle scratch directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(scratch) }()
	files := map[string]string{
		"HEAD":       "ref: " + bundleBranch + "\n",
		bundleBranch: commitID + "\n",
	}
	for name, content := range files {
		path := filepath.Join(scratch, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("libgit2: bundle scratch directory: %w", err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return fmt.Errorf("libgit2: bundle scratch directory: %w", err)
		}
	}

	cmd := exec.CommandContext(ctx, "git", "bundle", "create", "--quiet", "-", bundleBranch, "HEAD")
	cmd.Dir = scratch
	cmd.Env = append(gitFreeEnv(),
		"GIT_DIR="+scratch,
		"GIT_OBJECT_DIRECTORY="+filepath.Join(repoDir, "objects"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
	)
	cmd.Stdout = w
	var stderr limitedBuffer
	stderr.limit = 4 << 10
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("libgit2: git bundle create: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// gitFreeEnv is this process's environment without the GIT_* variables that
// would point git elsewhere.
func gitFreeEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_") {
			out = append(out, kv)
		}
	}
	return out
}

// limitedBuffer keeps the first limit bytes written to it and drops the rest,
// so a chatty subprocess cannot grow memory.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
