package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// gitCommitFile writes a file in the work tree w and commits it.
func gitCommitFile(t *testing.T, w, file, content, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, w, "add", file)
	gitRun(t, w, "commit", "-q", "-m", msg)
}

// bareRev is what rev names in the server's copy of owner/name.
func bareRev(t *testing.T, srv *testserver.Server, owner, name, rev string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, repoDir(srv, owner, name), "rev-parse", rev))
}

// bareLog formats commit rev of owner/name with git log's format.
func bareLog(t *testing.T, srv *testserver.Server, owner, name, format, rev string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, repoDir(srv, owner, name), "log", "-1", "--format="+format, rev))
}

// updatePull posts R/pulls/{index}/update as user.
func updatePull(srv *testserver.Server, owner, repo string, index int64, style, user string) testserver.Response {
	path := "/repos/" + owner + "/" + repo + "/pulls/" + itoaTest(index) + "/update"
	if style != "" {
		path += "?style=" + style
	}
	return srv.Do("POST", path, nil, "Authorization", testserver.Basic(user, userPassword))
}

// divergedPull makes alice/app whose feature branch (one commit on
// feature.txt, or on shared.txt when conflict) and main (one commit on
// main.txt, or on shared.txt) diverged, opens feature into main as #1,
// and returns the clone.
func divergedPull(t *testing.T, srv *testserver.Server, alice *gitea.Client, conflict bool) string {
	t.Helper()
	featureFile, mainFile := "feature.txt", "main.txt"
	if conflict {
		featureFile, mainFile = "shared.txt", "shared.txt"
	}
	w := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "app"}, func(w string) {
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		gitCommitFile(t, w, featureFile, "feature side\n", "feature work")
		gitRun(t, w, "checkout", "-q", "main")
		gitCommitFile(t, w, mainFile, "main side\n", "main work")
	}, "main", "feature")
	if _, _, err := alice.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Feature"}); err != nil {
		t.Fatalf("create pull request: %v", err)
	}
	return w
}

// waitPullHead polls a pull request until its head sha is want.
func waitPullHead(t *testing.T, c *gitea.Client, owner, repo string, index int64, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		pr, _, err := c.GetPullRequest(owner, repo, index)
		if err != nil {
			t.Fatalf("get pull request: %v", err)
		}
		if pr.Head != nil && pr.Head.Sha == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pull request %s/%s#%d head is %s, want %s", owner, repo, index, pr.Head.Sha, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPullRef waits until refs/pull/<index>/head of owner/repo names want:
// a push records the new head at once, and the queued check moves the ref.
func waitPullRef(t *testing.T, srv *testserver.Server, owner, repo string, index int64, want string) {
	t.Helper()
	ref := "refs/pull/" + strconv.FormatInt(index, 10) + "/head"
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := bareRev(t, srv, owner, repo, ref)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s of %s/%s is %s, want %s", ref, owner, repo, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPullUpdateMerge updates a same-repository pull request by merge:
// git's merge of the base into the head, Gitea's message, the doer as
// author and committer, and the pull request's head follows.
func TestPullUpdateMerge(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	w := divergedPull(t, srv, alice, false)
	oldHead := bareRev(t, srv, "alice", "app", "feature")
	base := bareRev(t, srv, "alice", "app", "main")

	resp := updatePull(srv, "alice", "app", 1, "merge", "alice")
	is.Equal(resp.Status, http.StatusOK)

	tip := bareRev(t, srv, "alice", "app", "feature")
	is.Equal(bareLog(t, srv, "alice", "app", "%P", tip), oldHead+" "+base)
	is.Equal(bareLog(t, srv, "alice", "app", "%B", tip), "Merge branch 'main' into feature")
	is.Equal(bareLog(t, srv, "alice", "app", "%an|%ae|%cn|%ce", tip), "alice|alice@example.com|alice|alice@example.com")
	// git's own merge of the same commits has the same tree.
	gitRun(t, w, "checkout", "-q", "--detach", oldHead)
	gitRun(t, w, "merge", "-q", "--no-edit", base)
	is.Equal(bareRev(t, srv, "alice", "app", tip+"^{tree}"), strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD^{tree}")))
	is.Equal(bareRev(t, srv, "alice", "app", "main"), base) // the base did not move

	// The move is a push: the queued check brings the pull request's head along.
	waitPullHead(t, alice, "alice", "app", 1, tip)
	waitPullRef(t, srv, "alice", "app", 1, tip)

	// Up to date already: nothing moves.
	resp = updatePull(srv, "alice", "app", 1, "", "alice")
	is.Equal(resp.Status, http.StatusOK)
	is.Equal(bareRev(t, srv, "alice", "app", "feature"), tip)
}

// TestPullUpdateRebase updates by rebase: the head's commits replayed on
// the base as git rebase does, linear, authors kept, the doer committing.
func TestPullUpdateRebase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	w := divergedPull(t, srv, alice, false)
	oldHead := bareRev(t, srv, "alice", "app", "feature")
	base := bareRev(t, srv, "alice", "app", "main")

	resp := updatePull(srv, "alice", "app", 1, "rebase", "alice")
	is.Equal(resp.Status, http.StatusOK)

	tip := bareRev(t, srv, "alice", "app", "feature")
	is.True(tip != oldHead)
	is.Equal(bareLog(t, srv, "alice", "app", "%P", tip), base) // linear, on the base
	is.Equal(bareLog(t, srv, "alice", "app", "%B", tip), "feature work")
	is.Equal(bareLog(t, srv, "alice", "app", "%an|%ae", tip), "test|test@example.com")
	is.Equal(bareLog(t, srv, "alice", "app", "%cn|%ce", tip), "alice|alice@example.com")
	gitRun(t, w, "checkout", "-q", "-b", "oracle", oldHead)
	gitRun(t, w, "rebase", "-q", base)
	is.Equal(bareRev(t, srv, "alice", "app", tip+"^{tree}"), strings.TrimSpace(gitRun(t, w, "rev-parse", "HEAD^{tree}")))
	waitPullHead(t, alice, "alice", "app", 1, tip)

	// A repository that forbids rebase updates refuses them (403).
	resp = srv.Do("PATCH", "/repos/alice/app", map[string]any{"allow_rebase_update": false},
		"Authorization", testserver.Basic("alice", userPassword))
	is.Equal(resp.Status, http.StatusOK)
	gitCommitFile(t, w, "later.txt", "later\n", "later main work")
	gitRun(t, w, "push", "-q", repoDir(srv, "alice", "app"), "HEAD:main")
	resp = updatePull(srv, "alice", "app", 1, "rebase", "alice")
	is.Equal(resp.Status, http.StatusForbidden)
	is.Equal(bareRev(t, srv, "alice", "app", "feature"), tip)
}

// TestPullUpdateRefused covers the refusals: a bad style (400), a reader
// (403), conflicts (409, nothing moves), closed and merged (422).
func TestPullUpdateRefused(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "rita", gitea.VisibleTypePublic)
	divergedPull(t, srv, alice, true)
	read := gitea.AccessModeRead
	_, err := alice.AddCollaborator("alice", "app", "rita", gitea.AddCollaboratorOption{Permission: &read})
	is.NoErr(err)
	head := bareRev(t, srv, "alice", "app", "feature")

	resp := updatePull(srv, "alice", "app", 1, "squash", "alice")
	is.Equal(resp.Status, http.StatusBadRequest)
	resp = updatePull(srv, "alice", "app", 1, "merge", "rita")
	is.Equal(resp.Status, http.StatusForbidden)
	resp = updatePull(srv, "alice", "app", 9, "merge", "alice")
	is.Equal(resp.Status, http.StatusNotFound)
	resp = srv.Do("POST", "/repos/alice/app/pulls/1/update", nil)
	is.Equal(resp.Status, http.StatusUnauthorized)

	resp = updatePull(srv, "alice", "app", 1, "merge", "alice")
	is.Equal(resp.Status, http.StatusConflict)
	is.Equal(resp.Message(), "merge failed because of conflict")
	resp = updatePull(srv, "alice", "app", 1, "rebase", "alice")
	is.Equal(resp.Status, http.StatusConflict)
	is.Equal(resp.Message(), "rebase failed because of conflict")
	is.Equal(bareRev(t, srv, "alice", "app", "feature"), head)

	closed := gitea.StateClosed
	_, _, err = alice.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{State: &closed})
	is.NoErr(err)
	resp = updatePull(srv, "alice", "app", 1, "merge", "alice")
	is.Equal(resp.Status, http.StatusUnprocessableEntity)

	// A merged pull request.
	w := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "done"}, func(w string) {
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		gitCommitFile(t, w, "f.txt", "f\n", "feature work")
	}, "feature")
	_, _, err = alice.CreatePullRequest("alice", "done", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Done"})
	is.NoErr(err)
	deadline := time.Now().Add(20 * time.Second)
	for {
		pr, _, err := alice.GetPullRequest("alice", "done", 1)
		is.NoErr(err)
		if pr.Mergeable || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	resp = srv.Do("POST", "/repos/alice/done/pulls/1/merge", map[string]string{"Do": "merge"},
		"Authorization", testserver.Basic("alice", userPassword))
	is.Equal(resp.Status, http.StatusOK)
	gitCommitFile(t, w, "g.txt", "g\n", "more")
	resp = updatePull(srv, "alice", "done", 1, "merge", "alice")
	is.Equal(resp.Status, http.StatusUnprocessableEntity)
}

// TestPullUpdateFork updates a pull request from a fork: the head's writer
// may, the base's writer only once the poster allows maintainer edits; the
// merge commit lands in the fork. On Postgres.
func TestPullUpdateFork(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.OnPostgres())
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	aw := pushedRepo(t, srv, alice, gitea.CreateRepoOption{Name: "app"}, func(string) {}, "main")
	_, _, err := bob.CreateFork("alice", "app", gitea.CreateForkOption{})
	is.NoErr(err)
	bw := cloneRepo(t, srv, "bob", "app")
	gitRun(t, bw, "checkout", "-q", "-b", "feature")
	gitCommitFile(t, bw, "feature.txt", "bob's work\n", "feature work")
	gitRun(t, bw, "push", "-q", repoDir(srv, "bob", "app"), "feature")
	_, _, err = bob.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "bob:feature", Base: "main", Title: "From bob"})
	is.NoErr(err)
	gitCommitFile(t, aw, "main.txt", "alice's work\n", "main work")
	gitRun(t, aw, "push", "-q", repoDir(srv, "alice", "app"), "main")
	base := bareRev(t, srv, "alice", "app", "main")
	oldHead := bareRev(t, srv, "bob", "app", "feature")

	// The head's writer updates by merge; the base's objects come along.
	resp := updatePull(srv, "alice", "app", 1, "merge", "bob")
	is.Equal(resp.Status, http.StatusOK)
	tip := bareRev(t, srv, "bob", "app", "feature")
	is.Equal(bareLog(t, srv, "bob", "app", "%P", tip), oldHead+" "+base)
	is.Equal(bareLog(t, srv, "bob", "app", "%B", tip), "Merge branch 'main' into feature")
	is.Equal(bareLog(t, srv, "bob", "app", "%an|%cn", tip), "bob|bob")
	gitRun(t, repoDir(srv, "bob", "app"), "fsck", "--strict", "--no-progress")
	waitPullHead(t, alice, "alice", "app", 1, tip)

	// The base's writer may not touch bob's branch until bob allows it.
	gitCommitFile(t, aw, "more.txt", "more\n", "more main work")
	gitRun(t, aw, "push", "-q", repoDir(srv, "alice", "app"), "main")
	base = bareRev(t, srv, "alice", "app", "main")
	resp = updatePull(srv, "alice", "app", 1, "rebase", "alice")
	is.Equal(resp.Status, http.StatusForbidden)
	is.Equal(bareRev(t, srv, "bob", "app", "feature"), tip)
	yes := true
	_, _, err = bob.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{AllowMaintainerEdit: &yes})
	is.NoErr(err)
	resp = updatePull(srv, "alice", "app", 1, "rebase", "alice")
	is.Equal(resp.Status, http.StatusOK)
	rebased := bareRev(t, srv, "bob", "app", "feature")
	// Rebasing drops the earlier merge: bob's one commit on alice's main.
	is.Equal(bareLog(t, srv, "bob", "app", "%P", rebased), base)
	is.Equal(bareLog(t, srv, "bob", "app", "%s|%an|%cn", rebased), "feature work|test|alice")
	is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "app"), "rev-list", "--count", base+".."+rebased)), "1")
	waitPullHead(t, alice, "alice", "app", 1, rebased)
}

// TestPullUpdateRace sends updates of one pull request at once: the head
// moves once, by compare-and-swap; the others find it moved (409) or up
// to date (200), and no update is lost or doubled.
func TestPullUpdateRace(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	w := divergedPull(t, srv, alice, false)
	sawConflict := false
	for round := 0; round < 5 && !sawConflict; round++ {
		oldHead := bareRev(t, srv, "alice", "app", "feature")
		gitCommitFile(t, w, "round.txt", "round "+itoaTest(int64(round))+"\n", "main round")
		gitRun(t, w, "push", "-q", repoDir(srv, "alice", "app"), "HEAD:main")
		base := bareRev(t, srv, "alice", "app", "main")
		const n = 6
		answers := make([]testserver.Response, n)
		var wg sync.WaitGroup
		for k := 0; k < n; k++ {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				answers[k] = updatePull(srv, "alice", "app", 1, "merge", "alice")
			}(k)
		}
		wg.Wait()
		ok := 0
		for _, a := range answers {
			switch a.Status {
			case http.StatusOK:
				ok++
			case http.StatusConflict:
				sawConflict = true
				is.Equal(a.Message(), "the head branch moved during the update; try again")
			default:
				t.Fatalf("update answered %d: %s", a.Status, a.Body)
			}
		}
		is.True(ok >= 1)
		tip := bareRev(t, srv, "alice", "app", "feature")
		is.Equal(bareLog(t, srv, "alice", "app", "%P", tip), oldHead+" "+base) // one merge, on the old head
	}
	if !sawConflict {
		t.Log("no update lost the compare-and-swap in 5 rounds; the CAS path is covered by app/pulls' TestSyncBranchHeadMoved")
	}
}
