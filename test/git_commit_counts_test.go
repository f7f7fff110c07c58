package test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// After a push the service counts the pushed branch's history in the
// background, so the first commit listing finds its total ready; the total
// is git's.
func TestCommitCountsWarmAfterPush(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "r"})
	work := httpGitWork(t, "main")
	for i := range 5 {
		httpGitCommit(t, work, "f.txt", strconv.Itoa(i), "c"+strconv.Itoa(i))
	}
	httpGitOK(t, work, "push", httpGitURL(srv, "alice", "r", "alice", userPassword), "main")
	head := strings.TrimSpace(gitRun(t, work, "rev-parse", "HEAD"))

	countsFile := filepath.Join(repoDir(srv, "alice", "r"), "depot-commit-counts")
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(countsFile)
		if strings.Contains(string(data), head+" 6\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no count for %s after the push; file: %q", head, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
	r := srv.Do("GET", "/repos/alice/r/commits?limit=1", nil, basicAs("alice")...)
	is.Equal(r.Status, 200)
	is.Equal(r.Header.Get("X-Total-Count"), "6") // five commits and the first one
}
