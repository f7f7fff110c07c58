package test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// The workflow files the tests push.
const (
	workflowCI = `name: CI
on:
  push:
    branches: [main, "release/**"]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo hello
  test:
    needs: build
    runs-on: [ubuntu-latest]
    steps:
      - run: echo test
`
	workflowDeploy = `on:
  workflow_dispatch:
    inputs:
      target:
        required: true
      verbose:
        type: boolean
        default: "false"
jobs:
  deploy:
    name: Deploy it
    runs-on: ubuntu-latest
    steps:
      - run: echo deploy
`
)

// TestActionWorkflows covers a repository's workflows pushed with the git
// CLI: the list and one workflow with the SDK, disable and enable, dispatch
// with inputs and its refusals, the runs a push creates, the tasks list
// after a runner claims a job, and who may reach each route, on both
// backends.
func TestActionWorkflows(t *testing.T) {
	t.Parallel()
	backends(t, testActionWorkflows)
}

func testActionWorkflows(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "rita", "wanda", "olga")
	repo := createRepoAs(t, srv, "carol", "ci", false)
	socialCollab(t, srv, "carol", "ci", "rita", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "ci", "wanda", gitea.AccessModeWrite)
	carol, rita, wanda := userClient(srv, "carol"), userClient(srv, "rita"), userClient(srv, "wanda")
	stores := srv.App.DB.Stores()

	// carol pushes two workflows, one under .github, and a file that is none.
	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	for _, d := range []string{"/.gitea/workflows", "/.github/workflows"} {
		if err := os.MkdirAll(work+d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	httpGitCommit(t, work, ".gitea/workflows/ci.yml", workflowCI, "add ci")
	httpGitCommit(t, work, ".github/workflows/deploy.yaml", workflowDeploy, "add deploy")
	head := httpGitCommit(t, work, ".gitea/workflows/notes.txt", "not a workflow\n", "add notes")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	t.Run("list and get with the SDK", func(t *testing.T) {
		is := is.New(t)
		list, _, err := rita.ListRepoActionWorkflows("carol", "ci")
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(2))
		is.Equal(len(list.Workflows), 2)
		ci, deploy := list.Workflows[0], list.Workflows[1]
		is.Equal(ci.ID, "ci.yml")
		is.Equal(ci.Name, "ci.yml")
		is.Equal(ci.Path, ".gitea/workflows/ci.yml")
		is.Equal(ci.State, "active")
		is.Equal(ci.URL, srv.API+"/repos/carol/ci/actions/workflows/ci.yml")
		is.Equal(ci.HTMLURL, repo.HTMLURL+"/src/branch/main/.gitea/workflows/ci.yml")
		is.Equal(ci.BadgeURL, repo.HTMLURL+"/actions/workflows/ci.yml/badge.svg?branch=main")
		is.True(!ci.CreatedAt.IsZero())
		is.Equal(deploy.ID, "deploy.yaml")
		is.Equal(deploy.Path, ".github/workflows/deploy.yaml")
		got, _, err := rita.GetRepoActionWorkflow("carol", "ci", "deploy.yaml")
		is.NoErr(err)
		is.Equal(*got, *deploy)
		_, resp, err := rita.GetRepoActionWorkflow("carol", "ci", "nope.yml")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = rita.GetRepoActionWorkflow("carol", "ci", "notes.txt")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("a push creates the runs of matching workflows", func(t *testing.T) {
		is := is.New(t)
		runs := waitRuns(t, stores, repo.ID, 1)
		is.Equal(runs[0].WorkflowID, "ci.yml")
		is.Equal(runs[0].Event, "push")
		is.Equal(runs[0].Ref, "refs/heads/main")
		is.Equal(runs[0].CommitSHA, head)
		is.Equal(runs[0].Title, "add notes")
		is.Equal(runs[0].Status, actions.StatusWaiting)
		jobs, err := stores.ActionRuns.RunJobs(t.Context(), runs[0].ID)
		is.NoErr(err)
		is.Equal(len(jobs), 2)
		is.Equal(jobs[0].JobID, "build")
		is.Equal(jobs[0].Status, actions.StatusWaiting)
		is.Equal(jobs[0].RunsOn, []string{"ubuntu-latest"})
		is.Equal(jobs[1].Status, actions.StatusBlocked)
		is.Equal(jobs[1].Needs, []string{"build"})

		// A branch the filter leaves out runs nothing; one it names does.
		httpGitOK(t, work, "push", "-q", "origin", "main:feature")
		httpGitOK(t, work, "push", "-q", "origin", "main:release/v1")
		runs = waitRuns(t, stores, repo.ID, 2)
		is.Equal(runs[0].Ref, "refs/heads/release/v1")
	})

	t.Run("disable and enable", func(t *testing.T) {
		is := is.New(t)
		resp, err := rita.DisableRepoActionWorkflow("carol", "ci", "ci.yml")
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		resp, err = wanda.DisableRepoActionWorkflow("carol", "ci", "ci.yml")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		got, _, err := rita.GetRepoActionWorkflow("carol", "ci", "ci.yml")
		is.NoErr(err)
		is.Equal(got.State, "disabled_manually")
		// A disabled workflow runs on no push.
		httpGitOK(t, work, "push", "-q", "origin", "main:release/v2")
		resp, err = wanda.DisableRepoActionWorkflow("carol", "ci", "ci.yml") // twice changes nothing
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		resp, err = wanda.EnableRepoActionWorkflow("carol", "ci", "ci.yml")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		got, _, err = rita.GetRepoActionWorkflow("carol", "ci", "ci.yml")
		is.NoErr(err)
		is.Equal(got.State, "active")
		resp, err = wanda.EnableRepoActionWorkflow("carol", "ci", "gone.yml")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("dispatch with inputs", func(t *testing.T) {
		is := is.New(t)
		before := len(waitRuns(t, stores, repo.ID, 2))
		details, _, err := wanda.DispatchRepoActionWorkflow("carol", "ci", "deploy.yaml",
			gitea.CreateActionWorkflowDispatchOption{Ref: "main", Inputs: map[string]string{"target": "prod"}}, true)
		is.NoErr(err)
		runs := waitRuns(t, stores, repo.ID, before+1)
		run := runs[0]
		is.Equal(details.WorkflowRunID, run.ID)
		is.Equal(details.HTMLURL, repo.HTMLURL+"/actions/runs/"+itoa64(run.Index))
		is.Equal(run.Event, "workflow_dispatch")
		is.Equal(run.WorkflowID, "deploy.yaml")
		is.Equal(run.Ref, "refs/heads/main")
		is.True(strings.Contains(run.EventPayload, `"target":"prod"`))
		is.True(strings.Contains(run.EventPayload, `"verbose":"false"`))
		jobs, err := stores.ActionRuns.RunJobs(t.Context(), run.ID)
		is.NoErr(err)
		is.Equal(len(jobs), 1)
		is.Equal(jobs[0].Name, "Deploy it")
		is.Equal(jobs[0].Status, actions.StatusWaiting)

		_, resp, err := wanda.DispatchRepoActionWorkflow("carol", "ci", "deploy.yaml",
			gitea.CreateActionWorkflowDispatchOption{Ref: "refs/heads/feature", Inputs: map[string]string{"target": "qa"}}, false)
		assertSDKStatus(t, resp, err, http.StatusNoContent)

		path := "/repos/carol/ci/actions/workflows/deploy.yaml/dispatches"
		as := []string{"Authorization", testserver.Basic("wanda", userPassword)}
		for _, c := range []struct {
			body   map[string]any
			status int
			msg    string
		}{
			{map[string]any{"ref": "main"}, http.StatusUnprocessableEntity, "missing required inputs: target"},
			{map[string]any{"ref": "main", "inputs": map[string]string{"target": "x", "colour": "red"}}, http.StatusUnprocessableEntity, "unknown inputs: colour"},
			{map[string]any{"ref": "main", "inputs": map[string]string{"target": "x", "verbose": "maybe"}}, http.StatusUnprocessableEntity, "wrong type: verbose"},
			{map[string]any{"ref": ""}, http.StatusUnprocessableEntity, "ref is required"},
			{map[string]any{"ref": "no-such-branch", "inputs": map[string]string{"target": "x"}}, http.StatusNotFound, "ref does not exist"},
		} {
			res := srv.Do("POST", path, c.body, as...)
			is.Equal(res.Status, c.status)
			is.True(strings.Contains(res.Message(), c.msg))
		}
		// A workflow without the trigger, an unknown one.
		res := srv.Do("POST", "/repos/carol/ci/actions/workflows/ci.yml/dispatches", map[string]any{"ref": "main"}, as...)
		is.Equal(res.Status, http.StatusUnprocessableEntity)
		res = srv.Do("POST", "/repos/carol/ci/actions/workflows/nope.yml/dispatches", map[string]any{"ref": "main"}, as...)
		is.Equal(res.Status, http.StatusNotFound)
		// Bad input changed nothing.
		is.Equal(len(waitRuns(t, stores, repo.ID, before+2)), before+2)
		// A reader may not dispatch; a disabled workflow may not be dispatched.
		_, resp, err = rita.DispatchRepoActionWorkflow("carol", "ci", "deploy.yaml",
			gitea.CreateActionWorkflowDispatchOption{Ref: "main", Inputs: map[string]string{"target": "x"}}, false)
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		_, err = carol.DisableRepoActionWorkflow("carol", "ci", "deploy.yaml")
		is.NoErr(err)
		_, resp, err = wanda.DispatchRepoActionWorkflow("carol", "ci", "deploy.yaml",
			gitea.CreateActionWorkflowDispatchOption{Ref: "main", Inputs: map[string]string{"target": "x"}}, false)
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		_, err = carol.EnableRepoActionWorkflow("carol", "ci", "deploy.yaml")
		is.NoErr(err)
	})

	t.Run("tasks after a runner claims a job", func(t *testing.T) {
		is := is.New(t)
		list, _, err := rita.ListRepoActionTasks("carol", "ci", gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(0))
		var task *actions.Task
		err = srv.App.DB.Transactor().InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
			var err error
			task, err = tx.ActionRuns.ClaimJob(ctx, 7, actions.Scope{}, []string{"ubuntu-latest", "self-hosted"}, time.Now())
			return err
		})
		is.NoErr(err)
		list, resp, err := rita.ListRepoActionTasks("carol", "ci", gitea.ListOptions{Page: 1, PageSize: 10})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(list.TotalCount, int64(1))
		got := list.WorkflowRuns[0]
		is.Equal(got.ID, task.ID)
		is.Equal(got.Name, "build")
		is.Equal(got.HeadBranch, "main")
		is.Equal(got.HeadSHA, head)
		is.Equal(got.RunNumber, int64(1))
		is.Equal(got.Event, "push")
		is.Equal(got.DisplayTitle, "add notes")
		is.Equal(got.Status, "running")
		is.Equal(got.WorkflowID, "ci.yml")
		is.Equal(got.URL, repo.HTMLURL+"/actions/runs/1")
		is.True(!got.RunStartedAt.IsZero())
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		createRepoAs(t, srv, "carol", "hidden", true)
		olga := []string{"Authorization", testserver.Basic("olga", userPassword)}
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/workflows", nil).Status, http.StatusUnauthorized) // the workflows want a sign-in
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/tasks", nil).Status, http.StatusOK)               // the tasks of a public repository do not
		is.Equal(srv.Do("GET", "/repos/carol/hidden/actions/workflows", nil, olga...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/repos/carol/hidden/actions/tasks", nil, olga...).Status, http.StatusNotFound)
		is.Equal(srv.Do("PUT", "/repos/carol/ci/actions/workflows/ci.yml/disable", nil, olga...).Status, http.StatusForbidden)
		readOnly := tokenHeader(srv, "wanda", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/workflows", nil, readOnly...).Status, http.StatusOK)
		is.Equal(srv.Do("PUT", "/repos/carol/ci/actions/workflows/ci.yml/disable", nil, readOnly...).Status, http.StatusForbidden)
		// Without the actions unit the routes are not there.
		off := false
		_, _, err := carol.EditRepo("carol", "ci", gitea.EditRepoOption{HasActions: &off})
		is.NoErr(err)
		for _, p := range []string{"/actions/workflows", "/actions/workflows/ci.yml", "/actions/tasks"} {
			is.Equal(srv.Do("GET", "/repos/carol/ci"+p, nil, asUser("carol")...).Status, http.StatusNotFound)
		}
		is.Equal(srv.Do("POST", "/repos/carol/ci/actions/workflows/deploy.yaml/dispatches",
			map[string]any{"ref": "main", "inputs": map[string]string{"target": "x"}}, asUser("carol")...).Status, http.StatusNotFound)
	})
}

// asUser is the Basic Authorization pair of a social account.
func asUser(name string) []string {
	return []string{"Authorization", testserver.Basic(name, userPassword)}
}

// waitRuns polls the repository's runs until there are at least n, newest
// first, or fails after a deadline.
func waitRuns(t *testing.T, stores ports.Stores, repoID int64, n int) []*actions.Run {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		runs, total, err := stores.ActionRuns.ListRuns(t.Context(), repoID, ports.ListOptions{Page: 1, Limit: 50})
		if err != nil {
			t.Fatalf("list runs: %v", err)
		}
		// The page and the total are two statements: a run inserted
		// between them is counted but not listed, so both must show it.
		if int(total) >= n && len(runs) >= min(n, 50) {
			return runs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d runs, want %d", total, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
