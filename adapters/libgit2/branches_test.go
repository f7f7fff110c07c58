package libgit2_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// refsRepo is a fixture repository: the storage, its address, the bare
// directory and a work clone that pushes to it.
type refsRepo struct {
	s    *libgit2.Storage
	p    ports.RepoPath
	bare string
	work string
}

// refsFixture makes an empty repository (HEAD on main) and a work clone.
func refsFixture(t *testing.T) *refsRepo {
	t.Helper()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "refs"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		t.Fatal(err)
	}
	r := &refsRepo{s: s, p: p, bare: repoDir(root, p), work: filepath.Join(t.TempDir(), "work")}
	runGit(t, t.TempDir(), "init", "-q", "-b", "main", r.work)
	return r
}

// git runs the git CLI in the work tree with extra environment entries
// (e.g. GIT_COMMITTER_DATE) and optional standard input.
func (r *refsRepo) git(t *testing.T, env []string, stdin string, args ...string) string {
	t.Helper()
	return refsGitIn(t, r.work, env, stdin, args...)
}

// bareGit runs the git CLI on the bare repository.
func (r *refsRepo) bareGit(t *testing.T, args ...string) string {
	t.Helper()
	return refsGitIn(t, r.bare, nil, "", args...)
}

// refsGitIn runs git in dir with a clean configuration.
func refsGitIn(t *testing.T, dir string, env []string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+t.TempDir(),
		"GIT_AUTHOR_NAME=Tagger", "GIT_AUTHOR_EMAIL=tagger@example.com",
		"GIT_COMMITTER_NAME=Tagger", "GIT_COMMITTER_EMAIL=tagger@example.com")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// commit makes a commit in the work tree dated date (committer and author)
// and returns its id.
func (r *refsRepo) commit(t *testing.T, msg, date string) string {
	t.Helper()
	env := []string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date}
	if err := os.WriteFile(filepath.Join(r.work, "file.txt"), []byte(msg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git(t, env, "", "add", "file.txt")
	r.git(t, env, "", "commit", "-q", "-m", msg)
	return r.git(t, nil, "", "rev-parse", "HEAD")
}

// push pushes every branch, tag and note to the bare repository.
func (r *refsRepo) push(t *testing.T) {
	t.Helper()
	r.git(t, nil, "", "push", "-q", "--force", r.bare, "refs/*:refs/*")
}

// refsKind fails unless err is a *ports.RefConflictError of kind k.
func refsKind(t *testing.T, err error, k ports.RefConflictKind) {
	t.Helper()
	var c *ports.RefConflictError
	if !errors.As(err, &c) || !errors.Is(err, errs.ErrConflict) || c.Kind != k {
		t.Fatalf("want a conflict of kind %d, got %v", k, err)
	}
}

func TestRefsListBranchesPagesByName(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	second := r.commit(t, "two", "2020-01-02T00:00:00Z")
	r.git(t, nil, "", "branch", "zeta", first)
	r.git(t, nil, "", "branch", "feature/x", first)
	r.git(t, nil, "", "branch", "alpha")
	r.push(t)

	page, total, err := r.s.ListBranches(ctx, r.p, ports.ListOptions{Page: 1, Limit: 2})
	is.NoErr(err)
	is.Equal(total, int64(4))
	is.Equal(len(page), 2)
	is.Equal(page[0].Name, "alpha")
	is.Equal(page[0].Commit.ID, second)
	is.Equal(page[1].Name, "feature/x") // names with slashes are listed too
	is.Equal(page[1].Commit.ID, first)
	is.Equal(page[1].Commit.Message, "one\n")
	is.Equal(page[1].Commit.Author.Email, "tagger@example.com")

	page, _, err = r.s.ListBranches(ctx, r.p, ports.ListOptions{Page: 2, Limit: 2})
	is.NoErr(err)
	is.Equal([]string{page[0].Name, page[1].Name}, []string{"main", "zeta"})

	page, total, err = r.s.ListBranches(ctx, r.p, ports.ListOptions{Page: 3, Limit: 2})
	is.NoErr(err)
	is.Equal(len(page), 0)
	is.Equal(total, int64(4))

	b, err := r.s.Branch(ctx, r.p, "feature/x")
	is.NoErr(err)
	is.Equal(b.Commit.ID, r.bareGit(t, "rev-parse", "refs/heads/feature/x"))
	is.Equal(b.Commit.ParentIDs, []string{})

	for _, absent := range []string{"nope", "feature", "feature/x/y", "", "a..b", "-x"} {
		_, err = r.s.Branch(ctx, r.p, absent)
		is.True(errors.Is(err, errs.ErrNotFound)) // absent or impossible names are not found
	}
}

func TestRefsListBranchesOfEmptyRepository(t *testing.T) {
	is := is.New(t)
	r := refsFixture(t)
	page, total, err := r.s.ListBranches(context.Background(), r.p, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(page), 0)
	is.Equal(total, int64(0))
	_, err = r.s.Branch(context.Background(), r.p, "main")
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestRefsCreateBranch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "tag", "v1")
	r.push(t)

	b, err := r.s.CreateBranch(ctx, r.p, "new/one", first)
	is.NoErr(err)
	is.Equal(b.Name, "new/one")
	is.Equal(b.Commit.ID, first)
	is.Equal(r.bareGit(t, "rev-parse", "refs/heads/new/one"), first)

	_, err = r.s.CreateBranch(ctx, r.p, "new/one", first)
	refsKind(t, err, ports.RefExists)
	_, err = r.s.CreateBranch(ctx, r.p, "new", first)
	refsKind(t, err, ports.RefNameClash)
	_, err = r.s.CreateBranch(ctx, r.p, "new/one/two", first)
	refsKind(t, err, ports.RefNameClash)
	_, err = r.s.CreateBranch(ctx, r.p, "v1", first)
	refsKind(t, err, ports.RefTagExists)

	for _, bad := range []string{"a..b", "", "x.lock", "-x", "a b", "end/"} {
		_, err = r.s.CreateBranch(ctx, r.p, bad, first)
		is.True(hasField(t, err, "BranchName"))
	}
	_, err = r.s.CreateBranch(ctx, r.p, "other", strings.Repeat("1", 40))
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(r.bareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads"), "refs/heads/main\nrefs/heads/new/one")
	r.bareGit(t, "fsck", "--strict")
}

func TestRefsCreateBranchConcurrentlyOnlyOneWins(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	second := r.commit(t, "two", "2020-01-02T00:00:00Z")
	r.push(t)

	const n = 8
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		winners []string
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			b, err := r.s.CreateBranch(ctx, r.p, "race", id)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				winners = append(winners, b.Commit.ID)
			case !errors.Is(err, errs.ErrConflict):
				t.Errorf("unexpected error: %v", err)
			}
		}([]string{first, second}[i%2])
	}
	wg.Wait()
	is.Equal(len(winners), 1)
	is.Equal(r.bareGit(t, "rev-parse", "refs/heads/race"), winners[0])
}

func TestRefsRenameBranch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "branch", "dev")
	r.git(t, nil, "", "branch", "a")
	r.push(t)

	is.NoErr(r.s.RenameBranch(ctx, r.p, "main", "trunk"))
	is.Equal(r.bareGit(t, "symbolic-ref", "HEAD"), "refs/heads/trunk") // HEAD follows the default branch
	is.Equal(r.bareGit(t, "rev-parse", "refs/heads/trunk"), first)
	is.Equal(r.bareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads"), "refs/heads/a\nrefs/heads/dev\nrefs/heads/trunk")

	is.NoErr(r.s.RenameBranch(ctx, r.p, "dev", "feature/dev"))
	is.Equal(r.bareGit(t, "symbolic-ref", "HEAD"), "refs/heads/trunk") // HEAD stays when another branch moves
	is.NoErr(r.s.RenameBranch(ctx, r.p, "a", "a/b"))                   // a branch may move under its own old name
	is.Equal(r.bareGit(t, "rev-parse", "refs/heads/a/b"), first)

	err := r.s.RenameBranch(ctx, r.p, "missing", "x")
	is.True(errors.Is(err, errs.ErrNotFound))
	err = r.s.RenameBranch(ctx, r.p, "trunk", "feature/dev")
	refsKind(t, err, ports.RefExists)
	err = r.s.RenameBranch(ctx, r.p, "trunk", "feature")
	refsKind(t, err, ports.RefNameClash)
	err = r.s.RenameBranch(ctx, r.p, "trunk", "bad..name")
	is.True(hasField(t, err, "Name"))
	r.bareGit(t, "fsck", "--strict")
}

func TestRefsDeleteBranch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "branch", "gone/soon")
	r.git(t, nil, "", "pack-refs", "--all") // packed references are deleted too
	r.push(t)
	r.bareGit(t, "pack-refs", "--all")

	old, err := r.s.DeleteBranch(ctx, r.p, "gone/soon")
	is.NoErr(err)
	is.Equal(old, first)
	is.Equal(r.bareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads"), "refs/heads/main")

	_, err = r.s.DeleteBranch(ctx, r.p, "gone/soon")
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.DeleteBranch(ctx, r.p, "a..b")
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestRefsDeleteBranchConcurrentlyOnlyOneWins(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "branch", "doomed")
	r.push(t)

	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.s.DeleteBranch(ctx, r.p, "doomed")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, errs.ErrNotFound) && !errors.Is(err, errs.ErrConflict):
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	is.Equal(wins, 1)
}

func TestRefsListBranchesReadsOnlyThePage(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	head := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.push(t)

	// 1,000 branches: the first page's point at a real commit, every other
	// one at an object that does not exist. Were those read, they would be
	// skipped and counted out; the page's alone are read, so the total is
	// the number of names.
	missing := strings.Repeat("e", 40)
	var packed strings.Builder
	packed.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
	for i := 0; i < 1000; i++ {
		id := missing
		if i < 30 {
			id = head
		}
		fmt.Fprintf(&packed, "%s refs/heads/b%04d\n", id, i)
	}
	is.NoErr(os.WriteFile(filepath.Join(r.bare, "packed-refs"), []byte(packed.String()), 0o644))

	page, total, err := r.s.ListBranches(ctx, r.p, ports.ListOptions{Page: 1, Limit: 30})
	is.NoErr(err)
	is.Equal(total, int64(1001)) // b0000…b0999 and main
	is.Equal(len(page), 30)
	is.Equal(page[29].Name, "b0029")
	is.Equal(page[29].Commit.ID, head)

	// A page of broken branches is skipped and counted out, as Gitea does.
	page, total, err = r.s.ListBranches(ctx, r.p, ports.ListOptions{Page: 2, Limit: 30})
	is.NoErr(err)
	is.Equal(len(page), 0)
	is.Equal(total, int64(1001-30))
}

// TestRefsBranchTipsFollowEveryRefChange reads tips on the pool's warm
// handle between pushes, a packing of the refs, a deletion and a write
// through libgit2: each read sees the branch where Git has it now.
func TestRefsBranchTipsFollowEveryRefChange(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := refsFixture(t)
	first := r.commit(t, "one", "2020-01-01T00:00:00Z")
	r.git(t, nil, "", "branch", "topic", first)
	r.push(t)
	tips, err := r.s.BranchTips(ctx, r.p, []string{"main", "topic", "nope", "", "a..b", "main"})
	is.NoErr(err)
	is.Equal(tips, map[string]string{"main": first, "topic": first})

	second := r.commit(t, "two", "2020-01-02T00:00:00Z")
	r.push(t) // a loose ref rewritten by receive-pack
	tips, err = r.s.BranchTips(ctx, r.p, []string{"main"})
	is.NoErr(err)
	is.Equal(tips["main"], second)

	r.bareGit(t, "pack-refs", "--all") // now only in packed-refs
	tips, err = r.s.BranchTips(ctx, r.p, []string{"main", "topic"})
	is.NoErr(err)
	is.Equal(tips, map[string]string{"main": second, "topic": first})

	third := commit(t, r.s, r.p, "main", "three", file("x.txt", "x")) // libgit2 writes the ref
	r.bareGit(t, "branch", "-D", "topic")
	tips, err = r.s.BranchTips(ctx, r.p, []string{"main", "topic"})
	is.NoErr(err)
	is.Equal(tips, map[string]string{"main": third})
	b, err := r.s.Branch(ctx, r.p, "main")
	is.NoErr(err)
	is.Equal(b.Commit.ID, third)

	_, err = r.s.BranchTips(ctx, ports.RepoPath{Owner: "alice", Name: "absent"}, []string{"main"})
	is.True(errors.Is(err, errs.ErrNotFound))
}
