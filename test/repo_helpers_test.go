package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
)

// createRepo makes a repository through POST /user/repos as the client's
// user and fails the test on any error.
func createRepo(t *testing.T, c *gitea.Client, opt gitea.CreateRepoOption) *gitea.Repository {
	t.Helper()
	r, _, err := c.CreateRepo(opt)
	if err != nil {
		t.Fatalf("create repository %s: %v", opt.Name, err)
	}
	return r
}

// repoDir is where the server keeps owner/name's bare repository.
func repoDir(srv *testserver.Server, owner, name string) string {
	return filepath.Join(srv.DataDir, "repos", strings.ToLower(owner), strings.ToLower(name)+".git")
}

// gitRun runs the git CLI in dir with a clean configuration and returns its output.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return gitRunWith(t, dir, []string{"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com"}, args...)
}

// aliceGitEnv makes alice (alice@example.com, the address of her account)
// author and committer.
var aliceGitEnv = []string{"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com",
	"GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=alice@example.com"}

// gitRunWith runs the git CLI in dir with a clean configuration and env
// added to the process's environment, and returns its output.
func gitRunWith(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// cloneRepo clones owner/name's bare directory by file path into a temporary
// directory and returns the work tree.
func cloneRepo(t *testing.T, srv *testserver.Server, owner, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	gitRun(t, t.TempDir(), "clone", "-q", repoDir(srv, owner, name), dst)
	return dst
}
