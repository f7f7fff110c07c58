package sqlstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// forkRow makes a fork of base owned by u straight through the store (no
// Git repository: a pull request list reads none of the head's).
func forkRow(ctx context.Context, tx ports.Stores, base *repository.Repository, u *user.User) (*repository.Repository, error) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &repository.Repository{
		Owner: repository.Owner{ID: u.ID, Name: u.Name, Kind: u.Kind, Visibility: u.Visibility},
		Name:  base.Name, LowerName: base.LowerName, ForkID: base.ID, Empty: true,
		DefaultBranch: repository.DefaultBranch, ObjectFormat: "sha1", Units: repository.DefaultUnits(),
		Merge: repository.DefaultMergeSettings(), Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
		Created: t0, Updated: t0,
	}
	return r, tx.Repos.Create(ctx, r)
}

// pullExtras is what a seeded pull request carries besides its rows.
type pullExtras struct {
	labelIDs    []int64
	milestoneID int64
	assigneeIDs []int64
}

// seedPull inserts pull request k of base: its issue and its row, from
// head (base itself or a fork), merged by merger when merger is not 0,
// with the labels, milestone and assignees of x.
func seedPull(ctx context.Context, tx ports.Stores, base, head *repository.Repository, posterID, merger int64, k int,
	x pullExtras) error {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(k) * time.Second)
	i := &issue.Issue{RepoID: base.ID, PosterID: posterID, IsPull: true, CreatedAt: at, UpdatedAt: at,
		Title: fmt.Sprintf("Change %d", k), Body: "Does a thing.", MilestoneID: x.milestoneID}
	if merger != 0 {
		i.SetState(issue.StateClosed, at)
	}
	if err := tx.Issues.Create(ctx, i); err != nil {
		return err
	}
	if len(x.labelIDs) > 0 {
		if err := tx.Labels.AddToIssue(ctx, i.ID, x.labelIDs); err != nil {
			return err
		}
	}
	if len(x.assigneeIDs) > 0 {
		if err := tx.Issues.SetAssignees(ctx, i.ID, x.assigneeIDs); err != nil {
			return err
		}
	}
	p := &pull.PullRequest{IssueID: i.ID, BaseRepoID: base.ID, Index: i.Index, HeadRepoID: head.ID,
		HeadBranch: fmt.Sprintf("topic-%d", k), BaseBranch: base.DefaultBranch,
		HeadCommitID: fmt.Sprintf("%040x", k+1),
		Check: pull.Check{Status: pull.StatusMergeable, MergeBase: fmt.Sprintf("%040x", 7),
			CommitsAhead: 1 + k%3, Additions: k % 50, Deletions: k % 7, ChangedFiles: 1 + k%4}}
	if merger != 0 {
		p.HasMerged, p.MergedAt, p.MergedByID, p.MergeCommitID = true, &at, merger, fmt.Sprintf("%040x", 1_000_000+k)
		p.Status = pull.StatusMergeable
	}
	return tx.Pulls.Create(ctx, p)
}

// TestPullListStatementCount pins that GET R/pulls?state=all costs as many
// statements for a page of 50 pull requests (same-repository and fork heads
// from several owners, open, merged by several users, with labels,
// milestones and assignees) as for a page of 5 or of one merged pull
// request from a fork: every lookup of a page is one batch, and every
// account the page shows (posters, assignees, mergers, the owners of the
// base and head repositories) is read in one.
// The only difference allowed is the paging's: a full page reads its total
// from the repository's counters, a short page knows it. Statements are
// counted wherever they run: through bun and through the prepared reads.
func TestPullListStatementCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app, admin, caller := statementApp(t, b)
			ctx := context.Background()
			one, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: "one", AutoInit: true})
			is.NoErr(err)
			many, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: "many", AutoInit: true})
			is.NoErr(err)

			var reader *user.User
			err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				people, err := createUsers(ctx, tx, "reader", "alice", "bob", "carol")
				if err != nil {
					return err
				}
				reader = people[0]
				alice, bob, carol := people[1], people[2], people[3]
				oneFork, err := forkRow(ctx, tx, one, alice)
				if err != nil {
					return err
				}
				oneLabel := &issue.Label{RepoID: one.ID, Name: "bug", Color: "ff0000"}
				if err := tx.Labels.Create(ctx, oneLabel); err != nil {
					return err
				}
				oneMilestone := &issue.Milestone{RepoID: one.ID, Title: "v1"}
				if err := tx.Milestones.Create(ctx, oneMilestone); err != nil {
					return err
				}
				if err := seedPull(ctx, tx, one, oneFork, alice.ID, bob.ID, 0, pullExtras{labelIDs: []int64{oneLabel.ID},
					milestoneID: oneMilestone.ID, assigneeIDs: []int64{carol.ID}}); err != nil {
					return err
				}
				var labels, milestones []int64
				for n := range 3 {
					l := &issue.Label{RepoID: many.ID, Name: fmt.Sprintf("kind/%d", n), Color: "00aabb"}
					if err := tx.Labels.Create(ctx, l); err != nil {
						return err
					}
					m := &issue.Milestone{RepoID: many.ID, Title: fmt.Sprintf("v%d", n)}
					if err := tx.Milestones.Create(ctx, m); err != nil {
						return err
					}
					labels, milestones = append(labels, l.ID), append(milestones, m.ID)
				}
				heads := []*repository.Repository{many}
				for _, u := range []*user.User{alice, bob, carol} {
					f, err := forkRow(ctx, tx, many, u)
					if err != nil {
						return err
					}
					heads = append(heads, f)
				}
				mergers := []int64{0, admin.ID, 0, bob.ID, 0, carol.ID}
				for k := range 60 {
					x := pullExtras{labelIDs: labels[:k%4], assigneeIDs: []int64{people[k%4].ID, admin.ID}[:k%3]}
					if k%5 != 0 {
						x.milestoneID = milestones[k%3]
					}
					if err := seedPull(ctx, tx, many, heads[k%len(heads)], people[1+k%3].ID, mergers[k%len(mergers)], k, x); err != nil {
						return err
					}
				}
				return nil
			})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, reader.ID, "pulls", []string{"read:repository", "read:issue"})
			is.NoErr(err)

			counter := newStatementCounter(t, app, secret)
			type measure struct {
				n     int64
				texts []string
				list  []*gitea.PullRequest
			}
			count := func(path string) measure {
				var list []*gitea.PullRequest
				n, texts := counter.countBuilt("repos/admin/"+path, &list)
				return measure{n, texts, list}
			}
			same := func(what string, a, b measure, extra int64) {
				t.Helper()
				if a.n+extra != b.n {
					t.Errorf("%s: %d statements for %d pull requests, %d for %d\n%s\n--\n%s", what, a.n, len(a.list), b.n, len(b.list),
						strings.Join(a.texts, "\n"), strings.Join(b.texts, "\n"))
				}
			}

			// Full pages: the total comes from the repository's counters.
			fullOne := count("many/pulls?state=all&limit=1")
			fullFive := count("many/pulls?state=all&limit=5")
			fullFifty := count("many/pulls?state=all&limit=50")
			// Short pages: the total is the page's own length.
			shortOne := count("one/pulls?state=all&limit=50")
			shortTen := count("many/pulls?state=all&limit=50&page=2")
			t.Logf("statements per page: full pages %d (1 pull request), %d (5) and %d (50); short pages %d (1) and %d (10)",
				fullOne.n, fullFive.n, fullFifty.n, shortOne.n, shortTen.n)
			is.Equal(len(fullOne.list), 1)
			is.Equal(len(fullFive.list), 5)
			is.Equal(len(fullFifty.list), 50)
			is.Equal(len(shortOne.list), 1)
			is.Equal(len(shortTen.list), 10)
			same("full pages", fullOne, fullFifty, 0)
			same("full pages of 5 and 50", fullFive, fullFifty, 0)
			same("short pages", shortOne, shortTen, 0)
			same("a full page over a short one", shortOne, fullFifty, 1) // the counters' read

			// The pages say what was seeded: fork heads, mergers, stored stats.
			for _, m := range []measure{fullOne, shortOne} {
				p := m.list[0]
				is.True(p.HasMerged)            // both single pull requests are merged…
				is.True(p.Head.Repository.Fork) // …from a fork
				is.True(p.MergedBy != nil)
			}
			is.Equal(shortOne.list[0].MergedBy.UserName, "bob")
			is.Equal(shortOne.list[0].Head.Repository.FullName, "alice/one")
			is.Equal(shortOne.list[0].Base.Repository.FullName, "admin/one")
			forks, merged := map[string]bool{}, map[string]bool{}
			for _, p := range fullFifty.list {
				forks[p.Head.Repository.FullName] = true
				if p.HasMerged {
					merged[p.MergedBy.UserName] = true
				}
				is.True(p.Base.Sha != "")                             // the base branch's tip, from Git
				is.True(p.ChangedFiles != nil && *p.ChangedFiles > 0) // stored, not recomputed
			}
			is.Equal(len(forks), 4)  // admin/many and three forks
			is.Equal(len(merged), 3) // admin, bob, carol
			// …and the labels, milestones and assignees, and the owners.
			withLabels, withMilestone, assignees := 0, 0, map[string]bool{}
			for _, p := range fullFifty.list {
				if len(p.Labels) > 0 {
					withLabels++
				}
				if p.Milestone != nil {
					withMilestone++
				}
				for _, a := range p.Assignees {
					assignees[a.UserName] = true
				}
				is.Equal(p.Base.Repository.Owner.UserName, "admin")
				is.Equal(p.Head.Repository.Owner.UserName, strings.SplitN(p.Head.Repository.FullName, "/", 2)[0])
			}
			is.True(withLabels > 25 && withLabels < 50)
			is.Equal(withMilestone, 40)
			is.Equal(len(assignees), 5) // reader, alice, bob, carol and admin
			is.Equal(fullFifty.list[0].Base.Sha, fullFive.list[0].Base.Sha)
		})
	}
}
