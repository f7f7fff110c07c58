package test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pullForkPush clones owner/name over HTTP as who, commits file on branch
// (made from the default branch when new) and pushes it over HTTP so that
// the push hooks run; it returns the clone and the new commit.
func pullForkPush(t *testing.T, srv *testserver.Server, dir, owner, name, who, branch, file string) (string, string) {
	t.Helper()
	if dir == "" {
		dir = httpGitClone(t, httpGitURL(srv, owner, name, who, userPassword))
		httpGitOK(t, dir, "checkout", "-q", "-b", branch)
	}
	sha := httpGitCommit(t, dir, file, file+" by "+who+"\n", "add "+file)
	httpGitOK(t, dir, "push", "-q", "origin", branch)
	return dir, sha
}

// pullWaitHead polls owner/repo#index as header's caller until its head
// sha is sha, and returns it.
func pullWaitHead(t *testing.T, srv *testserver.Server, owner, repo string, index int64, sha string, header ...string) *gitea.PullRequest {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var pr gitea.PullRequest
		r := srv.Do("GET", "/repos/"+owner+"/"+repo+"/pulls/"+strconv.FormatInt(index, 10), nil, header...)
		if r.Status != http.StatusOK {
			t.Fatalf("get %s/%s#%d: %d %s", owner, repo, index, r.Status, r.Body)
		}
		r.Decode(t, &pr)
		if pr.Head != nil && pr.Head.Sha == sha {
			return &pr
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/%s#%d: head %v, want %s", owner, repo, index, pr.Head, sha)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPullForks opens pull requests from forks: a public one (its pushes
// follow the pull request), a private one (its head hidden from those who
// cannot read it), and one whose owner loses access to the private base.
func TestPullForks(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	_, daveC := newAccount(t, srv, "dave", gitea.VisibleTypePublic)
	newAccount(t, srv, "erin", gitea.VisibleTypePublic)
	pullsRepo(t, srv, aliceC, "app", false)

	t.Run("public fork", func(t *testing.T) {
		is := is.New(t)
		_, _, err := bobC.CreateFork("alice", "app", gitea.CreateForkOption{})
		is.NoErr(err)
		dir, sha := pullForkPush(t, srv, "", "bob", "app", "bob", "fix", "fix.txt")
		pr, resp, err := bobC.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "bob:fix", Base: "main", Title: "Fix"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(pr.Head.Ref, "fix")
		is.Equal(pr.Head.Sha, sha)
		is.Equal(pr.Head.Repository.FullName, "bob/app")
		is.Equal(pr.Base.Repository.FullName, "alice/app")
		is.True(pr.Head.RepoID != pr.Base.RepoID)
		is.Equal(bareRev(t, srv, "alice", "app", "refs/pull/"+strconv.FormatInt(pr.Index, 10)+"/head"), sha)
		// The fork's commit is in the base repository now.
		is.Equal(gitRun(t, repoDir(srv, "alice", "app"), "cat-file", "-t", sha), "commit\n")
		pr = pullsWait(t, srv, "alice", "app", pr.Index)
		is.True(pr.Mergeable)
		byPair, _, err := aliceC.GetPullRequestByBaseHead("alice", "app", "main", "bob:fix")
		is.NoErr(err)
		is.Equal(byPair.Index, pr.Index)
		// The same head named from the base itself is no pull request.
		is.Equal(srv.Do("GET", "/repos/alice/app/pulls/main/fix", nil).Status, http.StatusNotFound)

		// A push to the fork's branch moves the pull request.
		_, next := pullForkPush(t, srv, dir, "bob", "app", "bob", "fix", "more.txt")
		pr = pullWaitHead(t, srv, "alice", "app", pr.Index, next)
		waitPullRef(t, srv, "alice", "app", pr.Index, next)
		pr = pullsWait(t, srv, "alice", "app", pr.Index)
		is.True(pr.Mergeable)
		// A second pull request from the same pair is refused.
		blockWant(t, srv, "POST", "/repos/alice/app/pulls", map[string]any{"head": "bob:fix", "base": "main", "title": "again"},
			http.StatusConflict, "", basicAs("bob")...)
	})

	t.Run("private fork", func(t *testing.T) {
		is := is.New(t)
		_, _, err := carolC.CreateFork("alice", "app", gitea.CreateForkOption{})
		is.NoErr(err)
		yes := true
		_, _, err = carolC.EditRepo("carol", "app", gitea.EditRepoOption{Private: &yes})
		is.NoErr(err)
		_, sha := pullForkPush(t, srv, "", "carol", "app", "carol", "secret", "secret.txt")
		pr, _, err := carolC.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "carol:secret", Base: "main", Title: "Secret"})
		is.NoErr(err)
		is.Equal(pr.Head.Repository.FullName, "carol/app") // carol reads her fork
		for _, who := range [][]string{basicAs("alice"), basicAs("erin"), nil} {
			got := pullsWait(t, srv, "alice", "app", pr.Index, who...)
			is.Equal(got.Head.Sha, sha)
			is.Equal(got.Head.Ref, "secret")
			is.True(got.Head.Repository == nil) // the private fork is not shown
		}
		is.Equal(bareRev(t, srv, "alice", "app", "refs/pull/"+strconv.FormatInt(pr.Index, 10)+"/head"), sha)
		// In a list too.
		var list []*gitea.PullRequest
		blockWant(t, srv, "GET", "/repos/alice/app/pulls", nil, http.StatusOK, "", basicAs("erin")...).Decode(t, &list)
		for _, p := range list {
			if p.Index == pr.Index {
				is.True(p.Head.Repository == nil)
			}
		}
		// Someone who cannot read the fork cannot open from it.
		_, _, err = daveC.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "carol:secret", Base: "main", Title: "x"})
		is.True(err != nil)
	})

	t.Run("fork owner loses access to the private base", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "priv", Private: true, AutoInit: true})
		read := gitea.AccessModeRead
		_, err := aliceC.AddCollaborator("alice", "priv", "dave", gitea.AddCollaboratorOption{Permission: &read})
		is.NoErr(err)
		fork, _, err := daveC.CreateFork("alice", "priv", gitea.CreateForkOption{})
		is.NoErr(err)
		is.True(fork.Private)
		dir, sha := pullForkPush(t, srv, "", "dave", "priv", "dave", "idea", "idea.txt")
		pr, _, err := daveC.CreatePullRequest("alice", "priv", gitea.CreatePullRequestOption{Head: "dave:idea", Base: "main", Title: "Idea"})
		is.NoErr(err)
		is.Equal(pr.Head.Sha, sha)
		// alice does not read dave's private fork.
		got := pullsWait(t, srv, "alice", "priv", pr.Index, basicAs("alice")...)
		is.True(got.Head.Repository == nil)

		_, err = aliceC.DeleteCollaborator("alice", "priv", "dave")
		is.NoErr(err)
		path := "/repos/alice/priv/pulls/" + strconv.FormatInt(pr.Index, 10)
		is.Equal(srv.Do("GET", path, nil, basicAs("dave")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PATCH", path, map[string]any{"title": "mine"}, basicAs("dave")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("POST", "/repos/alice/priv/pulls", map[string]any{"head": "dave:idea", "base": "main", "title": "again"},
			basicAs("dave")...).Status, http.StatusNotFound)
		// The pull request stays for alice, and still follows the fork.
		_, next := pullForkPush(t, srv, dir, "dave", "priv", "dave", "idea", "idea2.txt")
		got = pullWaitHead(t, srv, "alice", "priv", pr.Index, next, basicAs("alice")...)
		is.Equal(got.Title, "Idea")
		is.Equal(got.State, gitea.StateOpen)
		waitPullRef(t, srv, "alice", "priv", pr.Index, next)
	})
}
