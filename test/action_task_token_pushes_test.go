package test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestActionTaskTokenPushes pushes a branch and a tag with the git CLI over
// HTTP, authenticated by a running task's GITEA_TOKEN: the pushes land,
// the webhooks name Gitea's actions user (id -2, gitea-actions) as pusher
// and sender, the push triggers no workflow run (as in Gitea, a workflow
// does not run itself again), the repository's feed records the pushes as
// the actions user's; once the task finished the token pushes nothing; on
// both backends.
func TestActionTaskTokenPushes(t *testing.T) {
	t.Parallel()
	backends(t, testActionTaskTokenPushes)
}

func testActionTaskTokenPushes(t *testing.T, opts ...testserver.Option) {
	srv := deliveryServer(t, opts...)
	socialAccounts(t, srv, "carol")
	repo := createRepoAs(t, srv, "carol", "ci", true)
	carol := userClient(srv, "carol")
	stores := srv.App.DB.Stores()
	rec := deliveryNewReceiver(t, nil)
	_, _, err := carol.CreateRepoHook("carol", "ci", gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
		Events: []string{"push", "create"}, Config: map[string]string{"url": rec.URL + "/hook", "content_type": "json"}})
	if err != nil {
		t.Fatalf("create hook: %v", err)
	}

	runner := registerRunner(t, srv, registrationToken(t, srv, "/repos/carol/ci/actions/runners/registration-token", asUser("carol")...), "box", "ubuntu-latest")
	work := httpGitWork(t, "main")
	httpGitOK(t, work, "remote", "add", "origin", httpGitURL(srv, "carol", "ci", "carol", userPassword))
	if err := os.MkdirAll(work+"/.gitea/workflows", 0o755); err != nil {
		t.Fatal(err)
	}
	httpGitCommit(t, work, ".gitea/workflows/build.yml", workflowArtifacts, "add build")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	task := runner.waitTask(t)
	token := task.Secrets["GITEA_TOKEN"]
	if len(token) != 40 {
		t.Fatalf("task token %q", token)
	}
	rec.wait(t, "/hook", 2) // carol's push and the branch's creation
	from := len(rec.requests("/hook"))

	clone := httpGitClone(t, httpGitURL(srv, "carol", "ci", "ci", token))
	var head string
	t.Run("the task's token pushes a branch and a tag", func(t *testing.T) {
		is := is.New(t)
		head = httpGitCommit(t, clone, "version.txt", "1.0.0\n", "bump version")
		httpGitOK(t, clone, "tag", "v1.0.0")
		httpGitOK(t, clone, "push", "-q", "origin", "main", "v1.0.0")
		is.Equal(httpGitRef(t, srv, "carol", "ci", "refs/heads/main"), head)
		is.Equal(httpGitRef(t, srv, "carol", "ci", "refs/tags/v1.0.0"), head)
	})

	t.Run("the webhooks name the actions user", func(t *testing.T) {
		is := is.New(t)
		got := rec.wait(t, "/hook", from+3)[from:] // the push of main, the push and the creation of the tag
		var pushes, creates int
		for _, g := range got {
			switch g.Header.Get("X-Gitea-Event") {
			case "push":
				pushes++
				p := deliveryDecode[deliveryPush](t, g.Body)
				is.Equal(p.After, head)
				for _, u := range []*gitea.User{p.Pusher, p.Sender} {
					is.Equal(u.ID, int64(-2))
					is.Equal(u.UserName, "gitea-actions")
					is.Equal(u.FullName, "Gitea Actions")
					is.True(strings.HasPrefix(u.Email, "gitea-actions@")) // the placeholder, not an address
					is.True(u.Email != "teabot@gitea.io")
				}
			case "create":
				creates++
				p := deliveryDecode[deliveryRef](t, g.Body)
				is.Equal(p.Ref, "v1.0.0")
				is.Equal(p.Sender.ID, int64(-2))
				is.Equal(p.Sender.UserName, "gitea-actions")
			}
		}
		is.Equal(pushes, 2)
		is.Equal(creates, 1)
	})

	t.Run("the push triggers no run and the feeds still answer", func(t *testing.T) {
		is := is.New(t)
		// A push of carol's queues its runs behind the token's push, in
		// push order: once it has its run, the token's push made none.
		httpGitOK(t, clone, "pull", "-q", "origin", "main")
		httpGitOK(t, work, "pull", "-q", "--ff-only", "origin", "main")
		httpGitCommit(t, work, "README.md", "again\n", "carol again")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		runs := waitRuns(t, stores, repo.ID, 2)
		list, total, err := stores.ActionRuns.ListRuns(t.Context(), repo.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(2))
		for _, r := range list {
			is.True(r.TriggerUserID != -2)
		}
		is.Equal(len(runs), 2)
		r := srv.Do("GET", "/repos/carol/ci/activities/feeds", nil, asUser("carol")...)
		is.Equal(r.Status, http.StatusOK)
		var feeds []*gitea.Activity
		r.Decode(t, &feeds)
		// The token's pushes are recorded as the actions user's, as Gitea
		// records them: the branch moved and the tag pushed.
		byActions := map[string]string{}
		for _, f := range feeds {
			if f.ActUserID == -2 {
				is.True(f.ActUser != nil)
				is.Equal(f.ActUser.UserName, "gitea-actions")
				byActions[string(f.OpType)] = f.RefName
			}
		}
		is.Equal(byActions, map[string]string{"commit_repo": "refs/heads/main", "push_tag": "refs/tags/v1.0.0"})
	})

	t.Run("a finished task's token pushes nothing", func(t *testing.T) {
		is := is.New(t)
		_, err := runner.client.UpdateTask(t.Context(), runnerRequest(runner, &runnerv1.UpdateTaskRequest{
			State: &runnerv1.TaskState{Id: task.Id, Result: runnerv1.Result_RESULT_SUCCESS}}))
		is.NoErr(err)
		got, err := stores.ActionTasks.Get(t.Context(), task.Id)
		is.NoErr(err)
		is.Equal(got.Status, actions.StatusSuccess)
		httpGitCommit(t, clone, "late.txt", "late\n", "too late")
		out := httpGitFails(t, clone, "push", "-q", "origin", "main")
		is.True(strings.Contains(out, "401") || strings.Contains(out, "Authentication failed") || strings.Contains(out, "could not read"))
	})
}
