package test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/adapters/githttp"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/test/testserver"
)

// benchGit runs git in dir and fails the benchmark when it fails.
func benchGit(b *testing.B, dir string, args ...string) string {
	b.Helper()
	out, err := httpGitCmd(dir, args...)
	if err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(out)
}

// BenchmarkPreReceiveProtection times the pre-receive check of one
// fast-forward ref update, the way git's hook calls the running server
// (githttp.RunHook over loopback), on a branch no rule protects and on one
// whose rule (cached after the first call) allows the push but has a
// protected file pattern, so the check reads the push's changed files and
// the pusher's permission. Issue 21's target: protected costs < 5 ms more.
func BenchmarkPreReceiveProtection(b *testing.B) {
	srv := testserver.Start(b)
	alice, c := srv.CreateUser("alice", userPassword)
	repo, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "bench", AutoInit: true, Readme: "Default"})
	if err != nil {
		b.Fatal(err)
	}
	work := filepath.Join(b.TempDir(), "clone")
	benchGit(b, b.TempDir(), "clone", "-q", httpGitURL(srv, "alice", "bench", "alice", userPassword), work)
	from := benchGit(b, work, "rev-parse", "HEAD")
	for i := range 20 {
		name := filepath.Join(work, "file"+itoaTest(int64(i))+".txt")
		if err := os.WriteFile(name, []byte(strings.Repeat("line\n", i+1)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchGit(b, work, "add", ".")
	benchGit(b, work, "commit", "-q", "-m", "twenty files")
	to := benchGit(b, work, "rev-parse", "HEAD")
	// The new commit is in the repository; main and free still point at
	// the old one, so each update is the fast-forward from -> to.
	benchGit(b, work, "push", "-q", "origin", "HEAD:refs/heads/src", from+":refs/heads/free")
	if _, _, err := c.CreateBranchProtection("alice", "bench", gitea.CreateBranchProtectionOption{RuleName: "main",
		EnablePush: true, ProtectedFilePatterns: "*.secret", EnableStatusCheck: true,
		StatusCheckContexts: []string{"ci"}}); err != nil {
		b.Fatal(err)
	}
	cmd, err := srv.App.GitRunner.Command(context.Background(), githttp.Invocation{
		Service: repository.ServiceReceivePack, Dir: work, RepoID: repo.ID, PusherID: alice.ID})
	if err != nil {
		b.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range cmd.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	getenv := func(k string) string { return env[k] }
	for _, branch := range []string{"free", "main"} {
		name := map[string]string{"free": "unprotected", "main": "protected"}[branch]
		b.Run(name, func(b *testing.B) {
			line := from + " " + to + " refs/heads/" + branch + "\n"
			for b.Loop() {
				if err := githttp.RunHook(context.Background(), "pre-receive", getenv, strings.NewReader(line)); err != nil {
					b.Fatalf("pre-receive refused: %v", err)
				}
			}
		})
	}
}
