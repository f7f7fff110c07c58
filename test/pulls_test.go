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
	t.Parallel()
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
		is.Equal(pr.Head.Sha, bareRev(t, srv, "alice", "app", "feature"))
		is.Equal(pr.Head.Repository.FullName, "alice/app")
		is.Equal(pr.Base.Name, "main")
		is.Equal(pr.Base.Ref, "main")
		is.Equal(pr.Base.Sha, bareRev(t, srv, "alice", "app", "main"))
		is.Equal(pr.Base.Repository.FullName, "alice/app")
		is.Equal(pr.Head.RepoID, pr.Base.RepoID)
		is.Equal(len(pr.Labels), 1)
		is.Equal(pr.Labels[0].Name, "bug")
		is.True(pr.Milestone != nil && pr.Milestone.ID == ms.ID)
		is.Equal(len(pr.Assignees), 1)
		is.True(strings.HasSuffix(pr.HTMLURL, "/alice/app/pulls/1"))
		is.Equal(pr.DiffURL, pr.HTMLURL+".diff")
		is.Equal(bareRev(t, srv, "alice", "app", "refs/pull/1/head"), pr.Head.Sha)

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

// pullsNumbers are the numbers of a listing's pull requests, in order.
func pullsNumbers(t *testing.T, r testserver.Response) string {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	var list []*gitea.PullRequest
	r.Decode(t, &list)
	var out []string
	for _, p := range list {
		out = append(out, strconv.FormatInt(p.Index, 10))
	}
	return strings.Join(out, ",")
}

// TestPullList lists pull requests with each of Gitea's filters, pages
// them, pins one, and finds them by number and by base and head.
func TestPullList(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		pullsRepo(t, srv, aliceC, "app", false)
		label, _, err := aliceC.CreateLabel("alice", "app", gitea.CreateLabelOption{Name: "bug", Color: "#ff0000"})
		is.NoErr(err)
		ms, _, err := aliceC.CreateMilestone("alice", "app", gitea.CreateMilestoneOption{Title: "v1"})
		is.NoErr(err)
		alice := basicAs("alice")
		pullsOpen(t, srv, "alice", "app", map[string]any{"head": "feature", "base": "main", "title": "one",
			"labels": []int64{label.ID}, "milestone": ms.ID}, alice...)
		pullsOpen(t, srv, "alice", "app", map[string]any{"head": "second", "base": "main", "title": "two"}, basicAs("bob")...)
		pullsOpen(t, srv, "alice", "app", map[string]any{"head": "third", "base": "even", "title": "three"}, alice...)
		pullsOpen(t, srv, "alice", "app", map[string]any{"head": "alice:fourth", "base": "main", "title": "four"}, alice...)
		blockWant(t, srv, "PATCH", "/repos/alice/app/pulls/4", map[string]any{"state": "closed"}, http.StatusCreated, "", alice...)
		_, _, err = aliceC.CreateIssue("alice", "app", gitea.CreateIssueOption{Title: "an issue"}) // #5
		is.NoErr(err)

		list := func(query string) string { return pullsNumbers(t, srv.Do("GET", "/repos/alice/app/pulls"+query, nil)) }
		is.Equal(list(""), "3,2,1")
		is.Equal(list("?state=open"), "3,2,1")
		is.Equal(list("?state=closed"), "4")
		is.Equal(list("?state=all"), "4,3,2,1")
		is.Equal(list("?state=all&sort=oldest"), "1,2,3,4")
		is.Equal(list("?milestone="+strconv.FormatInt(ms.ID, 10)), "1")
		is.Equal(list("?labels="+strconv.FormatInt(label.ID, 10)), "1")
		is.Equal(list("?poster=bob"), "2")
		is.Equal(list("?base_branch=even"), "3")
		is.Equal(list("?base_branch=main&state=all"), "4,2,1")
		blockWant(t, srv, "GET", "/repos/alice/app/pulls?poster=nobody", nil, http.StatusBadRequest, "")

		r := srv.Do("GET", "/repos/alice/app/pulls?state=all&sort=oldest&limit=3&page=1", nil)
		is.Equal(pullsNumbers(t, r), "1,2,3")
		is.Equal(r.Header.Get("X-Total-Count"), "4")
		r = srv.Do("GET", "/repos/alice/app/pulls?state=all&sort=oldest&limit=3&page=2", nil)
		is.Equal(pullsNumbers(t, r), "4")
		is.Equal(r.Header.Get("X-Total-Count"), "4")
		sdk, _, err := aliceC.ListRepoPullRequests("alice", "app", gitea.ListPullRequestsOptions{State: gitea.StateAll,
			Sort: "oldest", ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
		is.NoErr(err)
		is.Equal(len(sdk), 2)
		is.Equal(sdk[1].Index, int64(2))

		// Pinned: pull requests only, in pin order.
		for _, n := range []string{"3", "5", "1"} {
			blockWant(t, srv, "POST", "/repos/alice/app/issues/"+n+"/pin", nil, http.StatusNoContent, "", alice...)
		}
		r = srv.Do("GET", "/repos/alice/app/pulls/pinned", nil)
		is.Equal(pullsNumbers(t, r), "3,1")
		var pinned []*gitea.PullRequest
		r.Decode(t, &pinned)
		is.True(pinned[0].PinOrder > 0 && pinned[0].PinOrder < pinned[1].PinOrder)

		// By number; an issue's number or an unknown one is no pull request.
		pr, _, err := aliceC.GetPullRequest("alice", "app", 2)
		is.NoErr(err)
		is.Equal(pr.Title, "two")
		is.Equal(pr.Poster.UserName, "bob")
		for _, n := range []string{"5", "99", "0"} {
			is.Equal(srv.Do("GET", "/repos/alice/app/pulls/"+n, nil).Status, http.StatusNotFound)
		}

		// By base and head.
		for head, want := range map[string]int64{"feature": 1, "alice:feature": 1, "second": 2} {
			pr, _, err := aliceC.GetPullRequestByBaseHead("alice", "app", "main", head)
			is.NoErr(err)
			is.Equal(pr.Index, want)
		}
		pr, _, err = aliceC.GetPullRequestByBaseHead("alice", "app", "even", "third")
		is.NoErr(err)
		is.Equal(pr.Index, int64(3))
		for _, path := range []string{"main/nope", "main/third", "nope/feature", "main/bob:feature", "main/nobody:feature"} {
			is.Equal(srv.Do("GET", "/repos/alice/app/pulls/"+path, nil).Status, http.StatusNotFound) // path
		}
	})
}
