package libgit2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// changePatchAddHello adds hello.txt, as git diff writes it.
const changePatchAddHello = `diff --git a/hello.txt b/hello.txt
new file mode 100644
index 0000000..ce01362
--- /dev/null
+++ b/hello.txt
@@ -0,0 +1 @@
+hello
`

// changePatch returns the patch a work tree's change makes, as git diff
// writes it: edit runs in a clone of f's main branch.
func changePatch(t *testing.T, f *changeFixture, edit func(work string)) string {
	t.Helper()
	work := filepath.Join(t.TempDir(), "work")
	runGit(t, f.root, "clone", "--quiet", f.dir, work)
	edit(work)
	runGit(t, work, "add", "-A")
	return changeGitRaw(t, work, "", "diff", "--cached", "--binary", "HEAD")
}

func changePatchSet(branch, newBranch, patch string) ports.GitPatchSet {
	return ports.GitPatchSet{GitChangeTarget: changeSet(branch, newBranch).GitChangeTarget, Patch: []byte(patch)}
}

func TestChangesApplyPatch(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	f := changeNewFixture(t)
	start := f.git(t, "rev-parse", "main")

	var gitTree string
	patch := changePatch(t, f, func(work string) {
		is.NoErr(os.WriteFile(filepath.Join(work, "README.md"), []byte("# changes\nmore\n"), 0o644))
		is.NoErr(os.Remove(filepath.Join(work, "docs", "b.txt")))
		is.NoErr(os.MkdirAll(filepath.Join(work, "new"), 0o755))
		is.NoErr(os.WriteFile(filepath.Join(work, "new", "bin.dat"), []byte{0, 1, 2, 255, 0}, 0o644))
		is.NoErr(os.Rename(filepath.Join(work, "docs", "a.txt"), filepath.Join(work, "docs", "renamed.txt")))
		is.NoErr(os.Chmod(filepath.Join(work, "bin", "run.sh"), 0o644))
		runGit(t, work, "add", "-A")
		gitTree = runGit(t, work, "write-tree")
	})

	res, err := f.s.ApplyPatch(ctx, f.p, changePatchSet("main", "", patch))
	is.NoErr(err)
	is.Equal(res.Branch, "main")
	is.Equal(res.Commit.ParentIDs, []string{start})
	is.Equal(res.Commit.TreeID, gitTree) // the same tree git itself makes
	is.Equal(len(res.Entries), 0)
	is.Equal(f.git(t, "rev-parse", "main"), res.Commit.ID)
	is.Equal(f.git(t, "log", "-1", "--format=%s", "main"), "change")
	f.fsck(t)

	// A patch that no longer applies changes nothing.
	before := f.refs(t)
	_, err = f.s.ApplyPatch(ctx, f.p, changePatchSet("main", "", patch))
	is.True(errors.Is(err, errs.ErrConflict))
	is.True(strings.HasPrefix(errs.Message(err), "patch does not apply: "))
	is.Equal(f.refs(t), before)

	// On a new branch.
	res, err = f.s.ApplyPatch(ctx, f.p, changePatchSet("main", "patched", changePatchAddHello))
	is.NoErr(err)
	is.Equal(res.Branch, "patched")
	is.Equal(f.git(t, "show", "patched:hello.txt"), "hello")
	is.Equal(f.git(t, "rev-parse", "patched^"), f.git(t, "rev-parse", "main"))
	f.fsck(t)
}

func TestChangesApplyPatchRefusals(t *testing.T) {
	f := changeNewFixture(t)
	evil := strings.ReplaceAll(changePatchAddHello, "hello.txt", ".git/config")
	evilCase := strings.ReplaceAll(changePatchAddHello, "hello.txt", "sub/.GIT/hooks/post-checkout")
	cases := []struct {
		name, branch, patch string
		kind                error
		msg                 string
	}{
		{"empty", "main", "  \n", errs.ErrInvalid, "Content: Required"},
		{"not a diff", "main", "hello world\n", errs.ErrInvalid, "Content: the patch cannot be parsed: no patch found"},
		{"git directory", "main", evil, errs.ErrInvalid, "Content: the patch touches a path that may not be written [path: .git/config]"},
		{"git directory in any case", "main", evilCase, errs.ErrInvalid, "Content: the patch touches a path that may not be written [path: sub/.GIT/hooks/post-checkout]"},
		{"parent directory", "main", strings.ReplaceAll(changePatchAddHello, "hello.txt", "../escape.txt"), errs.ErrInvalid, ""},
		{"absent branch", "nope", changePatchAddHello, errs.ErrNotFound, "branch does not exist [name: nope]"},
		{"context mismatch", "main", "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-not there\n+x\n", errs.ErrConflict, ""},
		{"deletes an absent file", "main", "diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n", errs.ErrConflict, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			before := f.refs(t)
			_, err := f.s.ApplyPatch(context.Background(), f.p, changePatchSet(c.branch, "", c.patch))
			is.True(errors.Is(err, c.kind))
			if c.msg != "" {
				is.Equal(errs.Message(err), c.msg)
			}
			is.Equal(f.refs(t), before)
			f.fsck(t)
		})
	}
}

func TestChangesApplyPatchRetries(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	f := changeNewFixture(t)
	var theirs string
	res, err := f.s.ApplyPatchRacing(ctx, f.p, changePatchSet("main", "", changePatchAddHello), func(attempt int) {
		if attempt == 1 {
			r, err := f.s.ApplyPatch(ctx, f.p, changePatchSet("main", "", strings.ReplaceAll(changePatchAddHello, "hello.txt", "other.txt")))
			is.NoErr(err)
			theirs = r.Commit.ID
		}
	})
	is.NoErr(err)
	is.Equal(res.Commit.ParentIDs, []string{theirs})
	is.Equal(f.git(t, "ls-tree", "--name-only", "main"), "README.md\nbin\ndocs\nhello.txt\nother.txt")
}
