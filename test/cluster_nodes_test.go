package test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// clusterNodes starts two servers on one Postgres database and one data
// directory, as two nodes behind a load balancer, which may deliver
// webhooks to loopback.
func clusterNodes(t *testing.T) (a, b *testserver.Server) {
	t.Helper()
	dir := t.TempDir()
	settings := testserver.WithSettings(func(s *site.Settings) {
		s.AllowedHosts = "loopback"
		s.WebhookRetryDelay = 50 * time.Millisecond
	})
	a = testserver.Start(t, testserver.OnPostgres(), testserver.WithDataDir(dir), settings)
	b = testserver.Start(t, testserver.JoinPostgres(a.DSN), testserver.WithDataDir(dir), settings)
	return a, b
}

// clusterWithin polls cond until it holds and returns how long that took;
// it fails the test past limit. The limits below are well under the
// caches' own lifetimes (ten seconds for tokens, none for protection
// rules), so a pass shows the change reached the other node's cache.
func clusterWithin(t *testing.T, limit time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not seen within %s", what, limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// TestClusterTokenDeletedOnOneNode deletes a token through node A that
// node B has just answered with (so B caches it): B refuses it as soon as
// the drop reaches it, long before the cache entry's ten seconds are up.
func TestClusterTokenDeletedOnOneNode(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a, b := clusterNodes(t)
	_, ann := newAccount(t, a, "ann", gitea.VisibleTypePublic)
	tok, _, err := ann.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "ci", Scopes: []gitea.AccessTokenScope{"read:user"}})
	is.NoErr(err)
	header := []string{"Authorization", "token " + tok.Token}
	is.Equal(b.Do(http.MethodGet, "/user", nil, header...).Status, http.StatusOK) // cached on B now
	is.Equal(b.Do(http.MethodGet, "/user", nil, header...).Status, http.StatusOK)

	_, err = ann.DeleteAccessToken(tok.ID)
	is.NoErr(err)
	took := clusterWithin(t, 5*time.Second, "token deleted on A refused by B", func() bool {
		return b.Do(http.MethodGet, "/user", nil, header...).Status == http.StatusUnauthorized
	})
	t.Logf("node B refused the token %s after node A deleted it", took.Round(time.Millisecond))

	// A user disabled on A loses every token on B too.
	tok2, _, err := ann.CreateAccessToken(gitea.CreateAccessTokenOption{Name: "ci2", Scopes: []gitea.AccessTokenScope{"read:user"}})
	is.NoErr(err)
	header = []string{"Authorization", "token " + tok2.Token}
	is.Equal(b.Do(http.MethodGet, "/user", nil, header...).Status, http.StatusOK)
	no := false
	_, err = a.AdminClient().AdminEditUser("ann", gitea.EditUserOption{LoginName: "ann", Active: &no})
	is.NoErr(err)
	clusterWithin(t, 5*time.Second, "user disabled on A refused by B", func() bool {
		return b.Do(http.MethodGet, "/user", nil, header...).Status != http.StatusOK
	})
}

// TestClusterBranchProtectionOnOneNode protects a branch through node A
// after node B has read (and cached) its rules: B refuses writes to it,
// through the API and through git, as soon as the drop reaches it.
func TestClusterBranchProtectionOnOneNode(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a, b := clusterNodes(t)
	_, alice := newAccount(t, a, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	aliceB := b.Client(gitea.SetBasicAuth("alice", userPassword))
	write := func(name string) (*gitea.Response, error) {
		_, resp, err := aliceB.CreateFile("alice", "repo", name, gitea.CreateFileOptions{
			FileOptions: gitea.FileOptions{BranchName: "main", Message: "add " + name}, Content: "aGk="})
		return resp, err
	}
	_, err := write("before.txt") // B reads main's rules: none
	is.NoErr(err)

	_, _, err = alice.CreateBranchProtection("alice", "repo", gitea.CreateBranchProtectionOption{RuleName: "main"})
	is.NoErr(err)
	n := 0
	took := clusterWithin(t, 5*time.Second, "protection made on A enforced by B", func() bool {
		n++
		resp, err := write("during-" + strings.Repeat("x", n) + ".txt")
		return err != nil && resp != nil && resp.StatusCode == http.StatusForbidden
	})
	t.Logf("node B enforced the rule %s after node A made it", took.Round(time.Millisecond))

	clone := httpGitClone(t, httpGitURL(b, "alice", "repo", "alice", userPassword))
	httpGitCommit(t, clone, "pushed.txt", "x\n", "push to a protected branch")
	out := httpGitFails(t, clone, "push", "origin", "main")
	is.True(strings.Contains(out, "protected"))
}

// TestClusterAlternatingPushes pushes to one repository through node A and
// node B in turn: every push lands on top of the one before (git's own ref
// locks on the shared volume order them), both nodes answer the same
// branch head, the repository checks clean, and each push's webhook is
// delivered once although both nodes run the job queue.
func TestClusterAlternatingPushes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a, b := clusterNodes(t)
	_, alice := newAccount(t, a, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "repo", AutoInit: true, Readme: "Default"})
	rec := deliveryNewReceiver(t, nil)
	deliveryHook(t, alice, rec.URL+"/push", []string{"push"})

	clone := httpGitClone(t, httpGitURL(a, "alice", "repo", "alice", userPassword))
	nodes := []*testserver.Server{a, b}
	const pushes = 6
	var last string
	for i := range pushes {
		node := nodes[i%2]
		last = httpGitCommit(t, clone, "f.txt", strings.Repeat("line\n", i+1), "push "+string(rune('a'+i)))
		httpGitOK(t, clone, "push", "-q", httpGitURL(node, "alice", "repo", "alice", userPassword), "main")
	}
	for _, node := range nodes {
		br, _, err := node.Client(gitea.SetBasicAuth("alice", userPassword)).GetRepoBranch("alice", "repo", "main")
		is.NoErr(err)
		is.Equal(br.Commit.ID, last)
	}
	gitRun(t, repoDir(a, "alice", "repo"), "fsck", "--strict", "--no-progress")

	got := rec.wait(t, "/push", pushes)
	time.Sleep(300 * time.Millisecond) // a second delivery of any push would arrive by now
	is.Equal(len(rec.requests("/push")), len(got))
	seen := map[string]bool{}
	for _, r := range got {
		p := deliveryDecode[deliveryPush](t, r.Body)
		is.True(!seen[p.After]) // each push once
		seen[p.After] = true
	}
}
