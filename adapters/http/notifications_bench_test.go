package http_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// BenchmarkNotificationsNew is GET /notifications/new for a user with
// 5,000 threads (a fifth unread) in ten repositories, through the handler
// from every P and on 32 loopback keep-alive connections as `make bench`
// drives the server (goal: at least 10,000 req/s there): the per-repository
// unread counts come from the cache the writes to the user's threads drop,
// and one small query keeps out repositories the user may no longer see.
func BenchmarkNotificationsNew(b *testing.B) {
	a := newBenchApp(b)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var repoIDs []int64
	for k := range 10 {
		r, err := a.app.Repos.Create(ctx, auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
			repos.CreateInput{Name: fmt.Sprintf("watched-%d", k)})
		if err != nil {
			b.Fatal(err)
		}
		repoIDs = append(repoIDs, r.ID)
	}
	reader := &user.User{Name: "reader", LowerName: "reader", Kind: user.KindIndividual, Email: "reader@example.com",
		IsActive: true, Visibility: user.VisibilityPublic, Created: t0, Updated: t0}
	err := a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Users.Create(ctx, reader); err != nil {
			return err
		}
		threads := make([]notification.Thread, 0, 5000)
		for k := range 5000 {
			status := notification.StatusRead
			if k%5 == 0 {
				status = notification.StatusUnread
			}
			threads = append(threads, notification.Thread{UserID: reader.ID, RepoID: repoIDs[k%len(repoIDs)],
				Status: status, Subject: notification.SubjectIssue, IssueID: int64(k + 1), UpdatedBy: a.admin.ID,
				Created: t0, Updated: t0.Add(time.Duration(k) * time.Second)})
		}
		return tx.Notifications.Notify(ctx, threads)
	})
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := a.app.Users.Tokens().Create(ctx, reader.ID, "bench-notifications", []string{"read:notification"})
	if err != nil {
		b.Fatal(err)
	}
	h := http.Header{"Authorization": {"token " + secret}}
	const path = "/api/v1/notifications/new"
	b.Run("handler", func(b *testing.B) { benchLatency(b, a.app.HTTP, path, h) })
	b.Run("loopback", func(b *testing.B) {
		benchLoopback(b, a.app.HTTP, path, h)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
}
