package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pullsBranches are the branches pullsRepo makes, each one commit ahead of
// main writing <branch>.txt with two lines.
var pullsBranches = []string{"feature", "second", "third", "fourth"}

// pullsRepo makes owner's auto-initialised repository name (c is the
// owner's client) with the branches of pullsBranches and "even" (main's tip,
// nothing ahead), pushed straight into the bare directory; it returns the
// clone.
func pullsRepo(t *testing.T, srv *testserver.Server, c *gitea.Client, name string, private bool) string {
	t.Helper()
	refspecs := append([]string{"even"}, pullsBranches...)
	return pushedRepo(t, srv, c, gitea.CreateRepoOption{Name: name, Private: private}, func(w string) {
		gitRun(t, w, "branch", "even")
		for _, b := range pullsBranches {
			gitRun(t, w, "checkout", "-q", "-b", b, "main")
			if err := os.WriteFile(filepath.Join(w, b+".txt"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			gitRun(t, w, "add", b+".txt")
			gitRun(t, w, "commit", "-q", "-m", "add "+b)
		}
		gitRun(t, w, "checkout", "-q", "main")
	}, refspecs...)
}

// pullsRev is what rev resolves to in owner/name's bare repository.
func pullsRev(t *testing.T, srv *testserver.Server, owner, name, rev string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, repoDir(srv, owner, name), "rev-parse", rev))
}

// pullsWait polls owner/repo#index as header's caller until its check has
// run, and returns it.
func pullsWait(t *testing.T, srv *testserver.Server, owner, repo string, index int64, header ...string) *gitea.PullRequest {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var pr struct {
			gitea.PullRequest
			State string `json:"mergeable_state"`
		}
		r := srv.Do("GET", "/repos/"+owner+"/"+repo+"/pulls/"+strconv.FormatInt(index, 10), nil, header...)
		if r.Status != http.StatusOK {
			t.Fatalf("get %s/%s#%d: %d %s", owner, repo, index, r.Status, r.Body)
		}
		r.Decode(t, &pr)
		if pr.State != "checking" {
			return &pr.PullRequest
		}
		if time.Now().After(deadline) {
			t.Fatalf("pull request %s/%s#%d still checking", owner, repo, index)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pullsOpen opens a pull request as header's caller and returns it.
func pullsOpen(t *testing.T, srv *testserver.Server, owner, repo string, body map[string]any, header ...string) *gitea.PullRequest {
	t.Helper()
	var pr gitea.PullRequest
	blockWant(t, srv, "POST", "/repos/"+owner+"/"+repo+"/pulls", body, http.StatusCreated, "", header...).Decode(t, &pr)
	return &pr
}

// TestPullCreate opens pull requests in one repository and checks every
// field, what a non-writer may set, and each refusal.
func TestPullCreate(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	w := pullsRepo(t, srv, aliceC, "app", false)
	label, _, err := aliceC.CreateLabel("alice", "app", gitea.CreateLabelOption{Name: "bug", Color: "#ff0000"})
	is.NoErr(err)
	ms, _, err := aliceC.CreateMilestone("alice", "app", gitea.CreateMilestoneOption{Title: "v1"})
	is.NoErr(err)
	alice, bob := basicAs("alice"), basicAs("bob")

	t.Run("by a writer", func(t *testing.T) {
		is := is.New(t)
		pr, resp, err := aliceC.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main",
			Title: "Add feature", Body: "It does things", Labels: []int64{label.ID}, Milestone: ms.ID, Assignees: []string{"alice"}})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(pr.Index, int64(1))
		is.Equal(pr.Title, "Add feature")
		is.Equal(pr.Body, "It does things")
		is.Equal(pr.Poster.UserName, "alice")
		is.Equal(pr.State, gitea.StateOpen)
		is.True(!pr.Draft)
		is.Equal(pr.Head.Name, "feature")
		is.Equal(pr.Head.Ref, "feature")
		is.Equal(pr.Head.Sha, pullsRev(t, srv, "alice", "app", "feature"))
		is.Equal(pr.Head.Repository.FullName, "alice/app")
		is.Equal(pr.Base.Name, "main")
		is.Equal(pr.Base.Ref, "main")
		is.Equal(pr.Base.Sha, pullsRev(t, srv, "alice", "app", "main"))
		is.Equal(pr.Base.Repository.FullName, "alice/app")
		is.Equal(pr.Head.RepoID, pr.Base.RepoID)
		is.Equal(len(pr.Labels), 1)
		is.Equal(pr.Labels[0].Name, "bug")
		is.True(pr.Milestone != nil && pr.Milestone.ID == ms.ID)
		is.Equal(len(pr.Assignees), 1)
		is.True(strings.HasSuffix(pr.HTMLURL, "/alice/app/pulls/1"))
		is.Equal(pr.DiffURL, pr.HTMLURL+".diff")
		is.Equal(pullsRev(t, srv, "alice", "app", "refs/pull/1/head"), pr.Head.Sha)

		pr = pullsWait(t, srv, "alice", "app", 1)
		is.True(pr.Mergeable)
		is.Equal(pr.MergeBase, strings.TrimSpace(gitRun(t, w, "merge-base", "main", "feature")))
		// git's own diffstat of the change is the oracle.
		stat := strings.Fields(gitRun(t, w, "diff", "--numstat", "main...feature"))
		is.Equal(len(stat), 3)
		is.True(pr.Additions != nil && pr.Deletions != nil && pr.ChangedFiles != nil)
		is.Equal(strconv.Itoa(*pr.Additions), stat[0])
		is.Equal(strconv.Itoa(*pr.Deletions), stat[1])
		is.Equal(*pr.ChangedFiles, 1)
	})

	t.Run("drafts", func(t *testing.T) {
		is := is.New(t)
		for n, title := range map[string]string{"second": "WIP: halfway", "third": "[wip] early"} {
			pr := pullsOpen(t, srv, "alice", "app", map[string]any{"head": n, "base": "main", "title": title}, alice...)
			is.True(pr.Draft)
			pr = pullsWait(t, srv, "alice", "app", pr.Index)
			is.True(!pr.Mergeable) // a draft is not mergeable
			// Closing frees the pair for the tests below.
			blockWant(t, srv, "PATCH", "/repos/alice/app/pulls/"+strconv.FormatInt(pr.Index, 10),
				map[string]any{"state": "closed"}, http.StatusCreated, "", alice...)
		}
	})

	t.Run("by a non-writer the metadata is ignored", func(t *testing.T) {
		is := is.New(t)
		pr := pullsOpen(t, srv, "alice", "app", map[string]any{"head": "fourth", "base": "main", "title": "From bob",
			"labels": []int64{label.ID}, "milestone": ms.ID, "assignees": []string{"alice"}}, bob...)
		is.Equal(pr.Poster.UserName, "bob")
		is.Equal(len(pr.Labels), 0)
		is.True(pr.Milestone == nil)
		is.Equal(len(pr.Assignees), 0)
	})

	t.Run("refusals", func(t *testing.T) {
		is := is.New(t)
		var before []*gitea.PullRequest
		srv.Do("GET", "/repos/alice/app/pulls?state=all", nil).Decode(t, &before)
		blockWant(t, srv, "POST", "/repos/alice/app/pulls", map[string]any{"head": "feature", "base": "main", "title": "again"},
			http.StatusConflict, "", alice...)
		for _, body := range []map[string]any{
			{"head": "main", "base": "main", "title": "same"},
			{"head": "nope", "base": "main", "title": "unknown head"},
			{"head": "feature", "base": "nope", "title": "unknown base"},
			{"head": "even", "base": "main", "title": "nothing ahead"},
		} {
			r := srv.Do("POST", "/repos/alice/app/pulls", body, alice...)
			is.Equal(r.Status, http.StatusUnprocessableEntity) // body["title"]
		}
		// alice blocks carol: carol may not open one.
		blockWant(t, srv, "PUT", "/user/blocks/carol", nil, http.StatusNoContent, "", alice...)
		blockWant(t, srv, "POST", "/repos/alice/app/pulls", map[string]any{"head": "second", "base": "main", "title": "blocked"},
			http.StatusForbidden, "user is blocked", basicAs("carol")...)
		var after []*gitea.PullRequest
		srv.Do("GET", "/repos/alice/app/pulls?state=all", nil).Decode(t, &after)
		is.Equal(len(after), len(before)) // nothing was made
	})

	t.Run("archived", func(t *testing.T) {
		yes, no := true, false
		_, _, err := aliceC.EditRepo("alice", "app", gitea.EditRepoOption{Archived: &yes})
		is.NoErr(err)
		blockWant(t, srv, "POST", "/repos/alice/app/pulls", map[string]any{"head": "second", "base": "main", "title": "late"},
			http.StatusLocked, "", alice...)
		_, _, err = aliceC.EditRepo("alice", "app", gitea.EditRepoOption{Archived: &no})
		is.NoErr(err)
	})

	t.Run("pulls unit disabled hides the group", func(t *testing.T) {
		is := is.New(t)
		yes, no := true, false
		_, _, err := aliceC.EditRepo("alice", "app", gitea.EditRepoOption{HasPullRequests: &no})
		is.NoErr(err)
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/pulls", nil}, {"GET", "/pulls/pinned", nil},
			{"POST", "/pulls", map[string]any{"head": "second", "base": "main", "title": "off"}},
			{"GET", "/pulls/1", nil}, {"PATCH", "/pulls/1", map[string]any{"title": "off"}},
			{"GET", "/pulls/1/merge", nil}, {"POST", "/pulls/1/merge", map[string]any{"Do": "merge"}},
			{"DELETE", "/pulls/1/merge", nil}, {"GET", "/pulls/main/feature", nil},
		} {
			for _, h := range [][]string{alice, bob, adminHeader(srv)} {
				r := srv.Do(rt.method, "/repos/alice/app"+rt.path, rt.body, h...)
				is.Equal(r.Status, http.StatusNotFound) // rt.method+" "+rt.path
			}
		}
		_, _, err = aliceC.EditRepo("alice", "app", gitea.EditRepoOption{HasPullRequests: &yes})
		is.NoErr(err)
		pr, _, err := aliceC.GetPullRequest("alice", "app", 1)
		is.NoErr(err)
		is.Equal(pr.Title, "Add feature") // the PATCH above changed nothing
	})
}
