package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// pullsPatch edits alice/app#index as header's caller and checks the
// status (201 on success, as Gitea answers).
func pullsPatch(t *testing.T, srv *testserver.Server, index int64, body map[string]any, status int, header ...string) *gitea.PullRequest {
	t.Helper()
	r := blockWant(t, srv, "PATCH", "/repos/alice/app/pulls/"+strconv.FormatInt(index, 10), body, status, "", header...)
	if status >= 400 {
		return nil
	}
	var pr gitea.PullRequest
	r.Decode(t, &pr)
	return &pr
}

// TestPullEdit edits pull requests: title, body, due date, metadata kept
// across the SDK's edits, close and reopen and their refusals, retargeting,
// allow_maintainer_edit, and a merged pull request's state.
func TestPullEdit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	pullsRepo(t, srv, aliceC, "app", false)
	ms, _, err := aliceC.CreateMilestone("alice", "app", gitea.CreateMilestoneOption{Title: "v1"})
	is.NoErr(err)
	alice, bob, carol := basicAs("alice"), basicAs("bob"), basicAs("carol")
	pullsOpen(t, srv, "alice", "app", map[string]any{"head": "feature", "base": "main", "title": "one",
		"milestone": ms.ID, "assignees": []string{"alice"}}, alice...) // #1
	pullsOpen(t, srv, "alice", "app", map[string]any{"head": "second", "base": "main", "title": "two"}, bob...)    // #2
	pullsOpen(t, srv, "alice", "app", map[string]any{"head": "third", "base": "main", "title": "three"}, alice...) // #3

	t.Run("title, body and due date", func(t *testing.T) {
		is := is.New(t)
		due := time.Date(2030, 5, 1, 0, 0, 0, 0, time.UTC)
		body := "new body"
		pr, resp, err := aliceC.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{Title: "one, renamed",
			Body: &body, Deadline: &due})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(pr.Title, "one, renamed")
		is.Equal(pr.Body, "new body")
		// Gitea keeps the end of the day.
		is.True(pr.Deadline != nil && pr.Deadline.Equal(due.Add(24*time.Hour-time.Second)))
		// The SDK sends milestone 0 and no assignees: Gitea leaves both.
		is.True(pr.Milestone != nil && pr.Milestone.ID == ms.ID)
		is.Equal(len(pr.Assignees), 1)
		yes := true
		pr, _, err = aliceC.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{RemoveDeadline: &yes})
		is.NoErr(err)
		is.True(pr.Deadline == nil)
		is.Equal(pr.Title, "one, renamed")
		// The poster edits its own; someone else may not.
		pr = pullsPatch(t, srv, 2, map[string]any{"title": "two, by bob"}, http.StatusCreated, bob...)
		is.Equal(pr.Title, "two, by bob")
		pullsPatch(t, srv, 2, map[string]any{"title": "by carol"}, http.StatusForbidden, carol...)
		pullsPatch(t, srv, 1, map[string]any{"title": "anonymous"}, http.StatusUnauthorized)
		// A non-writer's milestone and labels are ignored; a writer's replace.
		label, _, err := aliceC.CreateLabel("alice", "app", gitea.CreateLabelOption{Name: "bug", Color: "#ff0000"})
		is.NoErr(err)
		pr = pullsPatch(t, srv, 2, map[string]any{"milestone": ms.ID, "labels": []int64{label.ID}, "assignees": []string{"bob"}},
			http.StatusCreated, bob...)
		is.True(pr.Milestone == nil)
		is.Equal(len(pr.Labels), 0)
		is.Equal(len(pr.Assignees), 0)
		pr, _, err = aliceC.EditPullRequest("alice", "app", 2, gitea.EditPullRequestOption{Labels: []int64{label.ID}, Milestone: ms.ID})
		is.NoErr(err)
		is.Equal(len(pr.Labels), 1)
		is.True(pr.Milestone != nil)
		pr = pullsPatch(t, srv, 2, map[string]any{"labels": []int64{}}, http.StatusCreated, alice...)
		is.Equal(len(pr.Labels), 0)
		is.True(pr.Milestone != nil)
	})

	t.Run("close and reopen", func(t *testing.T) {
		is := is.New(t)
		pr := pullsPatch(t, srv, 3, map[string]any{"state": "closed"}, http.StatusCreated, alice...)
		is.Equal(pr.State, gitea.StateClosed)
		is.True(pr.Closed != nil)
		pr = pullsPatch(t, srv, 3, map[string]any{"state": "open"}, http.StatusCreated, alice...)
		is.Equal(pr.State, gitea.StateOpen)
		is.True(pr.Closed == nil)

		// An identical pull request opened meanwhile: 409.
		pullsPatch(t, srv, 3, map[string]any{"state": "closed"}, http.StatusCreated, alice...)
		dup := pullsOpen(t, srv, "alice", "app", map[string]any{"head": "third", "base": "main", "title": "three again"}, alice...)
		pullsPatch(t, srv, 3, map[string]any{"state": "open"}, http.StatusConflict, alice...)
		pullsPatch(t, srv, dup.Index, map[string]any{"state": "closed"}, http.StatusCreated, alice...)
		pullsPatch(t, srv, 3, map[string]any{"state": "open"}, http.StatusCreated, alice...)

		// The head branch deleted: 422.
		pullsPatch(t, srv, 2, map[string]any{"state": "closed"}, http.StatusCreated, bob...)
		gitRun(t, repoDir(srv, "alice", "app"), "branch", "-D", "second")
		pullsPatch(t, srv, 2, map[string]any{"state": "open"}, http.StatusUnprocessableEntity, bob...)
		got, _, err := aliceC.GetPullRequest("alice", "app", 2)
		is.NoErr(err)
		is.Equal(got.State, gitea.StateClosed)
	})

	t.Run("retarget", func(t *testing.T) {
		is := is.New(t)
		pullsPatch(t, srv, 3, map[string]any{"base": "nope"}, http.StatusNotFound, alice...)
		// fourth into even, then #4 onto main where #? is fourth → main.
		four := pullsOpen(t, srv, "alice", "app", map[string]any{"head": "fourth", "base": "main", "title": "four"}, alice...)
		fourEven := pullsOpen(t, srv, "alice", "app", map[string]any{"head": "fourth", "base": "even", "title": "four on even"}, alice...)
		pullsPatch(t, srv, fourEven.Index, map[string]any{"base": "main"}, http.StatusConflict, alice...)
		pullsPatch(t, srv, four.Index, map[string]any{"state": "closed"}, http.StatusCreated, alice...)
		pullsWait(t, srv, "alice", "app", fourEven.Index)
		pr := pullsPatch(t, srv, fourEven.Index, map[string]any{"base": "main"}, http.StatusCreated, alice...)
		is.Equal(pr.Base.Ref, "main")
		is.Equal(pr.Base.Sha, bareRev(t, srv, "alice", "app", "main"))
		pr = pullsWait(t, srv, "alice", "app", fourEven.Index) // rechecked
		is.True(pr.Mergeable)
		// The timeline records the change.
		var events []struct {
			Type   string `json:"type"`
			OldRef string `json:"old_ref"`
			NewRef string `json:"new_ref"`
		}
		blockWant(t, srv, "GET", "/repos/alice/app/issues/"+strconv.FormatInt(fourEven.Index, 10)+"/timeline", nil,
			http.StatusOK, "").Decode(t, &events)
		found := false
		for _, e := range events {
			if e.Type == "change_target_branch" {
				found = true
				is.Equal(e.OldRef, "even")
				is.Equal(e.NewRef, "main")
			}
		}
		is.True(found)
	})

	t.Run("allow_maintainer_edit", func(t *testing.T) {
		is := is.New(t)
		yes, no := true, false
		pr, _, err := aliceC.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{AllowMaintainerEdit: &yes})
		is.NoErr(err)
		is.True(pr.AllowMaintainerEdit)
		pr, _, err = aliceC.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{AllowMaintainerEdit: &no})
		is.NoErr(err)
		is.True(!pr.AllowMaintainerEdit)
		// Not the poster (alice writes the head, bob posted #2): 403.
		pullsPatch(t, srv, 3, map[string]any{"allow_maintainer_edit": true}, http.StatusForbidden, bob...)
		_, resp, err := bobC.EditPullRequest("alice", "app", 1, gitea.EditPullRequestOption{AllowMaintainerEdit: &yes})
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusForbidden)
		got, _, err := aliceC.GetPullRequest("alice", "app", 1)
		is.NoErr(err)
		is.True(!got.AllowMaintainerEdit)
	})

	t.Run("merged", func(t *testing.T) {
		is := is.New(t)
		pullsWait(t, srv, "alice", "app", 1)
		_, _, err := aliceC.MergePullRequest("alice", "app", 1, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
		is.NoErr(err)
		for _, state := range []string{"closed", "open"} {
			blockWant(t, srv, "PATCH", "/repos/alice/app/pulls/1", map[string]any{"state": state}, http.StatusPreconditionFailed,
				"cannot change state of this pull request, it was already merged", alice...)
		}
		pr := pullsPatch(t, srv, 1, map[string]any{"title": "merged, renamed"}, http.StatusCreated, alice...)
		is.Equal(pr.Title, "merged, renamed")
		is.True(pr.HasMerged)
		is.Equal(pr.State, gitea.StateClosed)
	})
}

// TestPullIssuesIntegration checks that issue lists, searches and reads
// carry pull requests with their pull_request object.
func TestPullIssuesIntegration(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	pullsRepo(t, srv, aliceC, "app", false)
	alice := basicAs("alice")
	pullsOpen(t, srv, "alice", "app", map[string]any{"head": "feature", "base": "main", "title": "merged one"}, alice...) // #1
	_, _, err := aliceC.CreateIssue("alice", "app", gitea.CreateIssueOption{Title: "plain issue"})                        // #2
	is.NoErr(err)
	pullsOpen(t, srv, "alice", "app", map[string]any{"head": "second", "base": "main", "title": "WIP: draft one"}, alice...) // #3
	pullsWait(t, srv, "alice", "app", 1)
	_, _, err = aliceC.MergePullRequest("alice", "app", 1, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
	is.NoErr(err)

	type prMeta struct {
		Merged   bool       `json:"merged"`
		MergedAt *time.Time `json:"merged_at"`
		Draft    bool       `json:"draft"`
		HTMLURL  string     `json:"html_url"`
	}
	type issueJSON struct {
		Number int64   `json:"number"`
		Pull   *prMeta `json:"pull_request"`
	}
	numbers := func(r testserver.Response) (string, map[int64]*prMeta) {
		t.Helper()
		if r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var list []issueJSON
		r.Decode(t, &list)
		var out []string
		meta := map[int64]*prMeta{}
		for _, i := range list {
			out = append(out, strconv.FormatInt(i.Number, 10))
			meta[i.Number] = i.Pull
		}
		return strings.Join(out, ","), meta
	}
	got, meta := numbers(srv.Do("GET", "/repos/alice/app/issues?state=all&type=pulls", nil))
	is.Equal(got, "3,1")
	is.True(meta[1] != nil && meta[1].Merged && meta[1].MergedAt != nil && !meta[1].Draft)
	is.True(strings.HasSuffix(meta[1].HTMLURL, "/alice/app/pulls/1"))
	is.True(meta[3] != nil && meta[3].Draft && !meta[3].Merged && meta[3].MergedAt == nil)
	got, meta = numbers(srv.Do("GET", "/repos/alice/app/issues?state=all&type=issues", nil))
	is.Equal(got, "2")
	is.True(meta[2] == nil)
	got, _ = numbers(srv.Do("GET", "/repos/alice/app/issues?state=all", nil))
	is.Equal(got, "3,2,1")
	got, _ = numbers(srv.Do("GET", "/repos/issues/search?state=all&type=pulls", nil, alice...))
	is.Equal(got, "3,1")
	got, _ = numbers(srv.Do("GET", "/repos/issues/search?state=all&type=issues", nil, alice...))
	is.Equal(got, "2")

	// R/issues/{index} of a pull request.
	var one issueJSON
	blockWant(t, srv, "GET", "/repos/alice/app/issues/1", nil, http.StatusOK, "").Decode(t, &one)
	is.True(one.Pull != nil && one.Pull.Merged)
	i, _, err := aliceC.GetIssue("alice", "app", 3)
	is.NoErr(err)
	is.True(i.PullRequest != nil && !i.PullRequest.HasMerged)
	is.Equal(i.Title, "WIP: draft one")
}
