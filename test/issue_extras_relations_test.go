package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// issueIndexes lists the numbers of issues, in order.
func issueIndexes(list []*gitea.Issue) []int64 {
	out := make([]int64, len(list))
	for i, x := range list {
		out[i] = x.Index
	}
	return out
}

func TestIssueExtrasDependencies(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		for _, title := range []string{"one", "two", "three"} {
			w.issue(t, w.owner, title)
		}
		dep := func(user string, method, path string, index int64) testserver.Response {
			return w.srv.Do(method, exRepo+path, map[string]any{"owner": "exowner", "repo": "r", "index": index}, basicAs(user)...)
		}

		t.Run("add and list", func(t *testing.T) {
			is := is.New(t)
			got, _, err := w.writer.CreateIssueDependency("exowner", "r", 1, gitea.IssueMeta{Index: 2})
			is.NoErr(err)
			is.Equal(got.Index, int64(1))
			var blocked gitea.Issue
			r := dep("exwriter", "POST", "/issues/3/blocks", 2)
			wantStatus(t, r, http.StatusCreated)
			r.Decode(t, &blocked)
			is.Equal(blocked.Index, int64(3)) // #2 now depends on #3

			deps, _, err := w.stranger.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(deps), []int64{2})
			blocks, _, err := w.stranger.ListIssueBlocks("exowner", "r", 3, gitea.ListIssueBlocksOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(blocks), []int64{2})
		})

		t.Run("closing waits for dependencies", func(t *testing.T) {
			is := is.New(t)
			closed, open := "closed", "open"
			// #1 depends on #2, still open: Gitea's 412, and nothing changes.
			assertAPIError(t, w.srv.Do("PATCH", exRepo+"/issues/1", map[string]any{"state": closed}, basicAs("exowner")...),
				http.StatusPreconditionFailed, "cannot close this issue or pull request because it still has open dependencies")
			got, _, err := w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.Equal(got.State, gitea.StateOpen)
			// Once #2 (which depends on #3) may close and does, #1 closes.
			_, _, err = w.owner.EditIssue("exowner", "r", 3, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			_, _, err = w.owner.EditIssue("exowner", "r", 2, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			got, _, err = w.owner.EditIssue("exowner", "r", 1, gitea.EditIssueOption{State: (*gitea.StateType)(&closed)})
			is.NoErr(err)
			is.Equal(got.State, gitea.StateClosed)
			for _, i := range []int64{1, 2, 3} {
				_, _, err = w.owner.EditIssue("exowner", "r", i, gitea.EditIssueOption{State: (*gitea.StateType)(&open)})
				is.NoErr(err)
			}
		})

		t.Run("refusals", func(t *testing.T) {
			assertInvalid(t, dep("exwriter", "POST", "/issues/1/dependencies", 1), "Index")
			// #3 <- #2 <- #1: #3 depending on #1 would close a cycle.
			assertInvalid(t, dep("exwriter", "POST", "/issues/3/dependencies", 1), "Index")
			assertInvalid(t, dep("exwriter", "POST", "/issues/2/dependencies", 1), "Index")
			wantStatus(t, dep("exwriter", "POST", "/issues/1/dependencies", 2), http.StatusConflict)
			wantStatus(t, dep("exwriter", "POST", "/issues/1/dependencies", 99), http.StatusNotFound)
			wantStatus(t, dep("exwriter", "POST", "/issues/99/dependencies", 1), http.StatusNotFound)
			wantStatus(t, dep("exstranger", "POST", "/issues/1/dependencies", 3), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", exRepo+"/issues/1/dependencies", map[string]any{"index": 3}), http.StatusUnauthorized)
			// The other issue must be readable.
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "private", Private: true})
			w.issue2(t, "private")
			r := w.srv.Do("POST", exRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exwriter")...)
			wantStatus(t, r, http.StatusNotFound)
		})

		t.Run("across repositories", func(t *testing.T) {
			is := is.New(t)
			r := w.srv.Do("POST", exRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exowner")...)
			wantStatus(t, r, http.StatusCreated)
			// The writer cannot read the private repository: its issue is left out.
			deps, _, err := w.writer.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(issueIndexes(deps), []int64{2})
			deps, _, err = w.owner.ListIssueDependencies("exowner", "r", 1, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(len(deps), 2)
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/1/dependencies", map[string]any{"owner": "exowner", "repo": "private", "index": 1}, basicAs("exowner")...), http.StatusOK)
		})

		t.Run("remove", func(t *testing.T) {
			is := is.New(t)
			got, _, err := w.writer.RemoveIssueDependency("exowner", "r", 1, gitea.IssueMeta{Index: 2})
			is.NoErr(err)
			is.Equal(got.Index, int64(1))
			wantStatus(t, dep("exwriter", "DELETE", "/issues/1/dependencies", 2), http.StatusNotFound)
			wantStatus(t, dep("exwriter", "DELETE", "/issues/3/blocks", 2), http.StatusOK)
			deps, _, err := w.writer.ListIssueDependencies("exowner", "r", 2, gitea.ListIssueDependenciesOptions{})
			is.NoErr(err)
			is.Equal(len(deps), 0)
		})

		t.Run("dependencies off", func(t *testing.T) {
			w.tracker(t, true, true, false)
			wantStatus(t, w.srv.Do("GET", exRepo+"/issues/1/dependencies", nil), http.StatusNotFound)
			wantStatus(t, dep("exowner", "POST", "/issues/1/dependencies", 2), http.StatusNotFound)
			wantStatus(t, w.srv.Do("GET", exRepo+"/issues/1/blocks", nil), http.StatusOK)
		})
	})
}

// issue2 opens an issue in exowner/name as the owner.
func (w *trackerWorld) issue2(t *testing.T, name string) {
	t.Helper()
	if _, _, err := w.owner.CreateIssue("exowner", name, gitea.CreateIssueOption{Title: "x"}); err != nil {
		t.Fatalf("create issue: %v", err)
	}
}

func TestIssueExtrasSubscriptions(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		w.issue(t, w.owner, "one")
		check := func(c *gitea.Client) bool {
			t.Helper()
			wi, _, err := c.CheckIssueSubscription("exowner", "r", 1)
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			if wi.Subscribed == wi.Ignored {
				t.Fatalf("subscribed and ignored both %v", wi.Subscribed)
			}
			return wi.Subscribed
		}
		subscribers := func() []string {
			t.Helper()
			list, _, err := w.stranger.GetIssueSubscribers("exowner", "r", 1)
			if err != nil {
				t.Fatalf("subscribers: %v", err)
			}
			out := make([]string, len(list))
			for i, u := range list {
				out[i] = u.UserName
			}
			return out
		}

		t.Run("the poster is subscribed", func(t *testing.T) {
			is := is.New(t)
			is.True(check(w.owner))
			is.True(!check(w.stranger))
			is.Equal(subscribers(), []string{"exowner"})
			r := w.srv.Do("GET", exRepo+"/issues/1/subscriptions/check", nil, basicAs("exowner")...)
			var wi map[string]any
			r.Decode(t, &wi)
			is.Equal(wi["url"], w.srv.API+exRepo+"/issues/1/subscriptions")
			is.Equal(wi["repository_url"], w.srv.API+exRepo)
		})

		t.Run("subscribe and unsubscribe", func(t *testing.T) {
			is := is.New(t)
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/exstranger", nil, basicAs("exstranger")...), http.StatusCreated)
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/exstranger", nil, basicAs("exstranger")...), http.StatusOK)
			is.True(check(w.stranger))
			is.Equal(subscribers(), []string{"exowner", "exstranger"})
			// Only oneself, or a site admin, changes a subscription.
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/exwriter", nil, basicAs("exstranger")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/exwriter", nil, adminHeader(w.srv)...), http.StatusCreated)
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/nobody", nil, adminHeader(w.srv)...), http.StatusNotFound)
			// The poster opts out.
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/1/subscriptions/exowner", nil, basicAs("exowner")...), http.StatusCreated)
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/1/subscriptions/exowner", nil, basicAs("exowner")...), http.StatusOK)
			is.True(!check(w.owner))
			is.Equal(subscribers(), []string{"exwriter", "exstranger"})
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/subscriptions/exowner", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("GET", exRepo+"/issues/1/subscriptions/check", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("GET", exRepo+"/issues/9/subscriptions", nil), http.StatusNotFound)
		})
	})
}

func TestIssueExtrasPinsAndLocks(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		w := trackerSetup(t, opts...)
		for _, title := range []string{"one", "two", "three", "four"} {
			w.issue(t, w.owner, title)
		}
		pinned := func() ([]int64, []int64) {
			t.Helper()
			list, _, err := w.stranger.ListRepoPinnedIssues("exowner", "r")
			if err != nil {
				t.Fatalf("pinned: %v", err)
			}
			var raw []struct {
				PinOrder int64 `json:"pin_order"`
			}
			w.srv.Do("GET", exRepo+"/issues/pinned", nil).Decode(t, &raw)
			orders := make([]int64, len(raw))
			for i, x := range raw {
				orders[i] = x.PinOrder
			}
			return issueIndexes(list), orders
		}

		t.Run("pin, move, unpin", func(t *testing.T) {
			is := is.New(t)
			allowed, _, err := w.stranger.CheckPinAllowed("exowner", "r")
			is.NoErr(err)
			is.True(allowed.Issues && allowed.PullRequests)
			for i := int64(1); i <= 3; i++ {
				_, err := w.owner.PinIssue("exowner", "r", i)
				is.NoErr(err)
			}
			_, err = w.owner.PinIssue("exowner", "r", 2) // already pinned: nothing changes
			is.NoErr(err)
			allowed, _, err = w.stranger.CheckPinAllowed("exowner", "r")
			is.NoErr(err)
			is.True(!allowed.Issues && allowed.PullRequests)
			assertAPIError(t, w.srv.Do("POST", exRepo+"/issues/4/pin", nil, basicAs("exowner")...), http.StatusBadRequest, "")

			idx, orders := pinned()
			is.Equal(idx, []int64{1, 2, 3})
			is.Equal(orders, []int64{1, 2, 3})
			_, err = w.owner.MoveIssuePin("exowner", "r", 3, 1)
			is.NoErr(err)
			idx, orders = pinned()
			is.Equal(idx, []int64{3, 1, 2})
			is.Equal(orders, []int64{1, 2, 3})
			_, err = w.owner.UnpinIssue("exowner", "r", 1)
			is.NoErr(err)
			idx, orders = pinned()
			is.Equal(idx, []int64{3, 2})
			is.Equal(orders, []int64{1, 2})
			_, err = w.owner.UnpinIssue("exowner", "r", 1)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("PATCH", exRepo+"/issues/1/pin/1", nil, basicAs("exowner")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("PATCH", exRepo+"/issues/2/pin/0", nil, basicAs("exowner")...), http.StatusUnprocessableEntity)
			wantStatus(t, w.srv.Do("PATCH", exRepo+"/issues/2/pin/x", nil, basicAs("exowner")...), http.StatusBadRequest)
		})

		t.Run("pins need a repository admin", func(t *testing.T) {
			wantStatus(t, w.srv.Do("POST", exRepo+"/issues/4/pin", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/2/pin", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("PATCH", exRepo+"/issues/2/pin/1", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", exRepo+"/issues/4/pin", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("POST", exRepo+"/issues/99/pin", nil, basicAs("exowner")...), http.StatusNotFound)
		})

		t.Run("lock and unlock", func(t *testing.T) {
			is := is.New(t)
			_, err := w.owner.LockIssue("exowner", "r", 1, gitea.LockIssueOption{LockReason: "Spam"})
			is.NoErr(err)
			got, _, err := w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.True(got.IsLocked)
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/1/lock", map[string]any{"lock_reason": "Spam"}, basicAs("exowner")...), http.StatusAlreadyReported)
			assertAPIError(t, w.srv.Do("PUT", exRepo+"/issues/2/lock", map[string]any{"lock_reason": "boring"}, basicAs("exowner")...),
				http.StatusBadRequest, "reason not valid")
			wantStatus(t, w.srv.Do("PUT", exRepo+"/issues/2/lock", map[string]any{}, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/1/lock", nil, basicAs("exwriter")...), http.StatusForbidden)
			_, err = w.owner.UnlockIssue("exowner", "r", 1)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", exRepo+"/issues/1/lock", nil, basicAs("exowner")...), http.StatusAlreadyReported)
			got, _, err = w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.True(!got.IsLocked)
		})

		t.Run("private repository", func(t *testing.T) {
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "private", Private: true})
			w.issue2(t, "private")
			wantStatus(t, w.srv.Do("GET", "/repos/exowner/private/issues/pinned", nil, basicAs("exstranger")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("PUT", "/repos/exowner/private/issues/1/lock", map[string]any{}, basicAs("exstranger")...), http.StatusNotFound)
		})
	})
}
