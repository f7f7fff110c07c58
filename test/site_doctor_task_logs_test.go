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
	"github.com/matryer/is"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/depothq/depot/test/testserver"
)

// TestSiteDoctorTaskLogs finishes an Actions task so that its log moves
// to its file, then loses that file and leaves log files of tasks no row
// has, and checks that the doctor reports the task whose log is gone
// (naming its job) and the orphans, not a log being written, and exits
// non-zero; that --fix removes the orphans and leaves the lost log
// reported (its rows were deleted once the file was synced); and that once
// the file is put back from a backup the doctor is clean and the job's log
// reads as before.
func TestSiteDoctorTaskLogs(t *testing.T) {
	bin := cliBuildDepot(t)
	doctorBackends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		is := is.New(t)
		ctx := t.Context()
		stores := srv.App.DB.Stores()
		socialAccounts(t, srv, "carol")
		createRepoAs(t, srv, "carol", "ci", true)
		runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
		work := httpGitWork(t, "main")
		httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
		is.NoErr(os.MkdirAll(work+"/.gitea/workflows", 0o755))
		httpGitCommit(t, work, ".gitea/workflows/build.yml", workflowArtifacts, "add build")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		task := runner.waitTask(t)
		_, err := runner.client.UpdateLog(ctx, runnerRequest(runner, &runnerv1.UpdateLogRequest{TaskId: task.Id,
			Rows: []*runnerv1.LogRow{{Time: timestamppb.Now(), Content: "building"}, {Time: timestamppb.Now(), Content: "built"}}}))
		is.NoErr(err)
		_, err = runner.client.UpdateTask(ctx, runnerRequest(runner, &runnerv1.UpdateTaskRequest{
			State: &runnerv1.TaskState{Id: task.Id, Result: runnerv1.Result_RESULT_SUCCESS}}))
		is.NoErr(err)
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
		got, err := stores.ActionTasks.Get(ctx, task.Id)
		is.NoErr(err)
		logPath := "/repos/carol/ci/actions/jobs/" + strconv.FormatInt(got.JobID, 10) + "/logs"
		before := srv.Do("GET", logPath, nil, asUser("carol")...)
		is.Equal(before.Status, http.StatusOK)
		is.True(strings.Contains(string(before.Body), "built"))
		logFile := func(id int64) string {
			return filepath.Join(srv.DataDir, "actions_log", fmt.Sprintf("%02x", id%256), strconv.FormatInt(id, 10)+".log.zst")
		}

		args := append([]string{"doctor", "--skip-fsck", "--data-dir", srv.DataDir}, backupDBArgs(srv.DSN)...)
		r := backupDepot(t, bin, args...)
		t.Logf("doctor on a healthy site:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))

		saved, err := os.ReadFile(logFile(task.Id))
		is.NoErr(err)
		is.NoErr(os.Remove(logFile(task.Id)))
		const orphanA, orphanB = 999999, 999744 // two folders, one name each
		doctorWrite(t, logFile(orphanA), saved, time.Minute)
		doctorWrite(t, logFile(orphanB), saved, time.Minute)
		// A log being written (placeFile's temporary name) is not a log.
		writing := filepath.Join(filepath.Dir(logFile(orphanA)), ".upload-7.tmp")
		doctorWrite(t, writing, []byte("half"), 0)

		r = backupDepot(t, bin, args...)
		t.Logf("doctor:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0)
		is.True(strings.Contains(r.stdout, "blob-orphan: task log 999999: no Actions task row names it\n"))
		is.True(strings.Contains(r.stdout, "blob-orphan: task log 999744: no Actions task row names it\n"))
		missing := fmt.Sprintf("blob-missing: task log %d: job %d (\"build\") of carol/ci: its log was moved to a file that is gone\n",
			task.Id, got.JobID)
		is.True(strings.Contains(r.stdout, missing))
		is.True(!strings.Contains(r.stdout, ".upload-7.tmp"))
		is.True(strings.Contains(r.stderr, "3 problem(s) remain"))

		r = backupDepot(t, bin, append(args, "--fix")...)
		t.Logf("doctor --fix:\n%s%s", r.stdout, r.stderr)
		is.True(r.code != 0) // the lost log is still lost
		is.True(strings.Contains(r.stdout, "task log 999999: no Actions task row names it (fixed)\n"))
		is.True(strings.Contains(r.stdout, "task log 999744: no Actions task row names it (fixed)\n"))
		is.True(strings.Contains(r.stdout, missing))
		is.True(strings.Contains(r.stderr, "1 problem(s) remain"))
		for _, id := range []int64{orphanA, orphanB} {
			_, err := os.Stat(logFile(id))
			is.True(os.IsNotExist(err))
		}
		_, err = os.Stat(writing)
		is.NoErr(err) // being written: left alone

		// The admin puts the log back from a backup.
		doctorWrite(t, logFile(task.Id), saved, 0)
		r = backupDepot(t, bin, args...)
		t.Logf("doctor after the log came back:\n%s%s", r.stdout, r.stderr)
		is.Equal(r.code, 0)
		is.True(strings.Contains(r.stdout, "no problem remains"))
		after := srv.Do("GET", logPath, nil, asUser("carol")...)
		is.Equal(after.Status, http.StatusOK)
		is.True(bytes.Equal(after.Body, before.Body))
	})
}
