package sqlstore_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"code.gitea.io/actions-proto-go/runner/v1/runnerv1connect"
	"connectrpc.com/connect"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/wire"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// benchRunner is a registered runner's client and credentials.
type benchRunner struct {
	client      runnerv1connect.RunnerServiceClient
	id          int64
	uuid, token string
	version     int64
}

func (r *benchRunner) fetch(ctx context.Context) (*runnerv1.FetchTaskResponse, error) {
	req := connect.NewRequest(&runnerv1.FetchTaskRequest{TasksVersion: r.version})
	req.Header().Set("x-runner-uuid", r.uuid)
	req.Header().Set("x-runner-token", r.token)
	res, err := r.client.FetchTask(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Msg, nil
}

// BenchmarkActionsFetchTaskIdle is one round of FetchTask long-polls by 50
// idle runners that already hold the latest tasks version, over the
// connect protocol on loopback against the whole service on SQLite. It
// reports the SQL statements each poll sends (goal: none).
func BenchmarkActionsFetchTaskIdle(b *testing.B) {
	ctx := context.Background()
	app, srv, client, regToken := benchRunnerApp(b)
	runners := make([]*benchRunner, 50)
	for i := range runners {
		runners[i] = benchRegister(b, client, regToken, "idle-"+strconv.Itoa(i))
		first, err := runners[i].fetch(ctx)
		if err != nil {
			b.Fatal(err)
		}
		runners[i].version = first.TasksVersion
	}
	_ = srv
	count := app.DB.CountQueries()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, r := range runners {
			res, err := r.fetch(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if res.Task != nil {
				b.Fatal("an idle runner got a task")
			}
		}
	}
	b.ReportMetric(float64(count.Load())/float64(b.N*len(runners)), "stmts/poll")
}

// benchRegister registers a runner with the site's registration token.
func benchRegister(b *testing.B, client runnerv1connect.RunnerServiceClient, regToken, name string) *benchRunner {
	b.Helper()
	res, err := client.Register(context.Background(), connect.NewRequest(&runnerv1.RegisterRequest{Name: name,
		Token: regToken, Labels: []string{"ubuntu-latest"}}))
	if err != nil {
		b.Fatal(err)
	}
	return &benchRunner{client: client, id: res.Msg.Runner.Id, uuid: res.Msg.Runner.Uuid, token: res.Msg.Runner.Token}
}

// benchRunnerApp is the whole service on SQLite served on loopback, a
// connect client of its runner service and the site's registration token.
func benchRunnerApp(b *testing.B) (*wire.App, *httptest.Server, runnerv1connect.RunnerServiceClient, string) {
	b.Helper()
	ctx := context.Background()
	settings := site.Defaults()
	settings.BaseURL = "http://127.0.0.1:3000"
	app, cleanup, err := wire.Init(ctx, wire.Options{Site: settings, DataDir: b.TempDir(), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cleanup)
	pw, err := app.Prepare(ctx)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(app.HTTP)
	b.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/admin/runners/registration-token", nil)
	req.SetBasicAuth("admin", pw)
	resp, err := srv.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	var tok struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.Token == "" {
		b.Fatalf("registration token: %v %d", err, resp.StatusCode)
	}
	_ = resp.Body.Close()
	client := runnerv1connect.NewRunnerServiceClient(srv.Client(), srv.URL+"/api/actions")
	return app, srv, client, tok.Token
}

// BenchmarkActionsUpdateLog is UpdateLog over the connect protocol on
// loopback for one running task, in batches of 100 rows of 1 KiB as a
// runner sends a busy step's output: the throughput per task (goal: at
// least 10 MB/s) and, by allocations per batch, that memory stays bounded
// as the log grows.
func BenchmarkActionsUpdateLog(b *testing.B) {
	ctx := context.Background()
	app, _, client, regToken := benchRunnerApp(b)
	r := benchRegister(b, client, regToken, "logger")
	admin, err := app.Users.Resolve(ctx, auth.Caller{}, "admin")
	if err != nil {
		b.Fatal(err)
	}
	repo, err := app.Repos.Create(ctx, auth.Caller{User: admin, Method: auth.MethodToken}, admin, repos.CreateInput{Name: "logs"})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	var task *actions.Task
	err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		run := &actions.Run{RepoID: repo.ID, WorkflowID: "ci.yml", Title: "bench", Ref: "refs/heads/main",
			CommitSHA: strings.Repeat("a", 40), Event: "push", Status: actions.StatusWaiting, Created: now, Updated: now}
		job := &actions.RunJob{JobID: "build", Name: "build", RunsOn: []string{"ubuntu-latest"}, Status: actions.StatusWaiting,
			Created: now, Updated: now}
		if err := tx.ActionRuns.CreateRun(ctx, run, []*actions.RunJob{job}); err != nil {
			return err
		}
		task, err = tx.ActionRuns.ClaimJob(ctx, r.id, actions.Scope{}, []string{"ubuntu-latest"}, now)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	line := strings.Repeat("0123456789abcdef", 64) // 1 KiB
	rows := make([]*runnerv1.LogRow, 100)
	for i := range rows {
		rows[i] = &runnerv1.LogRow{Time: timestamppb.New(now), Content: line}
	}
	var index int64
	b.SetBytes(int64(len(rows) * len(line)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := connect.NewRequest(&runnerv1.UpdateLogRequest{TaskId: task.ID, Index: index, Rows: rows})
		req.Header().Set("x-runner-uuid", r.uuid)
		req.Header().Set("x-runner-token", r.token)
		res, err := client.UpdateLog(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if res.Msg.AckIndex != index+int64(len(rows)) {
			b.Fatalf("ack %d after %d", res.Msg.AckIndex, index)
		}
		index = res.Msg.AckIndex
	}
}
