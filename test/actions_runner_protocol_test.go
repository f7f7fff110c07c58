package test

import (
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	pingv1 "code.gitea.io/actions-proto-go/ping/v1"
	"code.gitea.io/actions-proto-go/ping/v1/pingv1connect"
	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"code.gitea.io/actions-proto-go/runner/v1/runnerv1connect"
	"code.gitea.io/sdk/gitea"
	"connectrpc.com/connect"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// testRunner is a runner speaking Gitea's runner protocol to the server
// through the connect client of actions-proto-go, as act_runner does.
type testRunner struct {
	client      runnerv1connect.RunnerServiceClient
	uuid, token string
	id          int64
}

// runnerClient is a connect client of the server's runner service.
func runnerClient(srv *testserver.Server) runnerv1connect.RunnerServiceClient {
	return runnerv1connect.NewRunnerServiceClient(http.DefaultClient, srv.URL+"/api/actions")
}

// registrationToken fetches a scope's registration token through the API.
func registrationToken(t *testing.T, srv *testserver.Server, path string, header ...string) string {
	t.Helper()
	r := srv.Do("GET", path, nil, header...)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var out struct {
		Token string `json:"token"`
	}
	r.Decode(t, &out)
	return out.Token
}

// registerRunner registers a runner named name with a registration token
// and the labels.
func registerRunner(t *testing.T, srv *testserver.Server, regToken, name string, labels ...string) *testRunner {
	t.Helper()
	c := runnerClient(srv)
	res, err := c.Register(t.Context(), connect.NewRequest(&runnerv1.RegisterRequest{Name: name, Token: regToken,
		Version: "v0.2.11", Labels: labels}))
	if err != nil {
		t.Fatalf("register %s: %v", name, err)
	}
	r := res.Msg.Runner
	if r.Uuid == "" || len(r.Token) != 40 || r.Name != name || r.Id == 0 {
		t.Fatalf("registered %+v", r)
	}
	return &testRunner{client: c, uuid: r.Uuid, token: r.Token, id: r.Id}
}

// request wraps msg with the runner's credentials.
func runnerRequest[T any](r *testRunner, msg *T) *connect.Request[T] {
	req := connect.NewRequest(msg)
	req.Header().Set("x-runner-uuid", r.uuid)
	req.Header().Set("x-runner-token", r.token)
	return req
}

// fetch asks for a task with the tasks version the runner saw last.
func (r *testRunner) fetch(t *testing.T, version int64) *runnerv1.FetchTaskResponse {
	t.Helper()
	res, err := r.client.FetchTask(t.Context(), runnerRequest(r, &runnerv1.FetchTaskRequest{TasksVersion: version}))
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	return res.Msg
}

// waitTask polls FetchTask until the runner gets a task, or fails after a
// deadline.
func (r *testRunner) waitTask(t *testing.T) *runnerv1.Task {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if task := r.fetch(t, 0).Task; task != nil {
			return task
		}
		if time.Now().After(deadline) {
			t.Fatal("no task for the runner")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertCode checks that err is a connect error with code.
func assertCode(t *testing.T, err error, code connect.Code) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
}

// TestActionsRunnerProtocol runs a workflow pushed with the git CLI
// through a runner speaking Gitea's connect protocol: registering with a
// token fetched through the API, declaring, fetching the task with its
// workflow, context, secrets and variables, sending logs and the result,
// and the tasks, runs and job logs the API then shows; and the refusals of
// unknown credentials and of another runner's task, on both backends.
func TestActionsRunnerProtocol(t *testing.T) {
	t.Parallel()
	backends(t, testActionsRunnerProtocol)
}

func testActionsRunnerProtocol(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "sam")
	repo := createRepoAs(t, srv, "carol", "ci", false)
	createRepoAs(t, srv, "sam", "own", false)
	carol := userClient(srv, "carol")
	stores := srv.App.DB.Stores()
	ctx := t.Context()

	is.New(t).Equal(srv.Do("PUT", "/repos/carol/ci/actions/secrets/DEPLOY_KEY", map[string]string{"data": "s3cret"}, asUser("carol")...).Status, http.StatusCreated)
	is.New(t).Equal(srv.Do("POST", "/repos/carol/ci/actions/variables/TARGET", map[string]string{"value": "prod"}, asUser("carol")...).Status, http.StatusCreated)

	runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "linux")
	// sam's runner takes only sam's jobs.
	other := registerRunner(t, srv, registrationToken(t, srv, "/user/actions/runners/registration-token", asUser("sam")...), "sams", "ubuntu-latest")

	t.Run("ping, register and declare", func(t *testing.T) {
		is := is.New(t)
		ping, err := pingv1connect.NewPingServiceClient(http.DefaultClient, srv.URL+"/api/actions").
			Ping(ctx, connect.NewRequest(&pingv1.PingRequest{Data: "runner"}))
		is.NoErr(err)
		is.Equal(ping.Msg.Data, "Hello, runner!")

		c := runnerClient(srv)
		_, err = c.Register(ctx, connect.NewRequest(&runnerv1.RegisterRequest{Name: "x", Token: strings.Repeat("0", 40)}))
		assertCode(t, err, connect.CodeUnauthenticated)
		_, err = c.Register(ctx, connect.NewRequest(&runnerv1.RegisterRequest{Name: " ", Token: "abc"}))
		assertCode(t, err, connect.CodeInvalidArgument)

		res, err := runner.client.Declare(ctx, runnerRequest(runner, &runnerv1.DeclareRequest{Version: "v0.2.12", Labels: []string{"ubuntu-latest", "linux"}}))
		is.NoErr(err)
		is.Equal(res.Msg.Runner.Labels, []string{"ubuntu-latest", "linux"})
		is.Equal(res.Msg.Runner.Version, "v0.2.12")
		is.Equal(res.Msg.Runner.Uuid, runner.uuid)
		is.Equal(res.Msg.Runner.Token, "") // shown once, at registration
	})

	t.Run("unknown credentials are unauthenticated", func(t *testing.T) {
		wrong := &testRunner{client: runner.client, uuid: runner.uuid, token: strings.Repeat("f", 40)}
		_, err := wrong.client.Declare(ctx, runnerRequest(wrong, &runnerv1.DeclareRequest{Labels: []string{"x"}}))
		assertCode(t, err, connect.CodeUnauthenticated)
		_, err = wrong.client.FetchTask(ctx, runnerRequest(wrong, &runnerv1.FetchTaskRequest{}))
		assertCode(t, err, connect.CodeUnauthenticated)
		_, err = wrong.client.UpdateLog(ctx, runnerRequest(wrong, &runnerv1.UpdateLogRequest{TaskId: 1}))
		assertCode(t, err, connect.CodeUnauthenticated)
		_, err = runner.client.FetchTask(ctx, connect.NewRequest(&runnerv1.FetchTaskRequest{}))
		assertCode(t, err, connect.CodeUnauthenticated)
		unknown := &testRunner{client: runner.client, uuid: "00000000-0000-4000-8000-000000000000", token: runner.token}
		_, err = unknown.client.UpdateTask(ctx, runnerRequest(unknown, &runnerv1.UpdateTaskRequest{State: &runnerv1.TaskState{Id: 1}}))
		assertCode(t, err, connect.CodeUnauthenticated)
	})

	// Nothing waits yet: no task, and the version to ask with next.
	idle := runner.fetch(t, 0)
	is.New(t).True(idle.Task == nil)
	is.New(t).True(idle.TasksVersion > 0)

	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	if err := os.MkdirAll(work+"/.gitea/workflows", 0o755); err != nil {
		t.Fatal(err)
	}
	head := httpGitCommit(t, work, ".gitea/workflows/ci.yml", workflowCI, "add ci")
	httpGitOK(t, work, "push", "-q", "origin", "main")

	var build *runnerv1.Task
	t.Run("fetch the task", func(t *testing.T) {
		is := is.New(t)
		build = runner.waitTask(t)
		wf, err := actions.ParseWorkflow("ci.yml", build.WorkflowPayload)
		is.NoErr(err)
		is.Equal(len(wf.Jobs), 1) // the payload names the task's job only
		is.Equal(wf.Jobs[0].ID, "build")
		c := build.Context.AsMap()
		is.Equal(c["repository"], "carol/ci")
		is.Equal(c["repository_owner"], "carol")
		is.Equal(c["sha"], head)
		is.Equal(c["ref"], "refs/heads/main")
		is.Equal(c["ref_name"], "main")
		is.Equal(c["ref_type"], "branch")
		is.Equal(c["event_name"], "push")
		is.Equal(c["job"], "build")
		is.Equal(c["workflow"], "ci.yml")
		is.Equal(c["actor"], "carol")
		is.Equal(c["run_number"], "1")
		is.Equal(c["server_url"], srv.URL)
		is.Equal(c["api_url"], srv.API)
		is.Equal(c["repositoryUrl"], repo.HTMLURL+".git")
		is.Equal(c["event"].(map[string]any)["after"], head)
		is.Equal(build.Secrets["DEPLOY_KEY"], "s3cret")
		is.Equal(build.Vars["TARGET"], "prod")
		is.Equal(len(build.Needs), 0)
		// The other job needs this one: nothing more to take, and sam's
		// runner takes none of carol's jobs.
		is.True(runner.fetch(t, 0).Task == nil)
		is.True(other.fetch(t, 0).Task == nil)

		list, _, err := carol.ListRepoActionTasks("carol", "ci", gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(1))
		is.Equal(list.WorkflowRuns[0].ID, build.Id)
		is.Equal(list.WorkflowRuns[0].Status, "running")
	})
	if build == nil {
		t.FailNow()
	}

	now := timestamppb.Now()
	row := func(s string) *runnerv1.LogRow { return &runnerv1.LogRow{Time: now, Content: s} }
	jobs := func() []*actions.RunJob {
		t.Helper()
		runs, _, err := stores.ActionRuns.ListRuns(ctx, repo.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.New(t).NoErr(err)
		list, err := stores.ActionRuns.RunJobs(ctx, runs[0].ID)
		is.New(t).NoErr(err)
		return list
	}

	t.Run("logs", func(t *testing.T) {
		is := is.New(t)
		ack := func(index int64, rows ...*runnerv1.LogRow) int64 {
			t.Helper()
			res, err := runner.client.UpdateLog(ctx, runnerRequest(runner, &runnerv1.UpdateLogRequest{TaskId: build.Id, Index: index, Rows: rows}))
			is.NoErr(err)
			return res.Msg.AckIndex
		}
		is.Equal(ack(0, row("hello"), row("world")), int64(2))
		is.Equal(ack(1, row("world"), row("again")), int64(3)) // the row sent twice is kept once
		is.Equal(ack(5, row("gap")), int64(3))                 // rows past a gap wait
		is.Equal(ack(3), int64(3))
		_, err := other.client.UpdateLog(ctx, runnerRequest(other, &runnerv1.UpdateLogRequest{TaskId: build.Id, Rows: []*runnerv1.LogRow{row("x")}}))
		assertCode(t, err, connect.CodePermissionDenied)
		_, err = runner.client.UpdateLog(ctx, runnerRequest(runner, &runnerv1.UpdateLogRequest{TaskId: 999999}))
		assertCode(t, err, connect.CodeNotFound)

		r := srv.Do("GET", "/repos/carol/ci/actions/jobs/"+strconv.FormatInt(jobs()[0].ID, 10)+"/logs", nil, asUser("carol")...)
		is.Equal(r.Status, http.StatusOK)
		lines := strings.Split(strings.TrimSuffix(string(r.Body), "\n"), "\n")
		is.Equal(len(lines), 3)
		for i, want := range []string{"hello", "world", "again"} {
			is.True(strings.HasSuffix(lines[i], " "+want))
			is.True(strings.HasPrefix(lines[i], now.AsTime().UTC().Format("2006-01-02T15:04:05")))
		}
		// A job nobody took has an empty log; a job of another repository is not found.
		r = srv.Do("GET", "/repos/carol/ci/actions/jobs/"+strconv.FormatInt(jobs()[1].ID, 10)+"/logs", nil, asUser("carol")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(len(r.Body), 0)
		is.Equal(srv.Do("GET", "/repos/sam/own/actions/jobs/"+strconv.FormatInt(jobs()[0].ID, 10)+"/logs", nil, asUser("sam")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/jobs/abc/logs", nil, asUser("carol")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/repos/carol/ci/actions/jobs/1/logs", nil).Status, http.StatusUnauthorized)
	})

	t.Run("update the task to success, then the job it released to failure", func(t *testing.T) {
		is := is.New(t)
		update := func(r *testRunner, id int64, result runnerv1.Result, outputs map[string]string) (*runnerv1.UpdateTaskResponse, error) {
			res, err := r.client.UpdateTask(ctx, runnerRequest(r, &runnerv1.UpdateTaskRequest{
				State: &runnerv1.TaskState{Id: id, Result: result, StartedAt: now,
					Steps: []*runnerv1.StepState{{Id: 0, Result: result, StartedAt: now, LogIndex: 0, LogLength: 3}}},
				Outputs: outputs}))
			if err != nil {
				return nil, err
			}
			return res.Msg, nil
		}
		_, err := update(other, build.Id, runnerv1.Result_RESULT_SUCCESS, nil)
		assertCode(t, err, connect.CodePermissionDenied)

		res, err := update(runner, build.Id, runnerv1.Result_RESULT_UNSPECIFIED, map[string]string{"b": "2", "a": "1"})
		is.NoErr(err)
		is.Equal(res.State.Result, runnerv1.Result_RESULT_UNSPECIFIED)
		is.Equal(res.SentOutputs, []string{"a", "b"})
		is.Equal(jobs()[1].Status, actions.StatusBlocked)

		version := runner.fetch(t, 0).TasksVersion
		res, err = update(runner, build.Id, runnerv1.Result_RESULT_SUCCESS, map[string]string{"c": "3"})
		is.NoErr(err)
		is.Equal(res.State.Result, runnerv1.Result_RESULT_SUCCESS)
		is.Equal(res.SentOutputs, []string{"a", "b", "c"})
		// A finished task keeps its result.
		res, err = update(runner, build.Id, runnerv1.Result_RESULT_FAILURE, nil)
		is.NoErr(err)
		is.Equal(res.State.Result, runnerv1.Result_RESULT_SUCCESS)

		// Reporting on a task keeps the runner online and busy.
		seen, _, err := carol.GetRepoActionRunner("carol", "ci", runner.id)
		is.NoErr(err)
		is.Equal(seen.Status, "online")
		is.True(seen.Busy)
		is.Equal(len(seen.Labels), 2)

		list, _, err := carol.ListRepoActionTasks("carol", "ci", gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(list.WorkflowRuns[0].Status, "success")
		js := jobs()
		is.Equal(js[0].Status, actions.StatusSuccess)
		is.Equal(js[1].Status, actions.StatusWaiting) // released

		// The released job raised the tasks version: the runner asking
		// with the one it saw gets it.
		got := runner.fetch(t, version)
		is.True(got.TasksVersion > version)
		is.True(got.Task != nil)
		wf, err := actions.ParseWorkflow("ci.yml", got.Task.WorkflowPayload)
		is.NoErr(err)
		is.Equal(wf.Jobs[0].ID, "test")
		is.Equal(len(got.Task.Needs), 1) // what the job it needs sent
		is.Equal(got.Task.Needs["build"].Result, runnerv1.Result_RESULT_SUCCESS)
		is.Equal(got.Task.Needs["build"].Outputs, map[string]string{"a": "1", "b": "2", "c": "3"})
		// Asking again with the latest version skips the search.
		is.True(runner.fetch(t, got.TasksVersion).Task == nil)

		res, err = update(runner, got.Task.Id, runnerv1.Result_RESULT_FAILURE, nil)
		is.NoErr(err)
		is.Equal(res.State.Result, runnerv1.Result_RESULT_FAILURE)
		list, _, err = carol.ListRepoActionTasks("carol", "ci", gitea.ListOptions{})
		is.NoErr(err)
		is.Equal(list.TotalCount, int64(2))
		is.Equal(list.WorkflowRuns[0].Status, "failure")
		is.Equal(list.WorkflowRuns[1].Status, "success")
		runs, _, err := stores.ActionRuns.ListRuns(ctx, repo.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(runs[0].Status, actions.StatusFailure)

		_, err = runner.client.UpdateTask(ctx, runnerRequest(runner, &runnerv1.UpdateTaskRequest{}))
		assertCode(t, err, connect.CodeInvalidArgument)
	})

	t.Run("an ephemeral runner takes one task and goes when it finishes", func(t *testing.T) {
		is := is.New(t)
		res, err := runnerClient(srv).Register(ctx, connect.NewRequest(&runnerv1.RegisterRequest{Name: "once",
			Token:  registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...),
			Labels: []string{"ubuntu-latest"}, Ephemeral: true}))
		is.NoErr(err)
		is.True(res.Msg.Runner.Ephemeral)
		once := &testRunner{client: runnerClient(srv), uuid: res.Msg.Runner.Uuid, token: res.Msg.Runner.Token, id: res.Msg.Runner.Id}
		httpGitCommit(t, work, "README", "one\n", "second run")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		task := once.waitTask(t)
		httpGitCommit(t, work, "README", "two\n", "third run")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		waitRuns(t, stores, repo.ID, 3)
		is.True(once.fetch(t, 0).Task == nil) // a job waits, but not for it
		_, err = once.client.UpdateTask(ctx, runnerRequest(once, &runnerv1.UpdateTaskRequest{
			State: &runnerv1.TaskState{Id: task.Id, Result: runnerv1.Result_RESULT_SUCCESS}}))
		is.NoErr(err)
		_, err = once.client.FetchTask(ctx, runnerRequest(once, &runnerv1.FetchTaskRequest{}))
		assertCode(t, err, connect.CodeUnauthenticated)
		// The job it left is the other runner's.
		is.True(runner.waitTask(t) != nil)
	})
}
