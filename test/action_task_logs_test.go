package test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"connectrpc.com/connect"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// TestActionTaskLogsArchived sends a log of several pages through
// UpdateLog, reads it while the task runs, finishes the task and checks
// that its rows leave the database for one compressed file, that the log
// is then served byte for byte as before, and that more rows for it are
// refused; on both backends.
func TestActionTaskLogsArchived(t *testing.T) {
	t.Parallel()
	backends(t, testActionTaskLogsArchived)
}

func testActionTaskLogsArchived(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol")
	createRepoAs(t, srv, "carol", "ci", true)
	stores := srv.App.DB.Stores()
	ctx := t.Context()
	runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	is.NoErr(os.MkdirAll(work+"/.gitea/workflows", 0o755))
	httpGitCommit(t, work, ".gitea/workflows/build.yml", workflowArtifacts, "add build")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	task := runner.waitTask(t)

	// 2500 rows: more than two pages of the reads that stream them.
	start := time.Date(2026, 11, 29, 8, 0, 0, 123456700, time.UTC)
	var index int64
	for batch := 0; batch < 5; batch++ {
		rows := make([]*runnerv1.LogRow, 500)
		for i := range rows {
			n := batch*500 + i
			rows[i] = &runnerv1.LogRow{Time: timestamppb.New(start.Add(time.Duration(n) * time.Millisecond)),
				Content: "step " + strconv.Itoa(n) + " ✓ " + strings.Repeat("x", n%70)}
		}
		res, err := runner.client.UpdateLog(ctx, runnerRequest(runner, &runnerv1.UpdateLogRequest{TaskId: task.Id, Index: index, Rows: rows}))
		is.NoErr(err)
		index = res.Msg.AckIndex
	}
	is.Equal(index, int64(2500))

	job, err := stores.ActionTasks.Get(ctx, task.Id)
	is.NoErr(err)
	logPath := "/repos/carol/ci/actions/jobs/" + strconv.FormatInt(job.JobID, 10) + "/logs"
	live := srv.Do("GET", logPath, nil, asUser("carol")...)
	is.Equal(live.Status, http.StatusOK)
	lines := strings.Split(strings.TrimSuffix(string(live.Body), "\n"), "\n")
	is.Equal(len(lines), 2500)
	is.Equal(lines[1], "2026-11-29T08:00:00.1244560Z step 1 ✓ x") // stored to the microsecond

	_, err = runner.client.UpdateTask(ctx, runnerRequest(runner, &runnerv1.UpdateTaskRequest{
		State: &runnerv1.TaskState{Id: task.Id, Result: runnerv1.Result_RESULT_SUCCESS}}))
	is.NoErr(err)

	// The move runs on the job queue: wait for it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := stores.ActionTasks.Get(ctx, task.Id)
		is.NoErr(err)
		if got.LogArchived {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the finished task's log was not archived")
		}
		time.Sleep(20 * time.Millisecond)
	}
	n, err := stores.ActionTasks.LogLength(ctx, task.Id)
	is.NoErr(err)
	is.Equal(n, int64(0)) // the rows are gone
	file := filepath.Join(srv.DataDir, "actions_log", fmt.Sprintf("%02x", task.Id%256), strconv.FormatInt(task.Id, 10)+".log.zst")
	st, err := os.Stat(file)
	is.NoErr(err)
	is.True(st.Size() > 0 && st.Size() < int64(len(live.Body))/4) // compressed

	archived := srv.Do("GET", logPath, nil, asUser("carol")...)
	is.Equal(archived.Status, http.StatusOK)
	is.Equal(archived.Header.Get("Content-Type"), "text/plain; charset=utf-8")
	is.True(bytes.Equal(archived.Body, live.Body)) // byte for byte

	_, err = runner.client.UpdateLog(ctx, runnerRequest(runner, &runnerv1.UpdateLogRequest{TaskId: task.Id, Index: 2500,
		Rows: []*runnerv1.LogRow{{Time: timestamppb.Now(), Content: "late"}}}))
	assertCode(t, err, connect.CodeInvalidArgument)
	got, err := stores.ActionTasks.Get(ctx, task.Id)
	is.NoErr(err)
	is.Equal(got.Status, actions.StatusSuccess)
}
