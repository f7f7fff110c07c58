package http_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// seedPulls makes repository name of the administrator's (with a main
// branch, whose tip the list shows) and inserts n pull requests into it
// through the stores, 5,000 per transaction: their issues (counters
// included) and rows with stored check results. One in four comes from
// one of three forks owned by other users; one in five is merged (and
// closed) by one of those users; the rest are open, from the repository's
// own branches.
func seedPulls(b *testing.B, a benchApp, name string, n int) *repository.Repository {
	b.Helper()
	ctx := context.Background()
	base, err := a.app.Repos.Create(ctx, auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
		repos.CreateInput{Name: name, AutoInit: true})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	heads := []*repository.Repository{base}
	var people []*user.User
	err = a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for k := range 3 {
			login := fmt.Sprintf("%s-dev%d", name, k)
			u := &user.User{Name: login, LowerName: login, Kind: user.KindIndividual, Email: login + "@example.com",
				IsActive: true, Visibility: user.VisibilityPublic, Created: t0, Updated: t0}
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
			people = append(people, u)
			f := &repository.Repository{
				Owner: repository.Owner{ID: u.ID, Name: u.Name, Kind: u.Kind, Visibility: u.Visibility},
				Name:  name, LowerName: name, ForkID: base.ID, Empty: true, DefaultBranch: repository.DefaultBranch,
				ObjectFormat: "sha1", Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
				Tracker: repository.IssueTracker{Style: repository.TrackerNumeric}, Created: t0, Updated: t0,
			}
			if err := tx.Repos.Create(ctx, f); err != nil {
				return err
			}
			heads = append(heads, f)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	const batch = 5000
	for start := 0; start < n; start += batch {
		err := a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for k := start; k < min(n, start+batch); k++ {
				at := t0.Add(time.Duration(k) * time.Second)
				poster := a.admin.ID
				if k%4 == 0 {
					poster = people[k%3].ID
				}
				i := &issue.Issue{RepoID: base.ID, PosterID: poster, IsPull: true, CreatedAt: at, UpdatedAt: at,
					Title: fmt.Sprintf("Change %d about %s", k, benchIssueWord(k*7)),
					Body:  fmt.Sprintf("Reworks %s and %s.", benchIssueWord(k*13), benchIssueWord(k*31))}
				merged := k%5 == 0
				if merged {
					i.SetState(issue.StateClosed, at)
				}
				if err := tx.Issues.Create(ctx, i); err != nil {
					return err
				}
				head := heads[0]
				if k%4 == 0 {
					head = heads[1+k%3]
				}
				p := &pull.PullRequest{IssueID: i.ID, BaseRepoID: base.ID, Index: i.Index, HeadRepoID: head.ID,
					HeadBranch: fmt.Sprintf("topic-%d", k), BaseBranch: base.DefaultBranch,
					HeadCommitID: fmt.Sprintf("%040x", k+1),
					Check: pull.Check{Status: pull.StatusMergeable, MergeBase: fmt.Sprintf("%040x", 7),
						CommitsAhead: 1 + k%9, CommitsBehind: k % 4, Additions: k % 300, Deletions: k % 70, ChangedFiles: 1 + k%12}}
				if merged {
					p.HasMerged, p.MergedAt, p.MergedByID = true, &at, people[k%3].ID
					p.MergeCommitID = fmt.Sprintf("%040x", 1_000_000+k)
				}
				if err := tx.Pulls.Create(ctx, p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return base
}

// BenchmarkListPulls is GET R/pulls?limit=50 on a repository of 10,000
// pull requests (open ones, a quarter from forks, newest first, with
// X-Total-Count): through the handler from every P, and on 32 loopback
// keep-alive connections as `make bench` drives the server (goal: at
// least 2,000 req/s there). Then every state (merged pull requests and
// their mergers on the page) and a deep page.
func BenchmarkListPulls(b *testing.B) {
	a := newBenchApp(b)
	seedPulls(b, a, "pulls-10k", 10_000)
	h := a.repoToken(b)
	const path = "/api/v1/repos/admin/pulls-10k/pulls"
	b.Run("handler", func(b *testing.B) { benchLatency(b, a.app.HTTP, path+"?limit=50", h) })
	b.Run("loopback", func(b *testing.B) {
		benchLoopback(b, a.app.HTTP, path+"?limit=50", h)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
	b.Run("all-states", func(b *testing.B) { benchLatency(b, a.app.HTTP, path+"?state=all&limit=50", h) })
	b.Run("page-100", func(b *testing.B) { benchLatency(b, a.app.HTTP, path+"?state=all&limit=50&page=100", h) })
}
