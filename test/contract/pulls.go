package contract

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// pullOf makes a pull request issue of base and its pull request from
// headRepo's head branch into base's baseBranch.
func (f *fixture) pullOf(base, headRepo *repository.Repository, poster *user.User, head, baseBranch string, edit ...func(p *pull.PullRequest)) *pull.PullRequest {
	f.t.Helper()
	i := f.issue(base.ID, poster.ID, head+" into "+baseBranch, "", 1, pullIssue)
	p := &pull.PullRequest{IssueID: i.ID, BaseRepoID: base.ID, Index: i.Index, HeadRepoID: headRepo.ID,
		HeadBranch: head, BaseBranch: baseBranch, HeadCommitID: sha('a')}
	for _, e := range edit {
		e(p)
	}
	if err := f.Pulls.Create(f.ctx, p); err != nil {
		f.t.Fatalf("create pull request %q: %v", head, err)
	}
	if p.ID == 0 {
		f.t.Fatalf("create pull request %q: id not set", head)
	}
	return p
}

// getPull reads a pull request back, failing the test when it cannot.
func (f *fixture) getPull(id int64) *pull.PullRequest {
	f.t.Helper()
	p, err := f.Pulls.GetByID(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get pull request %d: %v", id, err)
	}
	return p
}

// closeIssue closes the issue of a pull request.
func (f *fixture) closeIssue(issueID int64) {
	f.t.Helper()
	i, err := f.Issues.GetByID(f.ctx, issueID)
	if err != nil {
		f.t.Fatalf("get issue %d: %v", issueID, err)
	}
	closedIssue(i)
	if err := f.Issues.Update(f.ctx, i); err != nil {
		f.t.Fatalf("close issue %d: %v", issueID, err)
	}
}

func merged(p *pull.PullRequest) {
	m := at(40)
	p.HasMerged, p.MergedAt, p.MergedByID, p.MergeCommitID = true, &m, p.HeadRepoID, sha('m')
}

// sha is a 40-digit commit id of one repeated hex digit.
func sha(c byte) string {
	b := make([]byte, 40)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

func pullIDs(list []*pull.PullRequest) []int64 {
	return ids(list, func(p *pull.PullRequest) int64 { return p.ID })
}

var pullTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetRoundTrip": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		base := f.repo(alice, "app")
		fork := f.repo(alice, "app-fork", func(r *repository.Repository) { r.ForkID = base.ID })
		f.issue(base.ID, alice.ID, "an issue first", "", 1)
		p := f.pullOf(base, fork, alice, "feature", "main", func(p *pull.PullRequest) {
			p.Check = pull.Check{Status: pull.StatusConflict, MergeBase: sha('b'), ConflictedFiles: []string{"a.go", "dir/b.go"},
				CommitsAhead: 3, CommitsBehind: 2, Additions: 10, Deletions: 4, ChangedFiles: 5}
			p.AllowMaintainerEdit = true
			merged(p)
		})
		is.Equal(p.Index, int64(2))
		for _, got := range []func() (*pull.PullRequest, error){
			func() (*pull.PullRequest, error) { return f.Pulls.GetByID(f.ctx, p.ID) },
			func() (*pull.PullRequest, error) { return f.Pulls.GetByIssueID(f.ctx, p.IssueID) },
			func() (*pull.PullRequest, error) { return f.Pulls.GetByIndex(f.ctx, base.ID, 2) },
		} {
			g, err := got()
			is.NoErr(err)
			is.Equal(g, p) // every column round-trips
		}
	},
	"CreateDefaultsToChecking": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main")
		is.Equal(p.Status, pull.StatusChecking)
		g := f.getPull(p.ID)
		is.Equal(g.Status, pull.StatusChecking)
		is.Equal(len(g.ConflictedFiles), 0)
		is.Equal(g.MergedAt, nil)
		is.True(g.IsSameRepo())
	},
	"CreateRefusals": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main")
		again := &pull.PullRequest{IssueID: p.IssueID, BaseRepoID: r.ID, Index: p.Index, HeadRepoID: r.ID, HeadBranch: "x", BaseBranch: "main"}
		is.True(errors.Is(f.Pulls.Create(f.ctx, again), errs.ErrConflict)) // one pull request per issue
		orphan := &pull.PullRequest{IssueID: p.IssueID + 100, BaseRepoID: r.ID, Index: 99, HeadRepoID: r.ID, HeadBranch: "x", BaseBranch: "main"}
		is.True(errors.Is(f.Pulls.Create(f.ctx, orphan), errs.ErrNotFound)) // the issue must exist
	},
	"GetMissing": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		plain := f.issue(r.ID, alice.ID, "not a pull", "", 1)
		_, err := f.Pulls.GetByID(f.ctx, 404)
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist")
		_, err = f.Pulls.GetByIssueID(f.ctx, plain.ID)
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist")
		_, err = f.Pulls.GetByIndex(f.ctx, r.ID, plain.Index)
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist")
	},
	"ByIssueIDs": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		a := f.pullOf(r, r, alice, "a", "main")
		plain := f.issue(r.ID, alice.ID, "not a pull", "", 1)
		b := f.pullOf(r, r, alice, "b", "main", merged)
		got, err := f.Pulls.ByIssueIDs(f.ctx, []int64{a.IssueID, plain.ID, b.IssueID, 999})
		is.NoErr(err)
		is.Equal(len(got), 2) // plain issues and unknown ids are absent
		is.Equal(got[a.IssueID], a)
		is.Equal(got[b.IssueID], b)
		none, err := f.Pulls.ByIssueIDs(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(none), 0)
	},
	"Update": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main")
		p.BaseBranch, p.HeadCommitID, p.AllowMaintainerEdit = "release", sha('c'), true
		p.Check = pull.Check{Status: pull.StatusMergeable, MergeBase: sha('d'), CommitsAhead: 1, Additions: 2, ChangedFiles: 1}
		merged(p)
		is.NoErr(f.Pulls.Update(f.ctx, p))
		is.Equal(f.getPull(p.ID), p)
		ghost := *p
		ghost.ID = 999
		isCategory(is, f.Pulls.Update(f.ctx, &ghost), errs.ErrNotFound, "pull request does not exist")
	},
	"SetHead": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main", func(p *pull.PullRequest) { p.Status = pull.StatusMergeable })
		is.NoErr(f.Pulls.SetHead(f.ctx, p.ID, sha('c')))
		g := f.getPull(p.ID)
		is.Equal(g.HeadCommitID, sha('c'))
		is.Equal(g.Status, pull.StatusChecking) // the check is pending again

		m := f.pullOf(r, r, alice, "done", "main", merged, func(p *pull.PullRequest) { p.Status = pull.StatusMergeable })
		is.NoErr(f.Pulls.SetHead(f.ctx, m.ID, sha('e')))
		is.Equal(f.getPull(m.ID), m) // a merged pull request keeps its head
	},
	"SetCheck": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main")
		c := pull.Check{Status: pull.StatusConflict, MergeBase: sha('b'), ConflictedFiles: []string{"go.mod", "x/y z.txt"},
			CommitsAhead: 4, CommitsBehind: 1, Additions: 30, Deletions: 7, ChangedFiles: 3}
		ok, err := f.Pulls.SetCheck(f.ctx, p.ID, sha('a'), c)
		is.NoErr(err)
		is.True(ok)
		g := f.getPull(p.ID)
		is.Equal(g.Check, c) // conflicted files round-trip in order
		is.Equal(g.HeadCommitID, sha('a'))

		is.NoErr(f.Pulls.SetHead(f.ctx, p.ID, sha('c')))
		ok, err = f.Pulls.SetCheck(f.ctx, p.ID, sha('a'), pull.Check{Status: pull.StatusMergeable})
		is.NoErr(err)
		is.True(!ok) // computed for a head that moved since
		is.Equal(f.getPull(p.ID).Status, pull.StatusChecking)

		ok, err = f.Pulls.SetCheck(f.ctx, p.ID, sha('c'), pull.Check{Status: pull.StatusMergeable, MergeBase: sha('b')})
		is.NoErr(err)
		is.True(ok)
		g = f.getPull(p.ID)
		is.Equal(g.Status, pull.StatusMergeable)
		is.Equal(len(g.ConflictedFiles), 0) // cleared

		m := f.pullOf(r, r, alice, "done", "main", merged)
		ok, err = f.Pulls.SetCheck(f.ctx, m.ID, sha('a'), pull.Check{Status: pull.StatusConflict})
		is.NoErr(err)
		is.True(!ok) // merged meanwhile
		is.Equal(f.getPull(m.ID), m)

		ok, err = f.Pulls.SetCheck(f.ctx, 999, sha('a'), c)
		is.NoErr(err)
		is.True(!ok)
	},
	"FindUnmerged": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		fork := f.repo(alice, "fork", func(x *repository.Repository) { x.ForkID = r.ID })
		closed := f.pullOf(r, fork, alice, "feature", "main")
		f.closeIssue(closed.IssueID)
		f.pullOf(r, fork, alice, "feature", "main", merged)
		_, err := f.Pulls.FindUnmerged(f.ctx, r.ID, "main", fork.ID, "feature")
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist") // closed and merged ones do not count

		open := f.pullOf(r, fork, alice, "feature", "main")
		f.pullOf(r, r, alice, "feature", "main")       // same branch name, other head repository
		f.pullOf(r, fork, alice, "feature", "release") // other base
		got, err := f.Pulls.FindUnmerged(f.ctx, r.ID, "main", fork.ID, "feature")
		is.NoErr(err)
		is.Equal(got.ID, open.ID)
	},
	"OpenOnBranch": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		fork := f.repo(alice, "fork", func(x *repository.Repository) { x.ForkID = r.ID })
		intoMain := f.pullOf(r, r, alice, "feature", "main")
		fromMain := f.pullOf(r, r, alice, "main", "release")
		forkIntoMain := f.pullOf(r, fork, alice, "topic", "main")
		closed := f.pullOf(r, r, alice, "old", "main")
		f.closeIssue(closed.IssueID)
		f.pullOf(r, r, alice, "done", "main", merged)
		f.pullOf(r, r, alice, "other", "release")
		fromForkMain := f.pullOf(r, fork, alice, "main", "release")

		list, err := f.Pulls.OpenOnBranch(f.ctx, r.ID, "main", 10)
		is.NoErr(err)
		is.Equal(pullIDs(list), []int64{intoMain.ID, fromMain.ID, forkIntoMain.ID}) // head or base side, by id
		list, err = f.Pulls.OpenOnBranch(f.ctx, r.ID, "main", 2)
		is.NoErr(err)
		is.Equal(pullIDs(list), []int64{intoMain.ID, fromMain.ID}) // at most limit
		list, err = f.Pulls.OpenOnBranch(f.ctx, fork.ID, "main", 10)
		is.NoErr(err)
		is.Equal(pullIDs(list), []int64{fromForkMain.ID}) // the fork's main as head
		list, err = f.Pulls.OpenOnBranch(f.ctx, fork.ID, "nothing", 10)
		is.NoErr(err)
		is.Equal(len(list), 0)
	},
	"HasOpenFromHead": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		a := f.pullOf(r, r, alice, "feature", "main")
		has, err := f.Pulls.HasOpenFromHead(f.ctx, r.ID, "feature", a.ID)
		is.NoErr(err)
		is.True(!has) // only the excepted one
		has, err = f.Pulls.HasOpenFromHead(f.ctx, r.ID, "feature", 0)
		is.NoErr(err)
		is.True(has)
		b := f.pullOf(r, r, alice, "feature", "release")
		has, err = f.Pulls.HasOpenFromHead(f.ctx, r.ID, "feature", a.ID)
		is.NoErr(err)
		is.True(has)
		f.closeIssue(b.IssueID)
		f.pullOf(r, r, alice, "feature", "dev", merged)
		has, err = f.Pulls.HasOpenFromHead(f.ctx, r.ID, "feature", a.ID)
		is.NoErr(err)
		is.True(!has) // closed and merged ones do not count
	},
	"ByMergeCommit": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		other := f.repo(alice, "other")
		f.pullOf(r, r, alice, "open", "main", func(p *pull.PullRequest) { p.MergeCommitID = sha('m') })
		m := f.pullOf(r, r, alice, "done", "main", merged)
		got, err := f.Pulls.ByMergeCommit(f.ctx, r.ID, sha('m'))
		is.NoErr(err)
		is.Equal(got, m) // the merged one, not an open one naming the same commit
		_, err = f.Pulls.ByMergeCommit(f.ctx, other.ID, sha('m'))
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist")
		_, err = f.Pulls.ByMergeCommit(f.ctx, r.ID, sha('f'))
		isCategory(is, err, errs.ErrNotFound, "pull request does not exist")
	},
	"ForgetHeadRepo": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		fork := f.repo(alice, "fork", func(x *repository.Repository) { x.ForkID = r.ID })
		fromFork := f.pullOf(r, fork, alice, "topic", "main")
		inFork := f.pullOf(fork, fork, alice, "wip", "main")
		same := f.pullOf(r, r, alice, "feature", "main")
		is.NoErr(f.Pulls.ForgetHeadRepo(f.ctx, fork.ID))
		g := f.getPull(fromFork.ID)
		is.Equal(g.HeadRepoID, int64(0)) // the head repository is gone
		is.Equal(g.HeadBranch, "topic")
		is.Equal(f.getPull(inFork.ID).HeadRepoID, fork.ID) // the fork's own go with it, untouched here
		is.Equal(f.getPull(same.ID).HeadRepoID, r.ID)
	},
	"AutoMerges": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		other := f.repo(alice, "other")
		a := f.pullOf(r, r, alice, "a", "main")
		b := f.pullOf(r, r, alice, "b", "main")
		c := f.pullOf(other, other, alice, "c", "main")
		m := &pull.AutoMerge{PullID: a.ID, DoerID: alice.ID, Style: pull.StyleSquash, Message: "Squash a\n\nbody",
			DeleteBranch: true, HeadCommitID: sha('a'), Created: at(20)}
		is.NoErr(f.Pulls.ScheduleAutoMerge(f.ctx, m))
		got, err := f.Pulls.AutoMerge(f.ctx, a.ID)
		is.NoErr(err)
		is.Equal(got, m)
		again := *m
		again.Style = pull.StyleMerge
		isCategory(is, f.Pulls.ScheduleAutoMerge(f.ctx, &again), errs.ErrConflict,
			"pull request is already scheduled to auto merge when checks succeed")
		got, err = f.Pulls.AutoMerge(f.ctx, a.ID)
		is.NoErr(err)
		is.Equal(got.Style, pull.StyleSquash) // the first one stays

		is.NoErr(f.Pulls.ScheduleAutoMerge(f.ctx, &pull.AutoMerge{PullID: b.ID, DoerID: alice.ID, Style: pull.StyleMerge, HeadCommitID: sha('b'), Created: at(21)}))
		is.NoErr(f.Pulls.ScheduleAutoMerge(f.ctx, &pull.AutoMerge{PullID: c.ID, DoerID: alice.ID, Style: pull.StyleMerge, HeadCommitID: sha('a'), Created: at(22)}))
		ids, err := f.Pulls.ScheduledForHead(f.ctx, r.ID, sha('a'))
		is.NoErr(err)
		is.Equal(ids, []int64{a.ID}) // this repository, this head
		ids, err = f.Pulls.ScheduledForHead(f.ctx, r.ID, sha('f'))
		is.NoErr(err)
		is.Equal(len(ids), 0)

		is.NoErr(f.Pulls.DeleteAutoMerge(f.ctx, a.ID))
		_, err = f.Pulls.AutoMerge(f.ctx, a.ID)
		isCategory(is, err, errs.ErrNotFound, "no scheduled auto merge")
		isCategory(is, f.Pulls.DeleteAutoMerge(f.ctx, a.ID), errs.ErrNotFound, "no scheduled auto merge")
		is.True(errors.Is(f.Pulls.ScheduleAutoMerge(f.ctx, &pull.AutoMerge{PullID: 999, DoerID: alice.ID, Style: pull.StyleMerge, Created: at(23)}), errs.ErrNotFound))
	},
	"CascadeOnIssueDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		p := f.pullOf(r, r, alice, "feature", "main")
		keep := f.pullOf(r, r, alice, "other", "main")
		is.NoErr(f.Pulls.ScheduleAutoMerge(f.ctx, &pull.AutoMerge{PullID: p.ID, DoerID: alice.ID, Style: pull.StyleMerge, HeadCommitID: sha('a'), Created: at(20)}))
		is.NoErr(f.Issues.Delete(f.ctx, p.IssueID))
		_, err := f.Pulls.GetByID(f.ctx, p.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Pulls.AutoMerge(f.ctx, p.ID)
		is.True(errors.Is(err, errs.ErrNotFound)) // the scheduled merge goes too
		ids, err := f.Pulls.ScheduledForHead(f.ctx, r.ID, sha('a'))
		is.NoErr(err)
		is.Equal(len(ids), 0)
		is.Equal(f.getPull(keep.ID), keep)
	},
	"CascadeOnRepoDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		other := f.repo(alice, "other")
		p := f.pullOf(r, r, alice, "feature", "main")
		keep := f.pullOf(other, other, alice, "feature", "main")
		is.NoErr(f.Pulls.ScheduleAutoMerge(f.ctx, &pull.AutoMerge{PullID: p.ID, DoerID: alice.ID, Style: pull.StyleMerge, HeadCommitID: sha('a'), Created: at(20)}))
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		_, err := f.Pulls.GetByID(f.ctx, p.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		_, err = f.Pulls.AutoMerge(f.ctx, p.ID)
		is.True(errors.Is(err, errs.ErrNotFound))
		got, err := f.Pulls.ByIssueIDs(f.ctx, []int64{p.IssueID, keep.IssueID})
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[keep.IssueID], keep)
	},
	"IssueListByBaseBranch": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		f.issue(r.ID, alice.ID, "plain issue", "", 1)
		f.pullOf(r, r, alice, "a", "main")
		f.pullOf(r, r, alice, "b", "release")
		f.pullOf(r, r, alice, "c", "main")
		titles, total := f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, IsPull: boolPtr(true), BaseBranch: "main", Sort: "oldest"})
		is.Equal(titles, []string{"a into main", "c into main"})
		is.Equal(total, int64(2))
		titles, total = f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, BaseBranch: "release"})
		is.Equal(titles, []string{"b into release"}) // plain issues have no base branch
		is.Equal(total, int64(1))
		titles, _ = f.listIssues(ports.IssueQuery{RepoIDs: []int64{r.ID}, IsPull: boolPtr(true), BaseBranch: "gone"})
		is.Equal(len(titles), 0)
	},
}
