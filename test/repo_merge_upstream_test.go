package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// mergeUpstream posts R/merge-upstream as user.
func mergeUpstream(srv *testserver.Server, owner, repo, user string, body gitea.MergeUpstreamRequest) testserver.Response {
	return srv.Do("POST", "/repos/"+owner+"/"+repo+"/merge-upstream", body, "Authorization", testserver.Basic(user, userPassword))
}

// TestRepoMergeUpstream brings a fork's branch up to date with its parent:
// a fast-forward, nothing when up to date, a refused fast-forward-only,
// a merge commit as git would write it, and the refusals. SQLite and
// Postgres.
func TestRepoMergeUpstream(t *testing.T) {
	t.Parallel()
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		var opts []testserver.Option
		if pg {
			name, opts = "postgres", append(opts, testserver.OnPostgres())
		}
		t.Run(name, func(t *testing.T) { testRepoMergeUpstream(t, opts...) })
	}
}

func testRepoMergeUpstream(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	aw := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "app"}, func(string) {}, "main")
	_, _, err := bob.CreateFork("alice", "app", gitea.CreateForkOption{})
	is.NoErr(err)

	// The parent moves on: the fork fast-forwards, with the SDK's types.
	gitCommitFile(t, aw, "a1.txt", "one\n", "parent work")
	gitRun(t, aw, "push", "-q", repoDir(srv, "alice", "app"), "main")
	got, _, err := bob.MergeUpstream("bob", "app", gitea.MergeUpstreamRequest{Branch: "main"})
	is.NoErr(err)
	is.Equal(got.MergeStyle, "fast-forward")
	is.Equal(bareRev(t, srv, "bob", "app", "main"), bareRev(t, srv, "alice", "app", "main"))
	gitRun(t, repoDir(srv, "bob", "app"), "fsck", "--strict", "--no-progress")

	resp := mergeUpstream(srv, "bob", "app", "bob", gitea.MergeUpstreamRequest{Branch: "main"})
	is.Equal(resp.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(resp.Body)), `{"merge_type":"up-to-date"}`)

	// Both moved: fast-forward-only is refused, a merge is written.
	bw := cloneRepo(t, srv, "bob", "app")
	gitCommitFile(t, bw, "b.txt", "bob\n", "fork work")
	gitRun(t, bw, "push", "-q", repoDir(srv, "bob", "app"), "main")
	gitCommitFile(t, aw, "a2.txt", "two\n", "more parent work")
	gitRun(t, aw, "push", "-q", repoDir(srv, "alice", "app"), "main")
	forkTip := bareRev(t, srv, "bob", "app", "main")
	parentTip := bareRev(t, srv, "alice", "app", "main")

	resp = mergeUpstream(srv, "bob", "app", "bob", gitea.MergeUpstreamRequest{Branch: "main", FfOnly: true})
	is.Equal(resp.Status, http.StatusConflict)
	is.Equal(bareRev(t, srv, "bob", "app", "main"), forkTip)

	resp = mergeUpstream(srv, "bob", "app", "bob", gitea.MergeUpstreamRequest{Branch: "main"})
	is.Equal(resp.Status, http.StatusOK)
	var out gitea.MergeUpstreamResponse
	resp.Decode(t, &out)
	is.Equal(out.MergeStyle, "merge")
	tip := bareRev(t, srv, "bob", "app", "main")
	is.Equal(bareLog(t, srv, "bob", "app", "%P", tip), forkTip+" "+parentTip)
	is.Equal(bareLog(t, srv, "bob", "app", "%s|%an|%cn", tip), "merge upstream|bob|bob")
	gitRun(t, bw, "fetch", "-q", repoDir(srv, "alice", "app"), "main")
	gitRun(t, bw, "merge", "-q", "--no-edit", parentTip)
	is.Equal(bareRev(t, srv, "bob", "app", tip+"^{tree}"), strings.TrimSpace(gitRun(t, bw, "rev-parse", "HEAD^{tree}")))
	is.Equal(bareRev(t, srv, "alice", "app", "main"), parentTip) // the parent did not move

	// Refusals.
	resp = mergeUpstream(srv, "alice", "app", "alice", gitea.MergeUpstreamRequest{Branch: "main"})
	is.Equal(resp.Status, http.StatusBadRequest) // not a fork
	resp = mergeUpstream(srv, "bob", "app", "bob", gitea.MergeUpstreamRequest{Branch: "nope"})
	is.Equal(resp.Status, http.StatusNotFound)
	resp = mergeUpstream(srv, "bob", "app", "carol", gitea.MergeUpstreamRequest{Branch: "main"})
	is.Equal(resp.Status, http.StatusForbidden)
	resp = srv.Do("POST", "/repos/bob/app/merge-upstream", gitea.MergeUpstreamRequest{Branch: "main"})
	is.Equal(resp.Status, http.StatusUnauthorized)
	is.Equal(bareRev(t, srv, "bob", "app", "main"), tip)
}

// TestRepoMergeUpstreamChecksHead: a fork branch that is the head of a
// pull request moves by merge-upstream, and the pull request follows as
// after a push.
func TestRepoMergeUpstreamChecksHead(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	aw := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "app"}, func(w string) {
		gitRun(t, w, "branch", "dev")
	}, "main", "dev")
	_, _, err := bob.CreateFork("alice", "app", gitea.CreateForkOption{})
	is.NoErr(err)
	bw := cloneRepo(t, srv, "bob", "app")
	gitRun(t, bw, "checkout", "-q", "dev")
	gitCommitFile(t, bw, "b.txt", "bob\n", "fork work")
	gitRun(t, bw, "push", "-q", repoDir(srv, "bob", "app"), "dev")
	_, _, err = bob.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "bob:dev", Base: "main", Title: "dev"})
	is.NoErr(err)
	gitRun(t, aw, "checkout", "-q", "dev")
	gitCommitFile(t, aw, "a.txt", "alice\n", "parent dev work")
	gitRun(t, aw, "push", "-q", repoDir(srv, "alice", "app"), "dev")

	got, _, err := bob.MergeUpstream("bob", "app", gitea.MergeUpstreamRequest{Branch: "dev"})
	is.NoErr(err)
	is.Equal(got.MergeStyle, "merge")
	waitPullHead(t, alice, "alice", "app", 1, bareRev(t, srv, "bob", "app", "dev"))
}
