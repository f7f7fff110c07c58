package libgit2_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// pullMerger is the part of ports.GitPulls the adapter implements here.
type pullMerger interface {
	CopyRef(ctx context.Context, from ports.RepoPath, fromRef string, to ports.RepoPath, toRef string) (string, error)
	UpdateRef(ctx context.Context, p ports.RepoPath, ref, newID, oldID string) error
	IsAncestor(ctx context.Context, p ports.RepoPath, a, b string) (bool, error)
	CheckMerge(ctx context.Context, p ports.RepoPath, baseID, headID string) (ports.MergeCheck, error)
	MergeCommits(ctx context.Context, p ports.RepoPath, ours, theirs string, c ports.GitMergeCommit) (string, error)
	SquashCommits(ctx context.Context, p ports.RepoPath, base, head string, c ports.GitMergeCommit) (string, error)
	RebaseCommits(ctx context.Context, p ports.RepoPath, onto, head string, committer ports.GitSignature) (string, error)
}

var _ pullMerger = (*libgit2.Storage)(nil)

// pullRepo is a repository of the storage whose Git directory is also the
// Git directory of a work tree, so that the git CLI builds its history
// (merges included) and serves as the oracle.
type pullRepo struct {
	t    testing.TB
	s    *libgit2.Storage
	root string
	p    ports.RepoPath
	work string
}

func newPullRepo(t testing.TB) *pullRepo {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repos")
	s, err := libgit2.New(root, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	r := &pullRepo{t: t, s: s, root: root, p: ports.RepoPath{Owner: "alice", Name: "pulls"}, work: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(root, r.p.Owner), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main", "--separate-git-dir", repoDir(root, r.p), r.work)
	return r
}

// git runs the git CLI in the work tree and returns its trimmed output.
func (r *pullRepo) git(args ...string) string {
	r.t.Helper()
	out, err := r.gitErr(args...)
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// gitErr is git that returns the error instead of failing.
func (r *pullRepo) gitErr(args ...string) (string, error) {
	r.t.Helper()
	return gitIn(r.work, args...)
}

// newGitCmd is git in dir with no user or system configuration, signing
// as Tagger.
func newGitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=Tagger", "GIT_AUTHOR_EMAIL=tagger@example.com",
		"GIT_COMMITTER_NAME=Tagger", "GIT_COMMITTER_EMAIL=tagger@example.com",
	)
	return cmd
}

// gitIn runs git in dir (newGitCmd) and returns its trimmed output.
func gitIn(dir string, args ...string) (string, error) {
	cmd := newGitCmd(dir, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return stderr.String() + string(out), err
	}
	return strings.TrimSpace(string(out)), nil
}

// write writes files (path, content, path, content, …) and commits them
// all with msg, returning the commit id.
func (r *pullRepo) write(msg string, pathsAndContents ...string) string {
	r.t.Helper()
	for i := 0; i < len(pathsAndContents); i += 2 {
		path := filepath.Join(r.work, pathsAndContents[i])
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(pathsAndContents[i+1]), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// oracleMerge is the tree git merge makes of theirs merged into ours.
func (r *pullRepo) oracleMerge(ours, theirs string) string {
	r.t.Helper()
	r.git("checkout", "-q", "--detach", ours)
	r.git("merge", "-q", "--no-edit", theirs)
	tree := r.git("rev-parse", "HEAD^{tree}")
	r.git("checkout", "-q", "main")
	return tree
}

var (
	bob   = ports.GitSignature{Name: "Bob Merger", Email: "bob@example.com", When: time.Date(2024, 6, 2, 9, 30, 0, 0, time.FixedZone("", 2*3600))}
	carol = ports.GitSignature{Name: "Carol Committer", Email: "carol@example.com", When: time.Date(2024, 6, 3, 10, 0, 0, 0, time.UTC)}
)

// diverged builds main and feature from a common base: feature changes
// a.txt's first line and adds b.txt, main changes a.txt's last line.
func diverged(r *pullRepo) (base, mainTip, feature string) {
	base = r.write("base", "a.txt", "1\n2\n3\n4\n5\n6\n7\n", "old.txt", "stays\nthe\nsame\nhere\n")
	r.git("checkout", "-q", "-b", "feature")
	r.write("feature one", "a.txt", "one\n2\n3\n4\n5\n6\n7\n", "b.txt", "b\n")
	r.git("mv", "old.txt", "new.txt")
	feature = r.write("feature two: rename")
	r.git("checkout", "-q", "main")
	mainTip = r.write("main one", "a.txt", "1\n2\n3\n4\n5\n6\nseven\n")
	return base, mainTip, feature
}

func TestPullCheckMergeMergeable(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	_, mainTip, feature := diverged(r)

	got, err := r.s.CheckMerge(ctx, r.p, mainTip, feature)
	is.NoErr(err)
	is.Equal(got.Status, ports.MergeMergeable)
	is.Equal(got.MergeBase, r.git("merge-base", mainTip, feature))
	is.Equal(strconv.Itoa(got.CommitsAhead), r.git("rev-list", "--count", mainTip+".."+feature))
	is.Equal(strconv.Itoa(got.CommitsBehind), r.git("rev-list", "--count", feature+".."+mainTip))
	is.Equal(got.ConflictedFiles, []string(nil))
	// git diff --shortstat -M: "3 files changed, 2 insertions(+), 1 deletion(-)"
	stat := r.git("diff", "--shortstat", "-M", mainTip+"..."+feature)
	is.Equal(fmt.Sprintf(" %d files changed, %d insertions(+), %d deletion(-)", got.ChangedFiles, got.Additions, got.Deletions), " "+stat)
}

// objectCount is how many objects the repository holds, loose and packed
// (git count-objects -v).
func (r *pullRepo) objectCount() int {
	r.t.Helper()
	total := 0
	for _, line := range strings.Split(r.git("count-objects", "-v"), "\n") {
		key, value, _ := strings.Cut(line, ": ")
		if key == "count" || key == "in-pack" {
			n, err := strconv.Atoi(value)
			if err != nil {
				r.t.Fatal(err)
			}
			total += n
		}
	}
	return total
}

// TestPullCheckMergeWritesNoObjects checks pull requests again and again
// and finds the repository as it was: the merged file contents and trees a
// check computes stay in memory, for a mergeable and a conflicting pull
// request alike.
func TestPullCheckMergeWritesNoObjects(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	_, mainTip, feature := diverged(r) // a.txt merges line by line: a new blob, new trees
	r.git("checkout", "-q", "-b", "clash", mainTip+"~1")
	clash := r.write("clash", "a.txt", "1\n2\n3\n4\n5\n6\nSEVEN\n")
	r.git("checkout", "-q", "main")
	is.True(r.git("count-objects") != "0 objects, 0 kilobytes") // loose objects are what gets counted

	before := r.objectCount()
	for n := 0; n < 20; n++ {
		got, err := r.s.CheckMerge(ctx, r.p, mainTip, feature)
		is.NoErr(err)
		is.Equal(got.Status, ports.MergeMergeable)
		got, err = r.s.CheckMerge(ctx, r.p, mainTip, clash)
		is.NoErr(err)
		is.Equal(got.Status, ports.MergeConflict)
	}
	is.Equal(r.objectCount(), before) // nothing written

	// Merging for real still writes what the merge needs.
	_, err := r.s.MergeCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{Author: bob, Committer: carol, Message: "merge"})
	is.NoErr(err)
	is.True(r.objectCount() > before)
}

func TestPullMergeCommits(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	_, mainTip, feature := diverged(r)

	id, err := r.s.MergeCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{
		Message: "Merge pull request 'feature'", Author: bob, Committer: carol,
	})
	is.NoErr(err)
	is.Equal(r.git("rev-list", "--parents", "-n1", id), id+" "+mainTip+" "+feature)
	is.Equal(r.git("rev-parse", id+"^{tree}"), r.oracleMerge(mainTip, feature))
	is.Equal(r.git("log", "-1", "--format=%B|%an <%ae> %aI|%cn <%ce> %cI", id),
		"Merge pull request 'feature'\n|Bob Merger <bob@example.com> 2024-06-02T09:30:00+02:00|Carol Committer <carol@example.com> 2024-06-03T10:00:00+00:00")
	is.Equal(r.git("rev-parse", "main"), mainTip) // no ref moved
	r.git("fsck", "--strict", "--no-dangling")

	// The author needs a name.
	_, err = r.s.MergeCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{Message: "m"})
	is.True(errors.Is(err, errs.ErrInvalid))
}

func TestPullSquashCommits(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	_, mainTip, feature := diverged(r)

	id, err := r.s.SquashCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{Message: "Squashed", Author: bob})
	is.NoErr(err)
	is.Equal(r.git("rev-list", "--parents", "-n1", id), id+" "+mainTip)
	is.Equal(r.git("rev-parse", id+"^{tree}"), r.oracleMerge(mainTip, feature))
	// No committer: the author commits.
	is.Equal(r.git("log", "-1", "--format=%s|%an|%cn|%cI", id), "Squashed|Bob Merger|Bob Merger|2024-06-02T09:30:00+02:00")
}

func TestPullCheckMergeConflict(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	r.write("base", "z.txt", "a\nb\nc\n", "m/y.txt", "a\nb\nc\n", "clean.txt", "x\n")
	r.git("checkout", "-q", "-b", "feature")
	feature := r.write("feature", "z.txt", "a\nfeature\nc\n", "m/y.txt", "a\nfeature\nc\n", "clean.txt", "y\n")
	r.git("checkout", "-q", "main")
	mainTip := r.write("main", "z.txt", "a\nmain\nc\n", "m/y.txt", "a\nmain\nc\n")

	got, err := r.s.CheckMerge(ctx, r.p, mainTip, feature)
	is.NoErr(err)
	is.Equal(got.Status, ports.MergeConflict)
	is.Equal(got.ConflictedFiles, []string{"m/y.txt", "z.txt"})
	is.Equal(got.CommitsAhead, 1)
	is.Equal(got.CommitsBehind, 1)
	is.Equal(got.ChangedFiles, 3)

	// git agrees there is a conflict, in the same files.
	r.git("checkout", "-q", "--detach", mainTip)
	_, mergeErr := r.gitErr("merge", "-q", "--no-edit", feature)
	is.True(mergeErr != nil)
	is.Equal(r.git("diff", "--name-only", "--diff-filter=U"), "m/y.txt\nz.txt")
	r.git("merge", "--abort")
	r.git("checkout", "-q", "main")

	_, err = r.s.MergeCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{Message: "m", Author: bob})
	is.True(errors.Is(err, errs.ErrConflict))
	_, err = r.s.SquashCommits(ctx, r.p, mainTip, feature, ports.GitMergeCommit{Message: "m", Author: bob})
	is.True(errors.Is(err, errs.ErrConflict))
}

func TestPullCheckMergeEmptyAndAncestor(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	old := r.write("base", "a.txt", "a\n")
	r.git("checkout", "-q", "-b", "feature")
	feature := r.write("same change", "a.txt", "b\n")
	r.git("checkout", "-q", "main")
	mainTip := r.write("same change on main", "a.txt", "b\n")

	got, err := r.s.CheckMerge(ctx, r.p, mainTip, feature)
	is.NoErr(err)
	is.Equal(got.Status, ports.MergeEmpty)
	is.Equal(got.MergeBase, old)

	got, err = r.s.CheckMerge(ctx, r.p, mainTip, old)
	is.NoErr(err)
	is.Equal(got.Status, ports.MergeAncestor)
	is.Equal(got.CommitsAhead, 0)
	is.Equal(got.CommitsBehind, 1)
	got, err = r.s.CheckMerge(ctx, r.p, mainTip, mainTip)
	is.NoErr(err)
	is.Equal(got.Status, ports.MergeAncestor)

	_, err = r.s.CheckMerge(ctx, r.p, mainTip, strings.Repeat("1", 40))
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.CheckMerge(ctx, r.p, "main", feature) // a full commit id is required
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.CheckMerge(ctx, ports.RepoPath{Owner: "alice", Name: "none"}, mainTip, feature)
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestPullIsAncestor(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	base, mainTip, feature := diverged(r)
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{base, mainTip, true}, {base, feature, true}, {mainTip, mainTip, true},
		{mainTip, base, false}, {feature, mainTip, false},
	} {
		got, err := r.s.IsAncestor(ctx, r.p, c.a, c.b)
		is.NoErr(err)
		is.Equal(got, c.want)
		_, gitErr := r.gitErr("merge-base", "--is-ancestor", c.a, c.b)
		is.Equal(gitErr == nil, c.want) // git agrees
	}
	_, err := r.s.IsAncestor(ctx, r.p, base, strings.Repeat("a", 40))
	is.True(errors.Is(err, errs.ErrNotFound))
}

// rebaseHistory builds a feature branch of three commits, a merge of a
// side branch and a commit whose change main also made; main moved on.
func rebaseHistory(r *pullRepo) (mainTip, feature string) {
	r.write("base", "a.txt", "1\n2\n3\n", "dup.txt", "old\n", "main.txt", "m\n")
	r.git("checkout", "-q", "-b", "side")
	r.write("side", "side.txt", "side\n")
	r.git("checkout", "-q", "main")
	r.git("checkout", "-q", "-b", "feature")
	r.write("feature one", "a.txt", "one\n2\n3\n")
	r.write("feature dup", "dup.txt", "new\n")
	r.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
	feature = r.write("feature three", "c.txt", "c\n")
	r.git("checkout", "-q", "main")
	r.write("main dup", "dup.txt", "new\n")
	mainTip = r.write("main moves", "main.txt", "moved\n")
	return mainTip, feature
}

func TestPullRebaseCommits(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	mainTip, feature := rebaseHistory(r)

	tip, err := r.s.RebaseCommits(ctx, r.p, mainTip, feature, carol)
	is.NoErr(err)

	// git rebase of the same branch is the oracle.
	r.git("checkout", "-q", "-b", "oracle", feature)
	r.git("rebase", "-q", "main")
	oracle := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")

	is.Equal(r.git("rev-parse", tip+"^{tree}"), r.git("rev-parse", oracle+"^{tree}"))
	subjects := func(tip string) []string {
		return strings.Split(r.git("log", "--format=%s", mainTip+".."+tip), "\n")
	}
	is.Equal(subjects(tip), subjects(oracle))
	is.Equal(subjects(tip), []string{"feature three", "side", "feature one"}) // the merge and the duplicate dropped
	is.Equal(r.git("rev-list", "--min-parents=2", "--count", mainTip+".."+tip), "0")
	is.Equal(r.git("rev-list", "--first-parent", "--count", mainTip+".."+tip), "3") // a line on main
	// Authors and messages kept, committer replaced.
	is.Equal(r.git("log", "--format=%an <%ae>|%cn <%ce> %cI", mainTip+".."+tip),
		strings.Repeat("Tagger <tagger@example.com>|Carol Committer <carol@example.com> 2024-06-03T10:00:00+00:00\n", 2)+
			"Tagger <tagger@example.com>|Carol Committer <carol@example.com> 2024-06-03T10:00:00+00:00")
	is.Equal(r.git("log", "-1", "--format=%B", tip), "feature three")
	is.Equal(r.git("rev-parse", "feature"), feature) // no ref moved
	r.git("fsck", "--strict", "--no-dangling")

	// Nothing to replay: onto itself.
	same, err := r.s.RebaseCommits(ctx, r.p, mainTip, mainTip, carol)
	is.NoErr(err)
	is.Equal(same, mainTip)

	_, err = r.s.RebaseCommits(ctx, r.p, mainTip, feature, ports.GitSignature{})
	is.True(errors.Is(err, errs.ErrInvalid)) // a committer needs a name
}

// TestPullRebaseSkipsUpstreamPatches rebases a branch two of whose
// commits main already took (cherry-picked, one of them with other
// spacing) and then changed further: like git rebase, the rebase skips
// them by patch id, where replaying them would conflict.
func TestPullRebaseSkipsUpstreamPatches(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	r.write("base", "a.txt", "1\n2\n3\n", "b.txt", "x = 1\n", "keep.txt", "k\n")
	r.git("checkout", "-q", "-b", "feature")
	one := r.write("feature one", "a.txt", "one\n2\n3\n")
	r.write("feature two", "c.txt", "c\n")
	r.write("feature three", "b.txt", "x = 2\n")
	feature := r.write("feature four", "keep.txt", "kept\n")
	r.git("checkout", "-q", "main")
	r.git("cherry-pick", "-x", one) // -x: another commit than one, whatever the clock
	r.write("main three, spaced otherwise", "b.txt", "x  =  2\n")
	r.write("main goes further", "a.txt", "ONE\n2\n3\n", "b.txt", "x = 3\n")
	mainTip := r.write("main moves", "m.txt", "m\n")

	tip, err := r.s.RebaseCommits(ctx, r.p, mainTip, feature, carol)
	is.NoErr(err) // no conflict: the picks main has are skipped

	r.git("checkout", "-q", "-b", "oracle", feature)
	r.git("rebase", "-q", "main")
	oracle := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	is.Equal(r.git("rev-parse", tip+"^{tree}"), r.git("rev-parse", oracle+"^{tree}"))
	is.Equal(r.git("rev-list", "--count", mainTip+".."+tip), r.git("rev-list", "--count", mainTip+".."+oracle))
	is.Equal(r.git("log", "--format=%s", mainTip+".."+tip), "feature four\nfeature two")
	is.Equal(r.git("log", "--format=%s", mainTip+".."+oracle), "feature four\nfeature two")
	r.git("fsck", "--strict", "--no-dangling")
}

func TestPullRebaseCommitsConflict(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	r.write("base", "a.txt", "a\n")
	r.git("checkout", "-q", "-b", "feature")
	r.write("feature clean", "f.txt", "f\n")
	feature := r.write("feature", "a.txt", "feature\n")
	r.git("checkout", "-q", "main")
	mainTip := r.write("main", "a.txt", "main\n")

	_, err := r.s.RebaseCommits(ctx, r.p, mainTip, feature, carol)
	is.True(errors.Is(err, errs.ErrConflict))
	is.True(strings.Contains(err.Error(), feature))
	is.True(strings.Contains(err.Error(), "a.txt"))
}

func TestPullUpdateRef(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	one := r.write("one", "a", "1\n")
	two := r.write("two", "a", "2\n")
	const ref = "refs/pull/1/head"

	is.NoErr(r.s.UpdateRef(ctx, r.p, ref, one, ""))
	is.Equal(r.git("rev-parse", ref), one)
	is.True(errors.Is(r.s.UpdateRef(ctx, r.p, ref, two, ""), errs.ErrConflict))  // exists already
	is.True(errors.Is(r.s.UpdateRef(ctx, r.p, ref, two, two), errs.ErrConflict)) // not at two
	is.Equal(r.git("rev-parse", ref), one)
	is.NoErr(r.s.UpdateRef(ctx, r.p, ref, two, one))
	is.Equal(r.git("rev-parse", ref), two)
	is.True(errors.Is(r.s.UpdateRef(ctx, r.p, "refs/pull/2/head", one, two), errs.ErrConflict)) // absent
	is.True(errors.Is(r.s.UpdateRef(ctx, r.p, ref, strings.Repeat("b", 40), two), errs.ErrNotFound))
	is.True(errors.Is(r.s.UpdateRef(ctx, r.p, "refs/bad..name", one, ""), errs.ErrInvalid))
}

func TestPullUpdateRefRace(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	ids := []string{r.write("one", "a", "1\n"), r.write("two", "a", "2\n"), r.write("three", "a", "3\n")}
	const ref = "refs/heads/race"
	is.NoErr(r.s.UpdateRef(ctx, r.p, ref, ids[0], ""))
	cur := ids[0]
	for round := 0; round < 30; round++ {
		// Two updates from the current value to the two other commits.
		var targets []string
		for _, id := range ids {
			if id != cur {
				targets = append(targets, id)
			}
		}
		var wg sync.WaitGroup
		results := make([]error, 2)
		start := make(chan struct{})
		for i := range 2 {
			wg.Go(func() {
				<-start
				results[i] = r.s.UpdateRef(ctx, r.p, ref, targets[i], cur)
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for i, err := range results {
			if err == nil {
				is.Equal(won, -1) // only one wins
				won = i
				continue
			}
			is.True(errors.Is(err, errs.ErrConflict))
		}
		is.True(won >= 0) // one of them wins
		cur = targets[won]
		is.Equal(r.git("rev-parse", ref), cur)
	}
}

func TestPullCopyRef(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	base := r.write("base", "a.txt", "a\n")
	r.git("checkout", "-q", "-b", "feature")
	feature := r.write("feature", "b.txt", "b\n")
	r.git("checkout", "-q", "main")

	// Within one repository.
	id, err := r.s.CopyRef(ctx, r.p, "refs/heads/feature", r.p, "refs/pull/1/head")
	is.NoErr(err)
	is.Equal(id, feature)
	is.Equal(r.git("rev-parse", "refs/pull/1/head"), feature)
	// Forced: a move backwards is fine.
	id, err = r.s.CopyRef(ctx, r.p, "main", r.p, "refs/pull/1/head")
	is.NoErr(err)
	is.Equal(id, base)
	is.Equal(r.git("rev-parse", "refs/pull/1/head"), base)

	// From a fork, with a commit only the fork has.
	fork := ports.RepoPath{Owner: "bob", Name: "pulls"}
	is.NoErr(r.s.Fork(ctx, r.p, fork))
	forkTip := commit(t, r.s, fork, "topic", "only in the fork", file("fork.txt", "fork\n"))
	_, err = r.gitErr("cat-file", "-e", forkTip)
	is.True(err != nil) // not in the base repository yet

	id, err = r.s.CopyRef(ctx, fork, "refs/heads/topic", r.p, "refs/pull/2/head")
	is.NoErr(err)
	is.Equal(id, forkTip)
	is.Equal(r.git("rev-parse", "refs/pull/2/head"), forkTip)
	is.Equal(r.git("show", "refs/pull/2/head:fork.txt"), "fork")
	r.git("fsck", "--strict", "--no-dangling")
	// Nothing else came along: no new refs, no FETCH_HEAD.
	is.Equal(r.git("for-each-ref", "--format=%(refname)"), "refs/heads/feature\nrefs/heads/main\nrefs/pull/1/head\nrefs/pull/2/head")
	_, err = os.Stat(filepath.Join(repoDir(r.root, r.p), "FETCH_HEAD"))
	is.True(errors.Is(err, os.ErrNotExist))

	// The fork's branch moves on; a branch name works as well as a ref.
	forkTip = commit(t, r.s, fork, "topic", "more", file("fork.txt", "more\n"))
	id, err = r.s.CopyRef(ctx, fork, "topic", r.p, "refs/pull/2/head")
	is.NoErr(err)
	is.Equal(id, forkTip)
	is.Equal(r.git("show", "refs/pull/2/head:fork.txt"), "more")
	// A bare commit id of the fork.
	id, err = r.s.CopyRef(ctx, fork, forkTip, r.p, "refs/pull/3/head")
	is.NoErr(err)
	is.Equal(id, forkTip)
	is.Equal(r.git("rev-parse", "refs/pull/3/head"), forkTip)
	forkRefs, err := gitIn(r.work, "--git-dir", repoDir(r.root, fork), "for-each-ref", "--format=%(refname)")
	is.NoErr(err)
	is.Equal(forkRefs, "refs/heads/feature\nrefs/heads/main\nrefs/heads/topic") // the scratch ref is gone

	_, err = r.s.CopyRef(ctx, fork, "refs/heads/none", r.p, "refs/pull/4/head")
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = r.s.CopyRef(ctx, fork, "topic", r.p, "not-a-ref")
	is.True(errors.Is(err, errs.ErrInvalid))
	_, err = r.s.CopyRef(ctx, ports.RepoPath{Owner: "carol", Name: "none"}, "topic", r.p, "refs/pull/4/head")
	is.True(errors.Is(err, errs.ErrNotFound))
}

// BenchmarkCheckMerge checks a one-commit pull request against a base with
// a few hundred commits of history.
func BenchmarkCheckMerge(b *testing.B) {
	r := newPullRepo(b)
	var stream strings.Builder
	const commits = 300
	for i := 1; i <= commits; i++ {
		content := fmt.Sprintf("file %d, change %d\n", i%25, i)
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter A <a@example.com> %d +0000\ndata 8\ncommit%d\n",
			i, 1700000000+i, i%10)
		if i > 1 {
			fmt.Fprintf(&stream, "from :%d\n", i-1)
		}
		fmt.Fprintf(&stream, "M 100644 inline dir%d/f%d.txt\ndata %d\n%s\n", i%5, i%25, len(content), content)
	}
	cmd := newGitCmd(r.work, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	r.git("reset", "-q", "--hard", "main")
	base := r.git("rev-parse", "main~1")
	r.git("checkout", "-q", "-b", "feature", base)
	head := r.write("change", "dir1/f1.txt", "changed\n")
	ctx := context.Background()
	tip := r.git("rev-parse", "main")
	b.ResetTimer()
	for b.Loop() {
		got, err := r.s.CheckMerge(ctx, r.p, tip, head)
		if err != nil || got.Status != ports.MergeMergeable {
			b.Fatal(got, err)
		}
	}
}

func TestPullCheckMergeUnrelated(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	r := newPullRepo(t)
	mainTip := r.write("main", "a.txt", "a\n")
	r.git("checkout", "-q", "--orphan", "other")
	r.git("rm", "-q", "-r", "--cached", ".")
	other := r.write("other", "b.txt", "b\n", "c.txt", "c\nc\n")

	got, err := r.s.CheckMerge(ctx, r.p, mainTip, other)
	is.NoErr(err)
	is.Equal(got.MergeBase, "")
	is.Equal(got.Status, ports.MergeMergeable)
	is.Equal([]int{got.CommitsAhead, got.CommitsBehind}, []int{1, 1})
	is.Equal([]int{got.ChangedFiles, got.Additions, got.Deletions}, []int{3, 4, 0}) // a.txt is in other's tree too
}
