package http_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// BenchmarkIssueComments is GET R/issues/{index}/comments for an issue of
// twenty comments by five authors, each with a reaction-free body of a few
// lines (goal: ≤ 0.5 ms of CPU per request: cpu's cpu-ms/op, or the
// handler's ns/op on one core's share on a quiet machine).
func BenchmarkIssueComments(b *testing.B) {
	a := newBenchApp(b)
	r := seedIssues(b, a, "commented", 10)
	ctx := context.Background()
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	var index int64
	err := a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		authors := []int64{a.admin.ID}
		for k := range 4 {
			u := &user.User{Name: fmt.Sprintf("author%d", k), LowerName: fmt.Sprintf("author%d", k),
				Email: fmt.Sprintf("author%d@example.com", k), Visibility: user.VisibilityPublic, IsActive: true}
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
			authors = append(authors, u.ID)
		}
		i := &issue.Issue{RepoID: r.ID, PosterID: a.admin.ID, Title: "Discussed", Body: "Body", CreatedAt: t0, UpdatedAt: t0}
		if err := tx.Issues.Create(ctx, i); err != nil {
			return err
		}
		index = i.Index
		for k := range 20 {
			at := t0.Add(time.Duration(k) * time.Minute)
			c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: r.ID, PosterID: authors[k%len(authors)],
				Body: fmt.Sprintf("Comment %d.\n\nI tried `make test` again and it still fails on step %d.", k, k), CreatedAt: at, UpdatedAt: at}
			if err := tx.Comments.Create(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := a.app.Users.Tokens().Create(ctx, a.admin.ID, "bench-issues", []string{"read:issue", "read:repository"})
	if err != nil {
		b.Fatal(err)
	}
	h := http.Header{"Authorization": {"token " + secret}}
	path := fmt.Sprintf("/api/v1/repos/admin/commented/issues/%d/comments", index)
	b.Run("handler", func(b *testing.B) { benchLatency(b, a.app.HTTP, path, h) })
	b.Run("cpu", func(b *testing.B) { benchCPU(b, a.app.HTTP, path, h) })
}
