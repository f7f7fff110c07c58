package test

import (
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// waitPullChecked polls a pull request until its background check has
// run (mergeable_state is no longer "checking") and returns it.
func waitPullChecked(t *testing.T, srv *testserver.Server, c *gitea.Client, owner, repo string, index int64) *gitea.PullRequest {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var raw struct {
			State string `json:"mergeable_state"`
		}
		resp := srv.Do("GET", "/repos/"+owner+"/"+repo+"/pulls/"+itoaTest(index), nil)
		if resp.Status != 200 {
			t.Fatalf("get %s/%s#%d: %d %s", owner, repo, index, resp.Status, resp.Body)
		}
		resp.Decode(t, &raw)
		if raw.State != "checking" {
			pr, _, err := c.GetPullRequest(owner, repo, index)
			if err != nil {
				t.Fatalf("get pull request: %v", err)
			}
			return pr
		}
		if time.Now().After(deadline) {
			t.Fatalf("pull request %s/%s#%d still checking", owner, repo, index)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func itoaTest(n int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// TestPullLifecycle opens a pull request from a branch, waits for its
// check, merges it, and checks the merge commit with git.
func TestPullLifecycle(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, c := srv.CreateUser("alice", "password-123")
	pushedRepo(t, srv, c, gitea.CreateRepoOption{Name: "app"}, func(w string) {
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		gitRun(t, w, "commit", "-q", "--allow-empty", "-m", "feature work")
	}, "feature")
	pr, _, err := c.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Add feature"})
	is.NoErr(err)
	is.Equal(pr.Index, int64(1))
	is.Equal(pr.Head.Ref, "feature")
	is.Equal(pr.Base.Ref, "main")
	pr = waitPullChecked(t, srv, c, "alice", "app", 1)
	is.True(pr.Mergeable)
	list, _, err := c.ListRepoPullRequests("alice", "app", gitea.ListPullRequestsOptions{})
	is.NoErr(err)
	is.Equal(len(list), 1)
	_, _, err = c.MergePullRequest("alice", "app", 1, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
	is.NoErr(err)
	merged, _, err := c.IsPullRequestMerged("alice", "app", 1)
	is.NoErr(err)
	is.True(merged)
	w := cloneRepo(t, srv, "alice", "app")
	parents := strings.Fields(gitRun(t, w, "rev-list", "--parents", "-n1", "main"))
	is.Equal(len(parents), 3)
	is.Equal(strings.TrimSpace(gitRun(t, w, "log", "-1", "--format=%s", "main")), "Merge pull request 'Add feature' (#1) from feature into main")
}
