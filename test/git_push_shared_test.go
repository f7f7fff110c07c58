package test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// The push scenarios Git over HTTP (git_http_test.go) and over SSH
// (git_ssh_test.go) both run: the same pushes must land the same way
// whichever transport carries them.

// httpGitRunner runs git in dir and returns its combined output and error:
// httpGitCmd over HTTP, sshGitRunner's over SSH with a key.
type httpGitRunner func(dir string, args ...string) (string, error)

// OK runs git and fails the test when it fails.
func (run httpGitRunner) OK(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := run(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Fails runs git, fails the test when git succeeds, and returns its output.
func (run httpGitRunner) Fails(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := run(dir, args...)
	if err == nil {
		t.Fatalf("git %s succeeded, want a failure\n%s", strings.Join(args, " "), out)
	}
	return out
}

// httpGitRemote is one repository on the server as a transport reaches it:
// the push scenarios Git over HTTP and over SSH share run against it.
type httpGitRemote struct {
	srv         *testserver.Server
	owner, name string
	run         httpGitRunner
	// clone makes a new clone with push rights whose origin is the remote.
	clone func(t *testing.T) string
}

// ref is the id ref has on the server, "" when absent.
func (r httpGitRemote) ref(t *testing.T, ref string) string {
	t.Helper()
	return httpGitRef(t, r.srv, r.owner, r.name, ref)
}

// pushNewBranch commits on a new branch feature in work and pushes it; the
// API sees it. It answers the commit.
func (r httpGitRemote) pushNewBranch(t *testing.T, api *gitea.Client, work string) string {
	t.Helper()
	is := is.New(t)
	httpGitOK(t, work, "checkout", "-q", "-b", "feature")
	id := httpGitCommit(t, work, "f.txt", "f\n", "feature")
	r.run.OK(t, work, "push", "-q", "origin", "feature")
	is.Equal(r.ref(t, "refs/heads/feature"), id)
	b, _, err := api.GetRepoBranch(r.owner, r.name, "feature")
	is.NoErr(err)
	is.Equal(b.Commit.ID, id) // the API sees it
	return id
}

// forcePush rewrites feature in work: refused as a plain push, taken forced.
func (r httpGitRemote) forcePush(t *testing.T, work string) {
	t.Helper()
	is := is.New(t)
	httpGitOK(t, work, "checkout", "-q", "feature")
	httpGitOK(t, work, "reset", "-q", "--hard", "HEAD~1")
	id := httpGitCommit(t, work, "g.txt", "g\n", "rewritten")
	out := r.run.Fails(t, work, "push", "origin", "feature")
	is.True(strings.Contains(out, "non-fast-forward") || strings.Contains(out, "fetch first"))
	r.run.OK(t, work, "push", "-q", "--force", "origin", "feature")
	is.Equal(r.ref(t, "refs/heads/feature"), id)
}

// pushTags pushes a light and an annotated tag, then deletes one.
func (r httpGitRemote) pushTags(t *testing.T, work string) {
	t.Helper()
	is := is.New(t)
	httpGitOK(t, work, "tag", "v1.0")
	httpGitOK(t, work, "tag", "-a", "-m", "annotated", "v1.1")
	r.run.OK(t, work, "push", "-q", "origin", "--tags")
	is.True(r.ref(t, "refs/tags/v1.0") != "")
	is.True(r.ref(t, "refs/tags/v1.1") != "")
	r.run.OK(t, work, "push", "-q", "origin", ":refs/tags/v1.0")
	is.Equal(r.ref(t, "refs/tags/v1.0"), "")
}

// pushConcurrently pushes n clones to n new branches at once; every push lands.
func (r httpGitRemote) pushConcurrently(t *testing.T, n int) {
	t.Helper()
	is := is.New(t)
	ids := make([]string, n)
	dirs := make([]string, n)
	for i := range n {
		dirs[i] = r.clone(t)
		ids[i] = httpGitCommit(t, dirs[i], fmt.Sprintf("c%d.txt", i), "c\n", "concurrent")
	}
	var wg sync.WaitGroup
	failures := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := r.run(dirs[i], "push", "-q", "origin", fmt.Sprintf("HEAD:refs/heads/c%d", i))
			if err != nil {
				failures[i] = fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for i := range n {
		is.NoErr(failures[i])
		is.Equal(r.ref(t, fmt.Sprintf("refs/heads/c%d", i)), ids[i]) // every push landed
	}
}

// pushLarge commits size random bytes as big.bin on main in work, pushes
// it, and checks that a new clone gets it back whole.
func (r httpGitRemote) pushLarge(t *testing.T, work string, size int) {
	t.Helper()
	is := is.New(t)
	data := make([]byte, size)
	_, _ = rand.NewChaCha8([32]byte{1}).Read(data)
	httpGitOK(t, work, "checkout", "-q", "main")
	r.run.OK(t, work, "pull", "-q", "--ff-only", "origin", "main")
	is.NoErr(os.WriteFile(filepath.Join(work, "big.bin"), data, 0o644))
	httpGitOK(t, work, "add", "big.bin")
	httpGitOK(t, work, "commit", "-q", "-m", "big")
	id := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	r.run.OK(t, work, "push", "-q", "origin", "main")
	is.Equal(r.ref(t, "refs/heads/main"), id)
	got, err := os.ReadFile(filepath.Join(r.clone(t), "big.bin"))
	is.NoErr(err)
	is.True(bytes.Equal(got, data)) // it comes back whole
}
