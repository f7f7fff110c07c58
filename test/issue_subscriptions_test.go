package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func TestIssueSubscriptions(t *testing.T) {
	t.Parallel()
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
			r := w.srv.Do("GET", trackerRepo+"/issues/1/subscriptions/check", nil, basicAs("exowner")...)
			var wi map[string]any
			r.Decode(t, &wi)
			is.Equal(wi["url"], w.srv.API+trackerRepo+"/issues/1/subscriptions")
			is.Equal(wi["repository_url"], w.srv.API+trackerRepo)
		})

		t.Run("subscribe and unsubscribe", func(t *testing.T) {
			is := is.New(t)
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/exstranger", nil, basicAs("exstranger")...), http.StatusCreated)
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/exstranger", nil, basicAs("exstranger")...), http.StatusOK)
			is.True(check(w.stranger))
			is.Equal(subscribers(), []string{"exowner", "exstranger"})
			// Only oneself, or a site admin, changes a subscription.
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/exwriter", nil, basicAs("exstranger")...), http.StatusForbidden)
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/exwriter", nil, adminHeader(w.srv)...), http.StatusCreated)
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/nobody", nil, adminHeader(w.srv)...), http.StatusNotFound)
			// The poster opts out.
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/subscriptions/exowner", nil, basicAs("exowner")...), http.StatusCreated)
			wantStatus(t, w.srv.Do("DELETE", trackerRepo+"/issues/1/subscriptions/exowner", nil, basicAs("exowner")...), http.StatusOK)
			is.True(!check(w.owner))
			is.Equal(subscribers(), []string{"exwriter", "exstranger"})
			wantStatus(t, w.srv.Do("PUT", trackerRepo+"/issues/1/subscriptions/exowner", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/issues/1/subscriptions/check", nil), http.StatusUnauthorized)
			wantStatus(t, w.srv.Do("GET", trackerRepo+"/issues/9/subscriptions", nil), http.StatusNotFound)
		})
	})
}
