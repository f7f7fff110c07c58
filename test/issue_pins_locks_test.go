package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func TestIssuePinsAndLocks(t *testing.T) {
	t.Parallel()
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
			w.srv.Do("GET", trackerRepo+"/issues/pinned", nil).Decode(t, &raw)
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
			assertAPIError(t, w.srv.Do("POST", trackerRepo+"/issues/4/pin", nil, basicAs("exowner")...), http.StatusBadRequest, "")

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
			wantStatus(t, w.srv.Do("PATCH", trackerRepo+"/issues/1/pin/1", nil, basicAs("exowner")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("PATCH", trackerRepo+"/issues/2/pin/0", nil, basicAs("exowner")...), http.StatusUnprocessableEntity)
			wantStatus(t, w.srv.Do("PATCH", trackerRepo+"/issues/2/pin/x", nil, basicAs("exowner")...), http.StatusBadRequest)
		})

		t.Run("pins need a repository admin", func(t *testing.T) {
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/4/pin", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/2/pin", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("PATCH", trackerRepo+"/issues/2/pin/1", nil, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/4/pin", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("POST", trackerRepo+"/issues/99/pin", nil, basicAs("exowner")...), http.StatusNotFound)
		})

		t.Run("lock and unlock", func(t *testing.T) {
			is := is.New(t)
			_, err := w.owner.LockIssue("exowner", "r", 1, gitea.LockIssueOption{LockReason: "Spam"})
			is.NoErr(err)
			got, _, err := w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.True(got.IsLocked)
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/lock", map[string]any{"lock_reason": "Spam"}, basicAs("exowner")...), http.StatusAlreadyReported)
			assertAPIError(t, w.srv.Do("PUT", trackerRepo+"/issues/2/lock", map[string]any{"lock_reason": "boring"}, basicAs("exowner")...),
				http.StatusBadRequest, "reason not valid")
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/2/lock", map[string]any{}, basicAs("exwriter")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/lock", nil, basicAs("exwriter")...), http.StatusForbidden)
			_, err = w.owner.UnlockIssue("exowner", "r", 1)
			is.NoErr(err)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/lock", nil, basicAs("exowner")...), http.StatusAlreadyReported)
			got, _, err = w.owner.GetIssue("exowner", "r", 1)
			is.NoErr(err)
			is.True(!got.IsLocked)
		})

		t.Run("private repository", func(t *testing.T) {
			createRepo(t, w.owner, gitea.CreateRepoOption{Name: "private", Private: true})
			w.openIssueIn(t, "private")
			wantStatus(t, w.srv.Do("GET", "/repos/exowner/private/issues/pinned", nil, basicAs("exstranger")...), http.StatusNotFound)
			wantStatus(t, w.srv.Do("PUT", "/repos/exowner/private/issues/1/lock", map[string]any{}, basicAs("exstranger")...), http.StatusNotFound)
		})
	})
}
