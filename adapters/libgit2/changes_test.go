package libgit2_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// changeFixture is a repository with one commit on main holding README.md,
// docs/a.txt, docs/b.txt and bin/run.sh (executable).
type changeFixture struct {
	s    *libgit2.Storage
	root string
	dir  string
	p    ports.RepoPath
}

func changeNewFixture(t *testing.T) *changeFixture {
	t.Helper()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "changes"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		t.Fatal(err)
	}
	commit(t, s, p, "main", "Initial commit",
		file("README.md", "# changes\n"), file("docs/a.txt", "a\n"), file("docs/b.txt", "b\n"),
		ports.GitFile{Path: "bin/run.sh", Content: []byte("#!/bin/sh\n"), Executable: true})
	return &changeFixture{s: s, root: root, dir: repoDir(root, p), p: p}
}

// git runs the git CLI on the bare repository.
func (f *changeFixture) git(t *testing.T, args ...string) string {
	t.Helper()
	return runGit(t, f.root, append([]string{"--git-dir", f.dir}, args...)...)
}

// blob is the id of path on main.
func (f *changeFixture) blob(t *testing.T, path string) string {
	t.Helper()
	return f.git(t, "rev-parse", "main:"+path)
}

// refs lists every reference with its target, to compare before and after.
func (f *changeFixture) refs(t *testing.T) string {
	t.Helper()
	return f.git(t, "for-each-ref", "--format=%(refname) %(objectname)")
}

// fsck checks the repository with git's strictest consistency check.
func (f *changeFixture) fsck(t *testing.T) {
	t.Helper()
	f.git(t, "fsck", "--strict", "--no-dangling")
}

// change commits changes on main as alice.
func (f *changeFixture) change(branch string, changes ...repository.FileChange) (ports.GitChangeResult, error) {
	return f.s.ChangeFiles(context.Background(), f.p, changeSet(branch, "", changes...))
}

func changeSet(branch, newBranch string, changes ...repository.FileChange) ports.GitChangeSet {
	return ports.GitChangeSet{
		GitChangeTarget: ports.GitChangeTarget{Branch: branch, NewBranch: newBranch, Message: "change\n", Author: alice},
		Changes:         changes,
	}
}

func TestChangesCreateUpdateDelete(t *testing.T) {
	is := is.New(t)
	f := changeNewFixture(t)
	first := f.git(t, "rev-parse", "main")

	// Create, nested in new directories.
	res, err := f.change("main", repository.FileChange{Operation: repository.FileCreate, Path: "new/deep/c.txt", Content: []byte("c\n")})
	is.NoErr(err)
	is.Equal(res.Branch, "main")
	is.Equal(res.Commit.ParentIDs, []string{first})
	is.Equal(f.git(t, "rev-parse", "main"), res.Commit.ID)
	is.Equal(f.git(t, "show", "main:new/deep/c.txt"), "c")
	is.Equal(f.git(t, "log", "-1", "--format=%an <%ae>%n%s", "main"), "Alice Example <alice@example.com>\nchange")
	is.Equal(len(res.Entries), 1)
	e := res.Entries[0]
	is.Equal(e.Path, "new/deep/c.txt")
	is.Equal(e.Name, "c.txt")
	is.Equal(e.Type, ports.EntryFile)
	is.Equal(e.Mode, 0o100644)
	is.Equal(e.ID, f.blob(t, "new/deep/c.txt"))
	is.Equal(string(e.Content), "c\n")
	is.Equal(e.Size, int64(2))
	is.Equal(e.LastCommit.ID, res.Commit.ID)
	f.fsck(t)

	// Update keeps the executable bit.
	res, err = f.change("main", repository.FileChange{Operation: repository.FileUpdate, Path: "bin/run.sh", SHA: f.blob(t, "bin/run.sh"), Content: []byte("#!/bin/sh\necho hi\n")})
	is.NoErr(err)
	is.Equal(f.git(t, "ls-tree", "--format=%(objectmode) %(path)", "main", "bin/run.sh"), "100755 bin/run.sh")
	is.Equal(res.Entries[0].Mode, 0o100755)
	is.Equal(f.git(t, "show", "main:bin/run.sh"), "#!/bin/sh\necho hi")

	// An update with the same content commits but the entry did not change.
	res, err = f.change("main", repository.FileChange{Operation: repository.FileUpdate, Path: "README.md", SHA: f.blob(t, "README.md"), Content: []byte("# changes\n")})
	is.NoErr(err)
	is.True(res.Entries[0].LastCommit == nil)

	// Update moving a file: the emptied directory disappears.
	res, err = f.change("main",
		repository.FileChange{Operation: repository.FileUpdate, Path: "moved/a.txt", FromPath: "docs/a.txt", SHA: f.blob(t, "docs/a.txt"), Content: []byte("A\n")},
		repository.FileChange{Operation: repository.FileRename, Path: "moved/b.txt", FromPath: "docs/b.txt", SHA: f.blob(t, "docs/b.txt")},
	)
	is.NoErr(err)
	is.Equal(string(res.Entries[1].Content), "b\n") // a rename without content keeps it
	is.Equal(f.git(t, "ls-tree", "-r", "--name-only", "main"), strings.Join([]string{
		"README.md", "bin/run.sh", "moved/a.txt", "moved/b.txt", "new/deep/c.txt",
	}, "\n"))
	is.Equal(f.git(t, "show", "main:moved/a.txt"), "A")
	is.Equal(f.git(t, "show", "main:moved/b.txt"), "b")

	// Several changes in one commit: create, upload over a file, delete.
	before := f.git(t, "rev-parse", "main")
	res, err = f.change("main",
		repository.FileChange{Operation: repository.FileCreate, Path: "x.txt", Content: []byte("x")},
		repository.FileChange{Operation: repository.FileUpload, Path: "README.md", Content: []byte("uploaded")},
		repository.FileChange{Operation: repository.FileDelete, Path: "new/deep/c.txt", SHA: f.blob(t, "new/deep/c.txt")},
	)
	is.NoErr(err)
	is.Equal(res.Commit.ParentIDs, []string{before})
	is.True(res.Entries[2] == nil) // a deletion has no entry
	is.Equal(f.git(t, "ls-tree", "-r", "--name-only", "main"), "README.md\nbin/run.sh\nmoved/a.txt\nmoved/b.txt\nx.txt")
	is.Equal(f.git(t, "show", "main:README.md"), "uploaded")
	is.Equal(f.git(t, "rev-list", "--count", "main"), "6")
	f.fsck(t)

	// Deleting the last files leaves an empty tree.
	_, err = f.change("main",
		repository.FileChange{Operation: repository.FileDelete, Path: "README.md", SHA: f.blob(t, "README.md")},
		repository.FileChange{Operation: repository.FileDelete, Path: "bin/run.sh", SHA: f.blob(t, "bin/run.sh")},
		repository.FileChange{Operation: repository.FileDelete, Path: "moved/a.txt", SHA: f.blob(t, "moved/a.txt")},
		repository.FileChange{Operation: repository.FileDelete, Path: "moved/b.txt", SHA: f.blob(t, "moved/b.txt")},
		repository.FileChange{Operation: repository.FileDelete, Path: "x.txt", SHA: f.blob(t, "x.txt")},
	)
	is.NoErr(err)
	is.Equal(f.git(t, "rev-parse", "main^{tree}"), "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
	f.fsck(t)
}

func TestChangesRefusals(t *testing.T) {
	f := changeNewFixture(t)
	f.git(t, "branch", "taken", "main")
	a := f.blob(t, "docs/a.txt")
	readme := f.blob(t, "README.md")
	stale := strings.Repeat("0", 40)
	cases := []struct {
		name    string
		branch  string
		newBr   string
		changes []repository.FileChange
		kind    error
		msg     string
	}{
		{"create over a file", "main", "", []repository.FileChange{{Operation: repository.FileCreate, Path: "README.md"}},
			errs.ErrInvalid, "TreePath: repository file already exists [path: README.md]"},
		{"create under a file", "main", "", []repository.FileChange{{Operation: repository.FileCreate, Path: "README.md/x"}},
			errs.ErrInvalid, "TreePath: a file exists where you're trying to create a subdirectory [path: README.md]"},
		{"create where a directory is", "main", "", []repository.FileChange{{Operation: repository.FileCreate, Path: "docs"}},
			errs.ErrInvalid, "TreePath: a directory exists where you're trying to create a file [path: docs]"},
		{"stale sha", "main", "", []repository.FileChange{{Operation: repository.FileUpdate, Path: "docs/a.txt", SHA: stale}},
			errs.ErrInvalid, "SHA: sha does not match [given: " + stale + ", expected: " + a + "]"},
		{"stale sha on delete", "main", "", []repository.FileChange{{Operation: repository.FileDelete, Path: "README.md", SHA: a}},
			errs.ErrInvalid, "SHA: sha does not match [given: " + a + ", expected: " + readme + "]"},
		{"stale sha on upload", "main", "", []repository.FileChange{{Operation: repository.FileUpload, Path: "README.md", SHA: a}},
			errs.ErrInvalid, "SHA: sha does not match [given: " + a + ", expected: " + readme + "]"},
		{"update absent", "main", "", []repository.FileChange{{Operation: repository.FileUpdate, Path: "nope.txt", SHA: a}},
			errs.ErrNotFound, "repository file does not exist [path: nope.txt]"},
		{"delete absent", "main", "", []repository.FileChange{{Operation: repository.FileDelete, Path: "docs/nope", SHA: a}},
			errs.ErrNotFound, "repository file does not exist [path: docs/nope]"},
		{"delete a directory", "main", "", []repository.FileChange{{Operation: repository.FileDelete, Path: "docs", SHA: a}},
			errs.ErrInvalid, "TreePath: a directory exists where a file is expected [path: docs]"},
		{"move onto a file", "main", "", []repository.FileChange{{Operation: repository.FileRename, Path: "README.md", FromPath: "docs/a.txt", SHA: a}},
			errs.ErrInvalid, "TreePath: repository file already exists [path: README.md]"},
		{"file and directory at once", "main", "", []repository.FileChange{
			{Operation: repository.FileCreate, Path: "n"}, {Operation: repository.FileCreate, Path: "n/m"}},
			errs.ErrInvalid, "TreePath: a file and a directory would share the path [path: n]"},
		{"absent branch", "nope", "", []repository.FileChange{{Operation: repository.FileCreate, Path: "x"}},
			errs.ErrNotFound, "branch does not exist [name: nope]"},
		{"new branch exists", "main", "taken", []repository.FileChange{{Operation: repository.FileCreate, Path: "x"}},
			errs.ErrInvalid, "NewBranchName: branch already exists [name: taken]"},
		{"invalid new branch", "main", "a..b", []repository.FileChange{{Operation: repository.FileCreate, Path: "x"}},
			errs.ErrInvalid, "NewBranchName: invalid branch name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			before := f.refs(t)
			_, err := f.s.ChangeFiles(context.Background(), f.p, changeSet(c.branch, c.newBr, c.changes...))
			is.True(errors.Is(err, c.kind))
			is.Equal(errs.Message(err), c.msg)
			is.Equal(f.refs(t), before) // nothing moved
			f.fsck(t)
		})
	}
}

func TestChangesSymlinksAndSubmodules(t *testing.T) {
	is := is.New(t)
	f := changeNewFixture(t)
	// Add a symbolic link and a submodule entry with plumbing.
	target := changeGitIn(t, f, "README.md", "hash-object", "-w", "--stdin")
	listing := f.git(t, "ls-tree", "main") + "\n" +
		"120000 blob " + target + "\tlink\n" +
		"160000 commit " + f.git(t, "rev-parse", "main") + "\tsub"
	newTree := changeGitIn(t, f, listing, "mktree")
	id := f.git(t, "commit-tree", newTree, "-p", "main", "-m", "links")
	f.git(t, "update-ref", "refs/heads/main", id)

	_, err := f.change("main", repository.FileChange{Operation: repository.FileUpdate, Path: "link", SHA: target, Content: []byte("x")})
	is.Equal(errs.Message(err), "TreePath: a symbolic link exists where a file is expected [path: link]")
	_, err = f.change("main", repository.FileChange{Operation: repository.FileCreate, Path: "sub/x"})
	is.Equal(errs.Message(err), "TreePath: a submodule exists where you're trying to create a subdirectory [path: sub]")
	_, err = f.change("main", repository.FileChange{Operation: repository.FileUpload, Path: "link", Content: []byte("x")})
	is.Equal(errs.Message(err), "TreePath: a symbolic link exists where a file is expected [path: link]")
	// A symbolic link may be deleted, with its SHA.
	_, err = f.change("main", repository.FileChange{Operation: repository.FileDelete, Path: "link", SHA: target})
	is.NoErr(err)
	is.Equal(f.git(t, "ls-tree", "--name-only", "main"), "README.md\nbin\ndocs\nsub")
}

func TestChangesEmptyRepositoryAndNewBranch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "empty"}
	is.NoErr(s.Init(ctx, p, "main"))
	dir := repoDir(root, p)

	// Nothing to update or delete yet.
	_, err := s.ChangeFiles(ctx, p, changeSet("main", "", repository.FileChange{Operation: repository.FileDelete, Path: "a", SHA: strings.Repeat("a", 40)}))
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = s.ApplyPatch(ctx, p, ports.GitPatchSet{GitChangeTarget: changeSet("main", "").GitChangeTarget, Patch: []byte(changePatchAddHello)})
	is.Equal(errs.Message(err), "branch does not exist [name: main]") // a patch needs a branch, as in Gitea

	// The first write creates the branch with a parentless commit.
	res, err := s.ChangeFiles(ctx, p, changeSet("main", "", repository.FileChange{Operation: repository.FileCreate, Path: "first.txt", Content: []byte("1")}))
	is.NoErr(err)
	is.True(res.WasEmpty)
	is.Equal(len(res.Commit.ParentIDs), 0)
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-parse", "main"), res.Commit.ID)

	// Later writes are not first ones; a new branch starts at the old tip.
	res2, err := s.ChangeFiles(ctx, p, changeSet("main", "feature/x", repository.FileChange{Operation: repository.FileCreate, Path: "second.txt", Content: []byte("2")}))
	is.NoErr(err)
	is.True(!res2.WasEmpty)
	is.Equal(res2.Branch, "feature/x")
	is.Equal(res2.Commit.ParentIDs, []string{res.Commit.ID})
	is.Equal(runGit(t, root, "--git-dir", dir, "rev-parse", "main"), res.Commit.ID) // main did not move
	is.Equal(runGit(t, root, "--git-dir", dir, "ls-tree", "--name-only", "feature/x"), "first.txt\nsecond.txt")

	// An absent branch is an error once the repository has one.
	_, err = s.ChangeFiles(ctx, p, changeSet("other", "", repository.FileChange{Operation: repository.FileCreate, Path: "x"}))
	is.Equal(errs.Message(err), "branch does not exist [name: other]")
	runGit(t, root, "--git-dir", dir, "fsck", "--strict", "--no-dangling")
}

func TestChangesRetryOnMovedBranch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	f := changeNewFixture(t)
	start := f.git(t, "rev-parse", "main")

	// Another write lands between building the tree and moving the branch:
	// the change still applies to the new tip, so it is rebuilt there.
	var other ports.GitChangeResult
	attempts := 0
	res, err := f.s.ChangeFilesRacing(ctx, f.p, changeSet("main", "", repository.FileChange{Operation: repository.FileCreate, Path: "mine.txt", Content: []byte("mine")}),
		func(attempt int) {
			attempts = attempt
			if attempt == 1 {
				var err error
				other, err = f.change("main", repository.FileChange{Operation: repository.FileCreate, Path: "theirs.txt", Content: []byte("theirs")})
				is.NoErr(err)
			}
		})
	is.NoErr(err)
	is.Equal(attempts, 2)
	is.Equal(res.Commit.ParentIDs, []string{other.Commit.ID})
	is.Equal(other.Commit.ParentIDs, []string{start})
	is.Equal(f.git(t, "ls-tree", "--name-only", "main"), "README.md\nbin\ndocs\nmine.txt\ntheirs.txt")
	f.fsck(t)

	// When the other write changed the same file, the retry no longer
	// applies: a conflict, and the branch keeps the other write.
	sha := f.blob(t, "docs/a.txt")
	_, err = f.s.ChangeFilesRacing(ctx, f.p, changeSet("main", "", repository.FileChange{Operation: repository.FileUpdate, Path: "docs/a.txt", SHA: sha, Content: []byte("mine")}),
		func(attempt int) {
			if attempt == 1 {
				_, err := f.change("main", repository.FileChange{Operation: repository.FileUpdate, Path: "docs/a.txt", SHA: sha, Content: []byte("theirs")})
				is.NoErr(err)
			}
		})
	is.True(errors.Is(err, errs.ErrConflict))
	is.True(strings.HasPrefix(errs.Message(err), "branch main changed while committing: SHA: sha does not match"))
	is.Equal(f.git(t, "show", "main:docs/a.txt"), "theirs")

	// A branch being created by someone else meanwhile is not overwritten.
	_, err = f.s.ChangeFilesRacing(ctx, f.p, changeSet("main", "fresh", repository.FileChange{Operation: repository.FileCreate, Path: "y"}),
		func(attempt int) {
			if attempt == 1 {
				f.git(t, "branch", "fresh", start)
			}
		})
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(f.git(t, "rev-parse", "fresh"), start)
	f.fsck(t)
}

func TestChangesConcurrentWritesLoseNothing(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	f := changeNewFixture(t)
	const n = 16
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := f.s.ChangeFiles(ctx, f.p, changeSet("main", "", repository.FileChange{
				Operation: repository.FileCreate, Path: fmt.Sprintf("par/%02d.txt", i), Content: []byte(fmt.Sprint(i)),
			}))
			errc <- err
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		is.NoErr(err)
	}
	is.Equal(f.git(t, "rev-list", "--count", "main"), fmt.Sprint(n+1)) // every commit is in the history
	is.Equal(len(strings.Split(f.git(t, "ls-tree", "--name-only", "main:par"), "\n")), n)
	f.fsck(t)
}

func TestChangesSignatures(t *testing.T) {
	is := is.New(t)
	f := changeNewFixture(t)
	cs := changeSet("main", "", repository.FileChange{Operation: repository.FileCreate, Path: "s.txt"})
	cs.Committer = ports.GitSignature{Name: "Bot", Email: "bot@example.com", When: alice.When.Add(3600e9)}
	cs.Message = "Subject\n\nSigned-off-by: Bot <bot@example.com>\n"
	res, err := f.s.ChangeFiles(context.Background(), f.p, cs)
	is.NoErr(err)
	is.Equal(f.git(t, "log", "-1", "--format=%an <%ae> %at%n%cn <%ce> %ct%n%B", "main"),
		"Alice Example <alice@example.com> 1714564800\nBot <bot@example.com> 1714568400\nSubject\n\nSigned-off-by: Bot <bot@example.com>")
	is.Equal(res.Commit.Committer.Name, "Bot")

	cs.Author = ports.GitSignature{}
	_, err = f.s.ChangeFiles(context.Background(), f.p, cs)
	is.True(errors.Is(err, errs.ErrInvalid))
}

// changeGitIn runs git on f's repository with stdin as input and returns its
// trimmed output.
func changeGitIn(t *testing.T, f *changeFixture, stdin string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(changeGitRaw(t, f.root, stdin, append([]string{"--git-dir", f.dir}, args...)...))
}

// changeGitRaw runs git in dir with stdin as input and returns its output as is.
func changeGitRaw(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+t.TempDir(),
		"GIT_AUTHOR_NAME=Tagger", "GIT_AUTHOR_EMAIL=tagger@example.com",
		"GIT_COMMITTER_NAME=Tagger", "GIT_COMMITTER_EMAIL=tagger@example.com")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}
