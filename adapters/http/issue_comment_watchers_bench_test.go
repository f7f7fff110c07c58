package http_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// BenchmarkIssueCommentWatchers is POST R/issues/{index}/comments in a
// repository with no watchers and with 10,000: the notifications of the
// watchers are written by a job after the request (a fan-out queued in the
// comment's transaction), so both should cost the same.
func BenchmarkIssueCommentWatchers(b *testing.B) {
	for _, watchers := range []int{0, 10_000} {
		b.Run(fmt.Sprintf("watchers-%d", watchers), func(b *testing.B) {
			a := newBenchApp(b)
			r := seedIssues(b, a, "watched", 1)
			ctx := context.Background()
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			err := a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				for k := range watchers {
					login := fmt.Sprintf("watcher%05d", k)
					u := &user.User{Name: login, LowerName: login, Kind: user.KindIndividual, Email: login + "@example.com",
						IsActive: true, Visibility: user.VisibilityPublic, Created: t0, Updated: t0}
					if err := tx.Users.Create(ctx, u); err != nil {
						return err
					}
					if err := tx.Watches.Watch(ctx, u.ID, r.ID); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			_, secret, err := a.app.Users.Tokens().Create(ctx, a.admin.ID, "bench-comments", []string{"write:issue"})
			if err != nil {
				b.Fatal(err)
			}
			h := http.Header{"Authorization": {"token " + secret}}
			path := "/api/v1/repos/admin/watched/issues/1/comments"
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"body":"looks good"}`))
				req.Header.Set("Content-Type", "application/json")
				for k, v := range h {
					req.Header[k] = v
				}
				rec := httptest.NewRecorder()
				a.app.HTTP.ServeHTTP(rec, req)
				if rec.Code != http.StatusCreated {
					b.Fatalf("POST %s: %d %s", path, rec.Code, rec.Body)
				}
			}
		})
	}
}
