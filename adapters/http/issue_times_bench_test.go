package http_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// BenchmarkMyTrackedTimes is GET /user/times?limit=50 for a user with one
// tracked time in each of 40 repositories: the page's issues, their
// repositories and the caller's access to them are read in batches, so the
// cost must not grow with the number of repositories on the page.
func BenchmarkMyTrackedTimes(b *testing.B) {
	a := newBenchApp(b)
	ctx := context.Background()
	caller := auth.Caller{User: a.admin, Method: auth.MethodToken}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := range 40 {
		r, err := a.app.Repos.Create(ctx, caller, a.admin, repos.CreateInput{Name: fmt.Sprintf("times-%02d", k)})
		if err != nil {
			b.Fatal(err)
		}
		err = a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			at := t0.Add(time.Duration(k) * time.Minute)
			i := &issue.Issue{RepoID: r.ID, PosterID: a.admin.ID, Title: "tracked", CreatedAt: at, UpdatedAt: at}
			if err := tx.Issues.Create(ctx, i); err != nil {
				return err
			}
			return tx.TrackedTimes.Add(ctx, &issue.TrackedTime{IssueID: i.ID, UserID: a.admin.ID, Seconds: 60, CreatedAt: at})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	benchLatency(b, a.app.HTTP, "/api/v1/user/times?limit=50", http.Header{"Authorization": {"token " + a.token}})
}
