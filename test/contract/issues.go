package contract

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// issue makes an issue of the repository, created at minute m.
func (f *fixture) issue(repoID, posterID int64, title, body string, m int, edit ...func(i *issue.Issue)) *issue.Issue {
	f.t.Helper()
	i := &issue.Issue{RepoID: repoID, PosterID: posterID, Title: title, Body: body, CreatedAt: at(m), UpdatedAt: at(m)}
	for _, e := range edit {
		e(i)
	}
	if err := f.Issues.Create(f.ctx, i); err != nil {
		f.t.Fatalf("create issue %q: %v", title, err)
	}
	if i.ID == 0 || i.Index == 0 {
		f.t.Fatalf("create issue %q: id or index not set", title)
	}
	return i
}

func closedIssue(i *issue.Issue) {
	c := i.CreatedAt.Add(time.Minute)
	i.IsClosed, i.ClosedAt = true, &c
}

func pullIssue(i *issue.Issue) { i.IsPull = true }

// issueTitles lists the titles of a listing, in its order.
func issueTitles(list []*issue.Issue) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x.Title
	}
	return out
}

// list runs q and fails the test on error.
func (f *fixture) listIssues(q ports.IssueQuery) ([]string, int64) {
	f.t.Helper()
	list, total, err := f.Issues.List(f.ctx, q)
	if err != nil {
		f.t.Fatalf("list issues %+v: %v", q, err)
	}
	return issueTitles(list), total
}

// issueCounters reads a repository's open issue and pull counters.
func (f *fixture) issueCounters(repoID int64) [4]int {
	f.t.Helper()
	r := f.getRepo(repoID)
	return [4]int{r.NumIssues, r.NumClosedIssues, r.NumPulls, r.NumClosedPulls}
}

func boolPtr(b bool) *bool { return &b }

var issueTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetRoundTrip": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		due := at(50)
		i := f.issue(r.ID, alice.ID, "Crash on start", "It crashes.", 1, func(i *issue.Issue) {
			i.Ref, i.IsLocked, i.PinOrder, i.Deadline, i.NumComments = "refs/heads/main", true, 2, &due, 0
			closedIssue(i)
		})
		is.Equal(i.Index, int64(1))

		got, err := f.Issues.GetByID(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(got, i) // every field round-trips
		byIndex, err := f.Issues.GetByIndex(f.ctx, r.ID, 1)
		is.NoErr(err)
		is.Equal(byIndex, i)

		second := f.issue(r.ID, alice.ID, "Second", "", 2, pullIssue)
		is.Equal(second.Index, int64(2)) // pulls share the index
		many, err := f.Issues.GetByIDs(f.ctx, []int64{second.ID, i.ID, 999999})
		is.NoErr(err)
		is.Equal(issueTitles(many), []string{"Crash on start", "Second"})
		none, err := f.Issues.GetByIDs(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(none), 0)

		_, err = f.Issues.GetByID(f.ctx, 999999)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Issues.GetByIndex(f.ctx, r.ID, 3)
		is.True(errors.Is(err, errs.ErrNotFound))
		err = f.Issues.Create(f.ctx, &issue.Issue{RepoID: 999999, PosterID: alice.ID, Title: "x", CreatedAt: at(1), UpdatedAt: at(1)})
		is.True(errors.Is(err, errs.ErrNotFound)) // no such repository

		// Indexes are per repository.
		other := f.repo(alice, "other")
		is.Equal(f.issue(other.ID, alice.ID, "first there", "", 3).Index, int64(1))
		is.Equal(f.issueCounters(r.ID), [4]int{1, 1, 1, 0})
		is.Equal(f.issueCounters(other.ID), [4]int{1, 0, 0, 0})
	},

	"ConcurrentIndexes": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		const workers, each = 20, 10
		var wg sync.WaitGroup
		idx := make(chan int64, workers*each)
		errc := make(chan error, workers*each)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < each; k++ {
					i := &issue.Issue{RepoID: r.ID, PosterID: alice.ID, Title: fmt.Sprintf("w%d-%d", w, k),
						CreatedAt: at(1), UpdatedAt: at(1)}
					err := f.tx.InTx(f.ctx, func(ctx2 context.Context, tx ports.Stores) error { return tx.Issues.Create(ctx2, i) })
					if err != nil {
						errc <- err
						continue
					}
					idx <- i.Index
				}
			}()
		}
		wg.Wait()
		close(idx)
		close(errc)
		for err := range errc {
			t.Fatalf("create: %v", err)
		}
		var got []int
		for i := range idx {
			got = append(got, int(i))
		}
		sort.Ints(got)
		is.Equal(len(got), workers*each)
		for k, v := range got {
			is.Equal(v, k+1) // 1..200, no gap, no duplicate
		}
		is.Equal(f.issueCounters(r.ID), [4]int{workers * each, 0, 0, 0})
	},

	"UpdateTouchDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		bob := f.user("bob")
		r := f.repo(alice, "app")
		i := f.issue(r.ID, alice.ID, "Old", "old body", 1)
		keep := f.issue(r.ID, alice.ID, "Keep", "", 2)
		is.Equal(f.issueCounters(r.ID), [4]int{2, 0, 0, 0})

		due := at(55)
		i.Title, i.Body, i.Ref, i.MilestoneID, i.Deadline, i.UpdatedAt = "New", "new body", "v1", 0, &due, at(5)
		closedIssue(i)
		i.NumComments = 7 // the comment store's counter is not Update's to write
		is.NoErr(f.Issues.Update(f.ctx, i))
		got, err := f.Issues.GetByID(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(got.NumComments, 0)
		got.NumComments = 7
		is.Equal(got, i)
		is.Equal(f.issueCounters(r.ID), [4]int{2, 1, 0, 0})

		// Reopening and turning into a pull moves the counters along.
		i.IsClosed, i.ClosedAt = false, nil
		is.NoErr(f.Issues.Update(f.ctx, i))
		is.Equal(f.issueCounters(r.ID), [4]int{2, 0, 0, 0})
		i.IsPull = true
		is.NoErr(f.Issues.Update(f.ctx, i))
		is.Equal(f.issueCounters(r.ID), [4]int{1, 0, 1, 0})
		i.IsPull = false
		is.NoErr(f.Issues.Update(f.ctx, i))

		is.NoErr(f.Issues.Touch(f.ctx, i.ID, at(9)))
		got, err = f.Issues.GetByID(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(got.UpdatedAt, at(9))
		is.True(errors.Is(f.Issues.Touch(f.ctx, 999999, at(9)), errs.ErrNotFound))
		is.True(errors.Is(f.Issues.Update(f.ctx, &issue.Issue{ID: 999999, Title: "x"}), errs.ErrNotFound))

		is.NoErr(f.Issues.SetAssignees(f.ctx, i.ID, []int64{bob.ID}))
		is.NoErr(f.Issues.Delete(f.ctx, i.ID))
		_, err = f.Issues.GetByID(f.ctx, i.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		as, err := f.Issues.Assignees(f.ctx, []int64{i.ID})
		is.NoErr(err)
		is.Equal(len(as[i.ID]), 0) // cascaded
		is.True(errors.Is(f.Issues.Delete(f.ctx, i.ID), errs.ErrNotFound))
		is.Equal(f.issueCounters(r.ID), [4]int{1, 0, 0, 0})
		titles, total := f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: "new"})
		is.Equal(titles, []string{}) // gone from the search index too
		is.Equal(total, int64(0))

		// The next index continues after the highest ever given.
		is.Equal(f.issue(r.ID, alice.ID, "Next", "", 3).Index, keep.Index+1)
		is.NoErr(f.Issues.RecountRepo(f.ctx, r.ID))
		is.Equal(f.issueCounters(r.ID), [4]int{2, 0, 0, 0})
		is.True(errors.Is(f.Issues.RecountRepo(f.ctx, 999999), errs.ErrNotFound))
	},

	"Assignees": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		r := f.repo(alice, "app")
		a := f.issue(r.ID, alice.ID, "A", "", 1)
		b := f.issue(r.ID, alice.ID, "B", "", 2)
		is.NoErr(f.Issues.SetAssignees(f.ctx, a.ID, []int64{carol.ID, bob.ID, carol.ID}))
		is.NoErr(f.Issues.SetAssignees(f.ctx, b.ID, []int64{alice.ID}))
		got, err := f.Issues.Assignees(f.ctx, []int64{a.ID, b.ID})
		is.NoErr(err)
		is.Equal(got[a.ID], []int64{bob.ID, carol.ID})
		is.Equal(got[b.ID], []int64{alice.ID})
		is.NoErr(f.Issues.SetAssignees(f.ctx, a.ID, []int64{alice.ID}))
		is.NoErr(f.Issues.SetAssignees(f.ctx, b.ID, nil))
		got, err = f.Issues.Assignees(f.ctx, []int64{a.ID, b.ID})
		is.NoErr(err)
		is.Equal(got[a.ID], []int64{alice.ID})
		is.Equal(len(got[b.ID]), 0)
		is.True(errors.Is(f.Issues.SetAssignees(f.ctx, 999999, []int64{alice.ID}), errs.ErrNotFound))
	},

	"ListFilters": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r := f.repo(alice, "app")
		other := f.repo(alice, "other")
		m := f.milestone(r.ID, "v1", nil, false)
		bug := f.label(r.ID, 0, "bug")
		ui := f.label(r.ID, 0, "ui")

		a := f.issue(r.ID, alice.ID, "A", "ping @bob please", 1, func(i *issue.Issue) { i.MilestoneID = m.ID })
		b := f.issue(r.ID, bob.ID, "B", "", 2, closedIssue)
		c := f.issue(r.ID, alice.ID, "C", "bob, not mentioned", 3, pullIssue)
		d := f.issue(r.ID, bob.ID, "D", "", 4, func(i *issue.Issue) { i.UpdatedAt = at(40); i.NumComments = 0 })
		f.issue(other.ID, alice.ID, "elsewhere", "", 5)
		is.NoErr(f.Labels.AddToIssue(f.ctx, a.ID, []int64{bug.ID, ui.ID}))
		is.NoErr(f.Labels.AddToIssue(f.ctx, b.ID, []int64{bug.ID}))
		is.NoErr(f.Issues.SetAssignees(f.ctx, d.ID, []int64{bob.ID}))
		_ = c

		in := []int64{r.ID}
		cases := []struct {
			name  string
			q     ports.IssueQuery
			want  []string
			total int64
		}{
			{"open by default, newest first", ports.IssueQuery{RepoIDs: in}, []string{"D", "C", "A"}, 3},
			{"closed", ports.IssueQuery{RepoIDs: in, State: "closed"}, []string{"B"}, 1},
			{"all", ports.IssueQuery{RepoIDs: in, State: "all"}, []string{"D", "C", "B", "A"}, 4},
			{"issues only", ports.IssueQuery{RepoIDs: in, State: "all", IsPull: boolPtr(false)}, []string{"D", "B", "A"}, 3},
			{"pulls only", ports.IssueQuery{RepoIDs: in, State: "all", IsPull: boolPtr(true)}, []string{"C"}, 1},
			{"label ids, all of", ports.IssueQuery{RepoIDs: in, State: "all", LabelIDs: []int64{bug.ID, ui.ID}}, []string{"A"}, 1},
			{"label id", ports.IssueQuery{RepoIDs: in, State: "all", LabelIDs: []int64{bug.ID}}, []string{"B", "A"}, 2},
			{"label names", ports.IssueQuery{RepoIDs: in, State: "all", LabelNames: []string{"bug", "ui"}}, []string{"A"}, 1},
			{"unknown label names are discarded", ports.IssueQuery{RepoIDs: in, State: "all", LabelNames: []string{"bug", "nope"}}, []string{"B", "A"}, 2},
			{"milestone", ports.IssueQuery{RepoIDs: in, State: "all", MilestoneIDs: []int64{m.ID}}, []string{"A"}, 1},
			{"milestone names", ports.IssueQuery{RepoIDs: in, State: "all", MilestoneNames: []string{"v1", "nope"}}, []string{"A"}, 1},
			{"no milestone", ports.IssueQuery{RepoIDs: in, State: "all", NoMilestone: true}, []string{"D", "C", "B"}, 3},
			{"poster", ports.IssueQuery{RepoIDs: in, State: "all", PosterID: bob.ID}, []string{"D", "B"}, 2},
			{"assignee", ports.IssueQuery{RepoIDs: in, State: "all", AssigneeID: bob.ID}, []string{"D"}, 1},
			{"mentioned", ports.IssueQuery{RepoIDs: in, State: "all", MentionedID: bob.ID}, []string{"A"}, 1},
			{"since", ports.IssueQuery{RepoIDs: in, State: "all", Since: at(3)}, []string{"D", "C"}, 2},
			{"before", ports.IssueQuery{RepoIDs: in, State: "all", Before: at(2)}, []string{"B", "A"}, 2},
			{"oldest", ports.IssueQuery{RepoIDs: in, State: "all", Sort: "oldest"}, []string{"A", "B", "C", "D"}, 4},
			{"recently updated", ports.IssueQuery{RepoIDs: in, State: "all", Sort: "recentupdate"}, []string{"D", "C", "B", "A"}, 4},
			{"least updated", ports.IssueQuery{RepoIDs: in, State: "all", Sort: "leastupdate"}, []string{"A", "B", "C", "D"}, 4},
			{"page 2", ports.IssueQuery{RepoIDs: in, State: "all", ListOptions: ports.ListOptions{Page: 2, Limit: 3}}, []string{"A"}, 4},
			{"page 1 of 2", ports.IssueQuery{RepoIDs: in, State: "all", ListOptions: ports.ListOptions{Page: 1, Limit: 2}}, []string{"D", "C"}, 4},
			{"filtered page 1", ports.IssueQuery{RepoIDs: in, State: "all", PosterID: alice.ID, ListOptions: ports.ListOptions{Page: 1, Limit: 1}}, []string{"C"}, 2},
			{"past the end", ports.IssueQuery{RepoIDs: in, ListOptions: ports.ListOptions{Page: 5, Limit: 2}}, []string{}, 3},
			{"two repositories", ports.IssueQuery{RepoIDs: []int64{r.ID, other.ID}, ListOptions: ports.ListOptions{Page: 1, Limit: 10}}, []string{"elsewhere", "D", "C", "A"}, 4},
			{"priority repository first", ports.IssueQuery{RepoIDs: []int64{r.ID, other.ID}, PriorityRepoID: r.ID}, []string{"D", "C", "A", "elsewhere"}, 4},
		}
		for _, c := range cases {
			titles, total := f.listIssues(c.q)
			if fmt.Sprint(titles) != fmt.Sprint(c.want) || total != c.total {
				t.Errorf("%s: got %v (%d), want %v (%d)", c.name, titles, total, c.want, c.total)
			}
		}
		is.Equal(f.issueCounters(r.ID), [4]int{3, 1, 1, 0})
	},

	"FullTextSearch": func(t *testing.T, f *fixture) {
		alice := f.user("alice")
		r := f.repo(alice, "app")
		a := f.issue(r.ID, alice.ID, "Crash on startup", "The app segfaults in main.go when HOME is unset.", 1)
		b := f.issue(r.ID, alice.ID, "Slow search", "Searching café names takes 10s; see crash-report.txt", 2)
		c := f.issue(r.ID, alice.ID, "Docs typo", "Fix the README", 3, closedIssue)
		is.New(t).NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentPlain, IssueID: c.ID, RepoID: r.ID,
			PosterID: alice.ID, Body: "Also the tutorial mentions a segfault", CreatedAt: at(10), UpdatedAt: at(10)}))
		is.New(t).NoErr(f.Comments.Create(f.ctx, &issue.Comment{Type: issue.CommentClose, IssueID: b.ID, RepoID: r.ID,
			PosterID: alice.ID, Body: "zebra", CreatedAt: at(11), UpdatedAt: at(11)}))

		cases := []struct {
			kw   string
			want []string
		}{
			{"crash", []string{"Slow search", "Crash on startup"}},  // title word, and "crash-report" in a body
			{"CRASH startup", []string{"Crash on startup"}},         // every word must match
			{"start", []string{"Crash on startup"}},                 // word prefixes match
			{"go", []string{"Crash on startup"}},                    // main.go splits into words on both backends
			{"segfault", []string{"Docs typo", "Crash on startup"}}, // a plain comment matches its issue
			{"zebra", []string{}},                                   // event comments are not searched
			{"café", []string{"Slow search"}},
			{"cafe", []string{}},           // no diacritics folding on either backend
			{"artup", []string{}},          // not a word prefix
			{"?!", []string{}},             // no words: nothing
			{"2", []string{"Slow search"}}, // a number is also an index
			{`"crash" OR *`, []string{}},   // query syntax is not passed through
		}
		for _, c := range cases {
			titles, total := f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: c.kw})
			if fmt.Sprint(titles) != fmt.Sprint(c.want) || total != int64(len(c.want)) {
				t.Errorf("%q: got %v (%d), want %v", c.kw, titles, total, c.want)
			}
		}

		// The index follows edits in the writing transaction.
		is := is.New(t)
		is.NoErr(f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			a.Title, a.Body = "Boot failure", "nothing else"
			return tx.Issues.Update(ctx, a)
		}))
		titles, _ := f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: "startup"})
		is.Equal(titles, []string{})
		titles, _ = f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: "boot"})
		is.Equal(titles, []string{"Boot failure"})
		// A rolled-back edit leaves the index as it was.
		_ = f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			a.Title = "Rolled back"
			if err := tx.Issues.Update(ctx, a); err != nil {
				return err
			}
			return errors.New("undo")
		})
		titles, _ = f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: "rolled"})
		is.Equal(titles, []string{})
		titles, _ = f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", Keyword: "boot failure"})
		is.Equal(titles, []string{"Boot failure"})
	},

	"CrossRepoVisibility": func(t *testing.T, f *fixture) {
		alice := f.user("alice", func(u *user.User) { u.IsAdmin, u.IsRestricted = false, false })
		bob := f.user("bob", func(u *user.User) { u.IsAdmin, u.IsRestricted = false, false })
		eve := f.user("eve", func(u *user.User) { u.IsAdmin, u.IsRestricted = false, false })
		pub := f.repo(alice, "pub")
		priv := f.repo(alice, "priv", private)
		noIssues := f.repo(alice, "nounit", func(r *repository.Repository) { r.SetUnit(permission.UnitIssues, false) })
		is.New(t).NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: priv.ID, UserID: bob.ID, Mode: permission.ModeRead}))
		f.issue(pub.ID, alice.ID, "public issue", "shared word", 1)
		f.issue(priv.ID, alice.ID, "private issue", "shared word", 2)
		f.issue(noIssues.ID, alice.ID, "hidden issue", "shared word", 3)
		f.issue(noIssues.ID, alice.ID, "visible pull", "shared word", 4, pullIssue)

		cases := []struct {
			name string
			v    ports.IssueViewer
			q    ports.IssueQuery
			want []string
		}{
			{"anonymous", ports.IssueViewer{}, ports.IssueQuery{}, []string{"visible pull", "public issue"}},
			{"stranger", ports.IssueViewer{UserID: eve.ID}, ports.IssueQuery{}, []string{"visible pull", "public issue"}},
			{"collaborator", ports.IssueViewer{UserID: bob.ID}, ports.IssueQuery{}, []string{"visible pull", "private issue", "public issue"}},
			{"owner", ports.IssueViewer{UserID: alice.ID}, ports.IssueQuery{}, []string{"visible pull", "private issue", "public issue"}},
			{"public-only token", ports.IssueViewer{UserID: alice.ID, PublicOnly: true}, ports.IssueQuery{}, []string{"visible pull", "public issue"}},
			{"admin", ports.IssueViewer{UserID: eve.ID, IsAdmin: true}, ports.IssueQuery{}, []string{"visible pull", "private issue", "public issue"}},
			{"issues only", ports.IssueViewer{UserID: alice.ID}, ports.IssueQuery{IsPull: boolPtr(false)}, []string{"private issue", "public issue"}},
			{"pulls only", ports.IssueViewer{UserID: alice.ID}, ports.IssueQuery{IsPull: boolPtr(true)}, []string{"visible pull"}},
			{"keyword", ports.IssueViewer{UserID: bob.ID}, ports.IssueQuery{Keyword: "private"}, []string{"private issue"}},
			{"owner filter", ports.IssueViewer{UserID: bob.ID}, ports.IssueQuery{OwnerID: bob.ID}, []string{}},
			{"priority", ports.IssueViewer{UserID: alice.ID}, ports.IssueQuery{PriorityRepoID: pub.ID}, []string{"public issue", "visible pull", "private issue"}},
		}
		for _, c := range cases {
			q := c.q
			v := c.v
			q.Viewer = &v
			titles, total := f.listIssues(q)
			if fmt.Sprint(titles) != fmt.Sprint(c.want) || total != int64(len(c.want)) {
				t.Errorf("%s: got %v (%d), want %v", c.name, titles, total, c.want)
			}
		}

		is := is.New(t)
		repos, err := f.Issues.Repositories(f.ctx, []int64{priv.ID, pub.ID, 999999})
		is.NoErr(err)
		is.Equal(len(repos), 2)
		names := []string{repos[0].FullName(), repos[1].FullName()}
		sort.Strings(names)
		is.Equal(names, []string{"alice/priv", "alice/pub"})
	},
}
