package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestStatusesWarningFailsCombined replays the SDK's own status test
// (code.gitea.io/sdk/gitea v0.25.1, tests/status_test.go): five statuses on
// one commit whose latest per context are success (ultraCI) and warning
// (warn/bot) combine to "failure". Gitea 1.27's rule
// (modules/commitstatus CommitStatusStates.Combine, go-gitea/gitea#37048
// "treat warning as error"): "case state.IsError() || state.IsFailure() ||
// state.IsWarning(): return CommitStatusFailure"; success and skipped count
// as passed; all passed is success; otherwise pending.
func TestStatusesWarningFailsCombined(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		f := statusesSetup(t, opts...)
		sha := f.second
		seq := []struct {
			url, desc, context string
			state              gitea.StatusState
		}{
			{"http://dummy.test", "start testing", "ultraCI", gitea.StatusPending},
			{"https://more.secure", "just a warning", "warn/bot", gitea.StatusWarning},
			{"http://dummy.test", "test failed", "ultraCI", gitea.StatusFailure},
			{"http://dummy.test", "start testing", "ultraCI", gitea.StatusPending},
			{"http://dummy.test", "test passed", "ultraCI", gitea.StatusSuccess},
		}
		for _, s := range seq {
			st := statusesCreate(t, f, sha, gitea.CreateStatusOption{State: s.state, TargetURL: s.url, Description: s.desc, Context: s.context})
			is.Equal(st.State, s.state)
		}
		statuses, _, err := f.alice.ListStatuses("alice", "ci", sha, gitea.ListStatusesOption{})
		is.NoErr(err)
		is.Equal(len(statuses), 5)

		combined, resp, err := f.alice.GetCombinedStatus("alice", "ci", sha)
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(combined.TotalCount, 2)
		is.Equal(combined.State, gitea.StatusState("failure"))
		is.Equal(len(combined.Statuses), 2)

		// The warning cleared: success.
		statusesCreate(t, f, sha, gitea.CreateStatusOption{State: gitea.StatusSuccess, Context: "warn/bot"})
		combined, _, err = f.alice.GetCombinedStatus("alice", "ci", "main")
		is.NoErr(err)
		is.Equal(combined.State, gitea.StatusSuccess)
		// A skipped context still passes; a pending one holds it.
		statusesCreate(t, f, sha, gitea.CreateStatusOption{State: "skipped", Context: "docs"})
		combined, _, err = f.alice.GetCombinedStatus("alice", "ci", sha)
		is.NoErr(err)
		is.Equal(combined.State, gitea.StatusSuccess)
		statusesCreate(t, f, sha, gitea.CreateStatusOption{State: gitea.StatusPending, Context: "deploy"})
		combined, _, err = f.alice.GetCombinedStatus("alice", "ci", sha)
		is.NoErr(err)
		is.Equal(combined.State, gitea.StatusPending)
		// A warning beats pending.
		statusesCreate(t, f, sha, gitea.CreateStatusOption{State: gitea.StatusWarning, Context: "docs"})
		combined, _, err = f.alice.GetCombinedStatus("alice", "ci", sha)
		is.NoErr(err)
		is.Equal(combined.State, gitea.StatusFailure)
	})
}
