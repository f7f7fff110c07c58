package test

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestActionRunnerDeletionCancelsTasks deletes runners that hold running
// tasks, through the repository's and the site's delete routes: each task
// is cancelled with its job, the jobs that needed it are skipped, the run
// settles as cancelled, the commit statuses of the jobs say so, and the
// task's token stops working; on both backends.
func TestActionRunnerDeletionCancelsTasks(t *testing.T) {
	t.Parallel()
	backends(t, testActionRunnerDeletionCancelsTasks)
}

func testActionRunnerDeletionCancelsTasks(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol")
	repo := createRepoAs(t, srv, "carol", "ci", true)
	carol := userClient(srv, "carol")
	stores := srv.App.DB.Stores()
	ctx := t.Context()

	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	if err := os.MkdirAll(work+"/.gitea/workflows", 0o755); err != nil {
		t.Fatal(err)
	}

	// deleted runs a push's build job on runner, deletes the runner through
	// path and checks what the deletion left.
	deleted := func(t *testing.T, runner *testRunner, path string, header []string, runs int) {
		is := is.New(t)
		head := httpGitCommit(t, work, ".gitea/workflows/ci.yml", workflowCI+"# "+strconv.Itoa(runs)+"\n", "ci "+strconv.Itoa(runs))
		httpGitOK(t, work, "push", "-q", "origin", "main")
		task := runner.waitTask(t)
		token := task.Secrets["GITEA_TOKEN"]
		is.Equal(srv.Do("GET", "/repos/carol/ci", nil, "Authorization", "token "+token).Status, http.StatusOK)

		is.Equal(srv.Do("DELETE", path+"/"+strconv.FormatInt(runner.id, 10), nil, header...).Status, http.StatusNoContent)

		got, err := stores.ActionTasks.Get(ctx, task.Id)
		is.NoErr(err)
		is.Equal(got.Status, actions.StatusCancelled)
		list := waitRuns(t, stores, repo.ID, runs)
		run, err := stores.ActionRuns.Run(ctx, repo.ID, list[0].ID)
		is.NoErr(err)
		is.Equal(run.CommitSHA, head)
		is.Equal(run.WorkflowName, "CI") // its name:, which the statuses below carry
		is.Equal(run.Status, actions.StatusCancelled)
		jobs, err := stores.ActionRuns.RunJobs(ctx, run.ID)
		is.NoErr(err)
		is.Equal(jobs[0].Status, actions.StatusCancelled) // build
		is.Equal(jobs[1].Status, actions.StatusSkipped)   // test, which needed it

		statuses, _, err := carol.ListStatuses("carol", "ci", head, gitea.ListStatusesOption{})
		is.NoErr(err)
		latest := map[string]*gitea.Status{}
		for _, st := range statuses { // newest first
			if latest[st.Context] == nil {
				latest[st.Context] = st
			}
		}
		build, test := latest["CI / build (push)"], latest["CI / test (push)"] // the workflow's name:
		is.True(build != nil && test != nil)
		is.Equal(build.State, gitea.StatusFailure)
		is.True(strings.HasPrefix(build.Description, "Canceled after "))
		is.Equal(build.TargetURL, srv.URL+"/carol/ci/actions/runs/"+strconv.FormatInt(run.Index, 10)+"/jobs/"+strconv.FormatInt(jobs[0].ID, 10))
		is.Equal(build.Creator.UserName, "gitea-actions")
		is.Equal(test.State, gitea.StatusState("skipped"))
		combined, _, err := carol.GetCombinedStatus("carol", "ci", head)
		is.NoErr(err)
		is.Equal(combined.State, gitea.StatusFailure)

		// The runner and the task's token are gone.
		is.Equal(srv.Do("GET", "/repos/carol/ci", nil, "Authorization", "token "+token).Status, http.StatusUnauthorized)
		is.Equal(srv.Do("GET", path+"/"+strconv.FormatInt(runner.id, 10), nil, header...).Status, http.StatusNotFound)
		is.Equal(len(mustRunningOf(t, stores, runner.id)), 0)
	}

	t.Run("through the repository's route", func(t *testing.T) {
		runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
		deleted(t, runner, "/repos/carol/ci/actions/runners", asUser("carol"), 1)
	})
	t.Run("through the site's route", func(t *testing.T) {
		runner := registerRunner(t, srv, registrationToken(t, srv, "/admin/runners/registration-token", adminHeader(srv)...), "shared", "ubuntu-latest")
		deleted(t, runner, "/admin/actions/runners", adminHeader(srv), 2)
	})
}

// mustRunningOf lists the runner's running tasks from the store.
func mustRunningOf(t *testing.T, stores ports.Stores, runnerID int64) []*actions.Task {
	t.Helper()
	list, err := stores.ActionTasks.RunningOf(t.Context(), runnerID)
	if err != nil {
		t.Fatal(err)
	}
	return list
}
