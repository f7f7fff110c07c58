package test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// mergeRepo is a repository of alice's with a clone pushed to over HTTP
// (so that the push hooks run and the pull requests get checked).
type mergeRepo struct {
	srv  *testserver.Server
	c    *gitea.Client
	name string
	w    string
}

// newMergeServer starts a server with alice, whose client it returns.
func newMergeServer(t *testing.T, opts ...testserver.Option) (*testserver.Server, *gitea.Client) {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, c := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	return srv, c
}

// newMergeRepo makes alice/name, allowing every merge style.
func newMergeRepo(t *testing.T, srv *testserver.Server, c *gitea.Client, name string) *mergeRepo {
	t.Helper()
	createRepo(t, c, gitea.CreateRepoOption{Name: name, AutoInit: true, Readme: "Default"})
	yes := true
	if _, _, err := c.EditRepo("alice", name, gitea.EditRepoOption{AllowManualMerge: &yes, AllowFastForwardOnlyMerge: &yes,
		AllowMerge: &yes, AllowRebase: &yes, AllowRebaseMerge: &yes, AllowSquash: &yes}); err != nil {
		t.Fatalf("edit repository: %v", err)
	}
	return &mergeRepo{srv: srv, c: c, name: name, w: httpGitClone(t, httpGitURL(srv, "alice", name, "alice", userPassword))}
}

// git runs git in the clone and returns its trimmed output.
func (r *mergeRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(httpGitOK(t, r.w, args...))
}

// commit writes file and commits it as author ("" for the default).
func (r *mergeRepo) commit(t *testing.T, author, file, content, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.w, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git(t, "add", file)
	args := []string{"commit", "-q", "-m", msg}
	if author != "" {
		args = append(args, "--author="+author)
	}
	r.git(t, args...)
	return r.git(t, "rev-parse", "HEAD")
}

// push pushes refspecs to the server over HTTP.
func (r *mergeRepo) push(t *testing.T, refspecs ...string) {
	t.Helper()
	r.git(t, append([]string{"push", "-q", "origin"}, refspecs...)...)
}

// ref is a ref's id in the server's copy ("" when absent).
func (r *mergeRepo) ref(t *testing.T, ref string) string {
	t.Helper()
	return httpGitRef(t, r.srv, "alice", r.name, ref)
}

// branchFromMain checks out a new branch at the server's main.
func (r *mergeRepo) branchFromMain(t *testing.T, branch string) {
	t.Helper()
	r.git(t, "fetch", "-q", "origin")
	r.git(t, "checkout", "-q", "-B", branch, "origin/main")
}

// diverge pushes branch with two commits (by Bob, then Carol) and one more
// commit on main; it returns main's and the branch's tips.
func (r *mergeRepo) diverge(t *testing.T, branch string) (base, head string) {
	t.Helper()
	r.branchFromMain(t, branch)
	r.commit(t, "Bob <bob@example.com>", branch+"-b.txt", "b\n", "add b")
	head = r.commit(t, "Carol <carol@example.com>", branch+"-c.txt", "c\n", "add c")
	r.branchFromMain(t, "main")
	base = r.commit(t, "", branch+"-a.txt", "a\n", "base change")
	r.push(t, branch, "main")
	return base, head
}

// ahead pushes branch with two commits on top of main; it returns main's
// and the branch's tips.
func (r *mergeRepo) ahead(t *testing.T, branch string) (base, head string) {
	t.Helper()
	r.branchFromMain(t, branch)
	base = r.git(t, "rev-parse", "HEAD")
	r.commit(t, "Bob <bob@example.com>", branch+"-b.txt", "b\n", "add b")
	head = r.commit(t, "Carol <carol@example.com>", branch+"-c.txt", "c\n", "add c")
	r.push(t, branch)
	return base, head
}

// open opens a pull request from head into main and waits for its check.
func (r *mergeRepo) open(t *testing.T, head, title, body string) *gitea.PullRequest {
	t.Helper()
	pr, _, err := r.c.CreatePullRequest("alice", r.name, gitea.CreatePullRequestOption{Head: head, Base: "main", Title: title, Body: body})
	if err != nil {
		t.Fatalf("open pull request: %v", err)
	}
	return waitPullChecked(t, r.srv, r.c, "alice", r.name, pr.Index)
}

// merge posts a merge as c and returns the status code.
func (r *mergeRepo) merge(t *testing.T, c *gitea.Client, index int64, opt gitea.MergePullRequestOption) int {
	t.Helper()
	_, resp, err := c.MergePullRequest("alice", r.name, index, opt)
	if resp == nil {
		t.Fatalf("merge: %v", err)
	}
	return resp.StatusCode
}

// pull reads a pull request.
func (r *mergeRepo) pull(t *testing.T, index int64) *gitea.PullRequest {
	t.Helper()
	pr, _, err := r.c.GetPullRequest("alice", r.name, index)
	if err != nil {
		t.Fatalf("get pull request: %v", err)
	}
	return pr
}

// oracleTree is the tree git itself makes: it checks out start detached,
// runs the commands and returns HEAD's tree.
func (r *mergeRepo) oracleTree(t *testing.T, start string, cmds ...[]string) string {
	t.Helper()
	r.git(t, "checkout", "-q", "--detach", start)
	for _, c := range cmds {
		r.git(t, c...)
	}
	return r.git(t, "rev-parse", "HEAD^{tree}")
}

// fetchedMain fetches and returns the server's main.
func (r *mergeRepo) fetchedMain(t *testing.T) string {
	t.Helper()
	r.git(t, "fetch", "-q", "origin")
	return r.git(t, "rev-parse", "origin/main")
}

func TestPullMergeStyles(t *testing.T) {
	t.Parallel()
	testPullMergeStyles(t)
}

func TestPullMergeStylesPostgres(t *testing.T) {
	t.Parallel()
	testPullMergeStyles(t, testserver.OnPostgres())
}

// testPullMergeStyles merges a pull request in every style and compares
// the result with what git makes of the same commits.
func testPullMergeStyles(t *testing.T, opts ...testserver.Option) {
	srv, c := newMergeServer(t, opts...)
	const alice = "alice@example.com"

	t.Run("merge", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-merge")
		base, head := r.diverge(t, "feature")
		pr := r.open(t, "feature", "Feature one", "")
		is.True(pr.Mergeable)
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 200)
		tip := r.fetchedMain(t)
		is.Equal(r.git(t, "rev-list", "--parents", "-n1", tip), tip+" "+base+" "+head)
		is.Equal(r.git(t, "log", "-1", "--format=%s|%ae|%ce", tip),
			"Merge pull request 'Feature one' (#1) from feature into main|"+alice+"|"+alice)
		want := r.oracleTree(t, base, []string{"merge", "-q", "--no-ff", "--no-edit", head})
		is.Equal(r.git(t, "rev-parse", tip+"^{tree}"), want)
		got := r.pull(t, pr.Index)
		is.True(got.HasMerged)
		is.Equal(*got.MergedCommitID, tip)
		is.Equal(got.MergedBy.UserName, "alice")
		is.Equal(got.State, gitea.StateClosed)
	})

	t.Run("rebase", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-rebase")
		base, head := r.diverge(t, "feature")
		pr := r.open(t, "feature", "Feature", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleRebase}), 200)
		tip := r.fetchedMain(t)
		is.Equal(r.git(t, "rev-list", "--count", base+".."+tip), "2")
		is.Equal(r.git(t, "rev-list", "--count", "--merges", base+".."+tip), "0")
		is.Equal(r.git(t, "rev-parse", tip+"~2"), base)
		is.Equal(r.git(t, "log", "--reverse", "--format=%an <%ae>|%s|%ce", base+".."+tip),
			"Bob <bob@example.com>|add b|"+alice+"\nCarol <carol@example.com>|add c|"+alice)
		want := r.oracleTree(t, head, []string{"rebase", "-q", base})
		is.Equal(r.git(t, "rev-parse", tip+"^{tree}"), want)
		is.Equal(*r.pull(t, pr.Index).MergedCommitID, tip)
	})

	t.Run("rebase fast-forward", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-rebase-ff")
		_, head := r.ahead(t, "feature")
		pr := r.open(t, "feature", "Feature", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleRebase}), 200)
		is.Equal(r.fetchedMain(t), head)
	})

	t.Run("rebase-merge", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-rebase-merge")
		base, head := r.diverge(t, "feature")
		pr := r.open(t, "feature", "Feature two", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleRebaseMerge}), 200)
		tip := r.fetchedMain(t)
		parents := strings.Fields(r.git(t, "rev-list", "--parents", "-n1", tip))
		is.Equal(len(parents), 3)
		is.Equal(parents[1], base)
		rebased := parents[2]
		is.Equal(r.git(t, "rev-parse", rebased+"~2"), base)
		is.Equal(r.git(t, "log", "--reverse", "--format=%an|%s|%ce", base+".."+rebased),
			"Bob|add b|"+alice+"\nCarol|add c|"+alice)
		is.Equal(r.git(t, "log", "-1", "--format=%s|%ae", tip),
			"Merge pull request 'Feature two' (#1) from feature into main|"+alice)
		want := r.oracleTree(t, head, []string{"rebase", "-q", base})
		is.Equal(r.git(t, "rev-parse", tip+"^{tree}"), want)
		is.Equal(r.git(t, "rev-parse", rebased+"^{tree}"), want)
	})

	t.Run("rebase-merge on top", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-rebase-merge-top")
		base, head := r.ahead(t, "feature")
		pr := r.open(t, "feature", "On top", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleRebaseMerge}), 200)
		tip := r.fetchedMain(t)
		// git rebase leaves a branch already on its base alone.
		is.Equal(r.git(t, "rev-list", "--parents", "-n1", tip), tip+" "+base+" "+head)
	})

	t.Run("squash", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-squash")
		base, head := r.diverge(t, "feature")
		pr := r.open(t, "feature", "Squashed feature", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleSquash,
			Message: "the body"}), 200)
		tip := r.fetchedMain(t)
		is.Equal(r.git(t, "rev-list", "--parents", "-n1", tip), tip+" "+base)
		is.Equal(r.git(t, "log", "-1", "--format=%B", tip), "Squashed feature (#1)\n\nthe body\n\n"+
			"Co-authored-by: Bob <bob@example.com>\nCo-authored-by: Carol <carol@example.com>")
		is.Equal(r.git(t, "log", "-1", "--format=%ae|%ce", tip), alice+"|"+alice)
		want := r.oracleTree(t, base, []string{"merge", "-q", "--squash", head}, []string{"commit", "-q", "-m", "squash"})
		is.Equal(r.git(t, "rev-parse", tip+"^{tree}"), want)
	})

	t.Run("fast-forward-only", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-ff")
		_, head := r.ahead(t, "feature")
		pr := r.open(t, "feature", "Feature", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleFastForwardOnly}), 200)
		is.Equal(r.fetchedMain(t), head)

		base, _ := r.diverge(t, "diverged")
		pr = r.open(t, "diverged", "Diverged", "")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleFastForwardOnly}), 409)
		is.Equal(r.fetchedMain(t), base)
		is.True(!r.pull(t, pr.Index).HasMerged)
	})

	t.Run("manually-merged", func(t *testing.T) {
		is := is.New(t)
		r := newMergeRepo(t, srv, c, "s-manual")
		base, head := r.diverge(t, "feature")
		pr := r.open(t, "feature", "Feature", "")
		r.git(t, "checkout", "-q", "main")
		r.git(t, "merge", "-q", "--no-ff", "--no-edit", head)
		merged := r.git(t, "rev-parse", "HEAD")
		r.push(t, "main")
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleManuallyMerged, MergeCommitID: base}), 409)
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleManuallyMerged,
			MergeCommitID: "0123456789012345678901234567890123456789"}), 409)
		is.True(!r.pull(t, pr.Index).HasMerged)
		is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleManuallyMerged, MergeCommitID: merged}), 200)
		got := r.pull(t, pr.Index)
		is.True(got.HasMerged)
		is.Equal(*got.MergedCommitID, merged)
		is.Equal(got.MergedBy.UserName, "alice")
		is.Equal(r.fetchedMain(t), merged)
	})
}

// TestPullMergeRefusals checks that each refused merge answers Gitea's
// status and changes nothing.
func TestPullMergeRefusals(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "refusals")
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	read := gitea.AccessModeRead
	_, err := c.AddCollaborator("alice", r.name, "bob", gitea.AddCollaboratorOption{Permission: &read})
	is.NoErr(err)

	_, _ = r.diverge(t, "feature")
	pr := r.open(t, "feature", "Feature", "")
	unchanged := func(index int64) {
		t.Helper()
		is.Equal(r.fetchedMain(t), r.git(t, "rev-parse", "main"))
		is.True(!r.pull(t, index).HasMerged)
	}
	r.branchFromMain(t, "main")

	// A style the repository forbids.
	no := false
	_, _, err = c.EditRepo("alice", r.name, gitea.EditRepoOption{AllowSquash: &no})
	is.NoErr(err)
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleSquash}), 405)
	unchanged(pr.Index)

	// A style Gitea does not know.
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: "octopus"}), 422)
	unchanged(pr.Index)

	// A reader.
	is.Equal(r.merge(t, bob, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 403)
	unchanged(pr.Index)

	// A head the caller did not see.
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge,
		HeadCommitId: r.git(t, "rev-parse", "main")}), 409)
	unchanged(pr.Index)

	// A work in progress.
	wip := "WIP: Feature"
	_, _, err = c.EditPullRequest("alice", r.name, pr.Index, gitea.EditPullRequestOption{Title: wip})
	is.NoErr(err)
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 405)
	unchanged(pr.Index)

	// A conflict.
	r.branchFromMain(t, "conflict")
	r.commit(t, "", "README.md", "theirs\n", "change the readme")
	r.push(t, "conflict")
	r.branchFromMain(t, "main")
	r.commit(t, "", "README.md", "ours\n", "change the readme too")
	r.push(t, "main")
	conflict := r.open(t, "conflict", "Conflicting", "")
	testkitEventuallyState(t, r, conflict.Index, "conflict")
	is.Equal(r.merge(t, c, conflict.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 405)
	unchanged(conflict.Index)

	// Already merged.
	_, head := r.ahead(t, "done")
	done := r.open(t, "done", "Done", "")
	is.Equal(r.merge(t, c, done.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 200)
	tip := r.fetchedMain(t)
	r.git(t, "merge-base", "--is-ancestor", head, tip)
	is.Equal(r.merge(t, c, done.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 405)
	is.Equal(r.fetchedMain(t), tip)

	// An archived repository.
	title := "Feature"
	_, _, err = c.EditPullRequest("alice", r.name, pr.Index, gitea.EditPullRequestOption{Title: title})
	is.NoErr(err)
	yes := true
	_, _, err = c.EditRepo("alice", r.name, gitea.EditRepoOption{Archived: &yes})
	is.NoErr(err)
	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge}), 423)
	is.Equal(r.fetchedMain(t), tip)
	is.True(!r.pull(t, pr.Index).HasMerged)
}

// testkitEventuallyState waits until a pull request's mergeable_state is state.
func testkitEventuallyState(t *testing.T, r *mergeRepo, index int64, state string) {
	t.Helper()
	for n := 0; n < 400; n++ {
		var raw struct {
			State string `json:"mergeable_state"`
		}
		r.srv.Do("GET", "/repos/alice/"+r.name+"/pulls/"+itoaTest(index), nil).Decode(t, &raw)
		if raw.State == state {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("pull request #%d never reached %s", index, state)
}

// TestPullMergeRaces merges two pull requests into one base at once, and
// one pull request twice at once: no merge is lost.
func TestPullMergeRaces(t *testing.T) {
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "races")
	for round := 0; round < 3; round++ {
		a := "a" + itoaTest(int64(round))
		b := "b" + itoaTest(int64(round))
		_, headA := r.ahead(t, a)
		_, headB := r.ahead(t, b)
		pa := r.open(t, a, "A", "")
		pb := r.open(t, b, "B", "")
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for k, index := range []int64{pa.Index, pb.Index} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, resp, err := c.MergePullRequest("alice", r.name, index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
				if resp == nil {
					t.Errorf("merge: %v", err)
					return
				}
				codes[k] = resp.StatusCode
			}()
		}
		wg.Wait()
		tip := r.fetchedMain(t)
		for k, head := range []string{headA, headB} {
			index := []int64{pa.Index, pb.Index}[k]
			switch codes[k] {
			case 200:
				r.git(t, "merge-base", "--is-ancestor", head, tip)
				got := r.pull(t, index)
				is.True(got.HasMerged)
				r.git(t, "merge-base", "--is-ancestor", *got.MergedCommitID, tip)
			case 409, 405:
				is.True(!r.pull(t, index).HasMerged)
			default:
				t.Fatalf("merge answered %d", codes[k])
			}
		}
		is.True(codes[0] == 200 || codes[1] == 200)
	}

	// One pull request three times at once: one merge commit.
	for round := 0; round < 3; round++ {
		branch := "twice" + itoaTest(int64(round))
		_, head := r.ahead(t, branch)
		p := r.open(t, branch, "Twice", "")
		before := r.fetchedMain(t)
		codes := make([]int, 3)
		var wg sync.WaitGroup
		for k := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, resp, _ := c.MergePullRequest("alice", r.name, p.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
				if resp != nil {
					codes[k] = resp.StatusCode
				}
			}()
		}
		wg.Wait()
		won := 0
		for _, code := range codes {
			switch code {
			case 200:
				won++
			case 405, 409:
			default:
				t.Fatalf("merge answered %d", code)
			}
		}
		is.Equal(won, 1)
		tip := r.fetchedMain(t)
		is.Equal(r.git(t, "rev-list", "--parents", "-n1", tip), tip+" "+before+" "+head)
		is.Equal(*r.pull(t, p.Index).MergedCommitID, tip)
	}

	// A push to the head after the caller looked: the merge is refused.
	_, seen := r.ahead(t, "moving")
	mv := r.open(t, "moving", "Moving", "")
	r.git(t, "checkout", "-q", "moving")
	moved := r.commit(t, "", "late.txt", "late\n", "late push")
	r.push(t, "moving")
	// Once checked again (while checking, any merge answers 405).
	waitPullChecked(t, r.srv, c, "alice", r.name, mv.Index)
	is.Equal(r.merge(t, c, mv.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, HeadCommitId: seen}), 409)
	is.True(!r.pull(t, mv.Index).HasMerged)
	is.Equal(r.merge(t, c, mv.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge, HeadCommitId: moved}), 200)
	r.git(t, "merge-base", "--is-ancestor", moved, r.fetchedMain(t))
}

// TestPullMergeRebaseSkipsUpstreamPatches merges by rebase a branch whose
// first two commits main already cherry-picked: as git rebase, the merge
// skips them by patch id (replaying the first onto main would conflict)
// and replays the rest.
func TestPullMergeRebaseSkipsUpstreamPatches(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, c := newMergeServer(t)
	r := newMergeRepo(t, srv, c, "picked")
	r.branchFromMain(t, "main")
	r.commit(t, "", "a.txt", "1\n2\n3\n", "add a")
	r.push(t, "main")
	r.branchFromMain(t, "feat")
	one := r.commit(t, "", "a.txt", "one\n2\n3\n", "spell one")
	two := r.commit(t, "", "a.txt", "ONE\n2\n3\n", "shout one")
	r.commit(t, "", "c.txt", "c\n", "add c")
	r.branchFromMain(t, "main")
	r.git(t, "cherry-pick", "-x", one, two) // -x: other commits than the branch's, whatever the clock
	r.push(t, "feat", "main")
	before := r.fetchedMain(t)
	pr := r.open(t, "feat", "Picked", "")
	is.Equal(pr.Mergeable, true)

	is.Equal(r.merge(t, c, pr.Index, gitea.MergePullRequestOption{Style: gitea.MergeStyleRebase}), 200)
	tip := r.fetchedMain(t)
	r.git(t, "checkout", "-q", "-B", "oracle", "origin/feat")
	r.git(t, "rebase", "-q", before)
	oracle := r.git(t, "rev-parse", "HEAD")
	is.Equal(r.git(t, "rev-parse", tip+"^{tree}"), r.git(t, "rev-parse", oracle+"^{tree}"))
	is.Equal(r.git(t, "log", "--format=%s", before+".."+tip), "add c") // the picked two skipped
	is.Equal(r.git(t, "log", "--format=%s", before+".."+oracle), "add c")
}
