package repository

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

func TestCleanTreePath(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"README.md", "README.md", true},
		{"docs/guide/intro.md", "docs/guide/intro.md", true},
		{"./docs/./a.txt", "docs/a.txt", true},
		{"ünïcödé/文件.txt", "ünïcödé/文件.txt", true},
		{".gitignore", ".gitignore", true},
		{".github/workflows/ci.yml", ".github/workflows/ci.yml", true},
		{"a/.gitmodules", "a/.gitmodules", true},
		{"my.git/x", "my.git/x", true},
		{"with space.txt", "with space.txt", true},
		{strings.Repeat("a", 255), strings.Repeat("a", 255), true},

		{"", "", false},
		{"/etc/passwd", "", false},
		{"../escape", "", false},
		{"a/../../b", "", false},
		{"a/..", "", false},
		{"a//b", "", false},
		{"a/", "", false},
		{".", "", false},
		{"./", "", false},
		{"a\x00b", "", false},
		{"bad\xffname", "", false},
		{`a\b`, "", false},
		{".git/config", "", false},
		{".GIT/config", "", false},
		{"sub/.Git/hooks/pre-commit", "", false},
		{".git", "", false},
		{".git./config", "", false},
		{".git /config", "", false},
		{"GIT~1/config", "", false},
		{".g\u200cit/config", "", false},
		{strings.Repeat("a", 256), "", false},
		{strings.Repeat("a/", MaxTreePathLength/2) + "b", "", false},
	}
	for _, c := range cases {
		t.Run(printable(c.in), func(t *testing.T) {
			is := is.New(t)
			got, err := CleanTreePath("TreePath", c.in)
			is.Equal(err == nil, c.ok)
			if c.ok {
				is.Equal(got, c.want)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.HasPrefix(errs.Message(err), "TreePath: "))
		})
	}
}

func TestCheckFileChanges(t *testing.T) {
	sha := strings.Repeat("a", 40)
	cases := []struct {
		name    string
		changes []FileChange
		field   string // "" when valid
	}{
		{"create", []FileChange{{Operation: FileCreate, Path: "a.txt"}}, ""},
		{"update with sha", []FileChange{{Operation: FileUpdate, Path: "a.txt", SHA: sha}}, ""},
		{"update moving", []FileChange{{Operation: FileUpdate, Path: "b.txt", FromPath: "a.txt", SHA: sha}}, ""},
		{"upload without sha", []FileChange{{Operation: FileUpload, Path: "a.txt"}}, ""},
		{"rename", []FileChange{{Operation: FileRename, Path: "b.txt", FromPath: "a.txt", SHA: sha}}, ""},
		{"delete", []FileChange{{Operation: FileDelete, Path: "a.txt", SHA: sha}}, ""},
		{"several", []FileChange{
			{Operation: FileCreate, Path: "x/new.txt"},
			{Operation: FileDelete, Path: "old.txt", SHA: sha},
			{Operation: FileUpdate, Path: "kept.txt", SHA: strings.ToUpper(sha)},
		}, ""},

		{"none", nil, "Files"},
		{"unknown operation", []FileChange{{Operation: "chmod", Path: "a.txt"}}, "Operation"},
		{"empty operation", []FileChange{{Path: "a.txt"}}, "Operation"},
		{"bad path", []FileChange{{Operation: FileCreate, Path: "../a.txt"}}, "TreePath"},
		{"dot git", []FileChange{{Operation: FileCreate, Path: ".git/config"}}, "TreePath"},
		{"bad from path", []FileChange{{Operation: FileRename, Path: "a", FromPath: "/etc/passwd", SHA: sha}}, "FromPath"},
		{"update without sha", []FileChange{{Operation: FileUpdate, Path: "a.txt"}}, "SHA"},
		{"delete without sha", []FileChange{{Operation: FileDelete, Path: "a.txt"}}, "SHA"},
		{"rename without sha", []FileChange{{Operation: FileRename, Path: "b", FromPath: "a"}}, "SHA"},
		{"create with sha", []FileChange{{Operation: FileCreate, Path: "a", SHA: sha}}, "SHA"},
		{"short sha", []FileChange{{Operation: FileUpdate, Path: "a", SHA: "abc"}}, "SHA"},
		{"rename to itself", []FileChange{{Operation: FileRename, Path: "a", FromPath: "a", SHA: sha}}, "FromPath"},
		{"rename without from", []FileChange{{Operation: FileRename, Path: "a", SHA: sha}}, "FromPath"},
		{"create with from", []FileChange{{Operation: FileCreate, Path: "a", FromPath: "b"}}, "FromPath"},
		{"delete with content", []FileChange{{Operation: FileDelete, Path: "a", SHA: sha, Content: []byte("x")}}, "Content"},
		{"twice", []FileChange{{Operation: FileCreate, Path: "a"}, {Operation: FileUpload, Path: "./a"}}, "TreePath"},
		{"moved onto a changed path", []FileChange{
			{Operation: FileDelete, Path: "a", SHA: sha},
			{Operation: FileRename, Path: "b", FromPath: "a", SHA: sha},
		}, "TreePath"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := CheckFileChanges(c.changes)
			if c.field == "" {
				is.NoErr(err)
				is.Equal(len(got), len(c.changes))
				for _, g := range got {
					is.Equal(g.SHA, strings.ToLower(g.SHA))
				}
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.HasPrefix(errs.Message(err), c.field+": ")) // names the field
		})
	}
}

func TestCheckFileChangesCleansPaths(t *testing.T) {
	is := is.New(t)
	got, err := CheckFileChanges([]FileChange{{Operation: FileUpdate, Path: "./a/./b", FromPath: "./c", SHA: strings.Repeat("F", 40)}})
	is.NoErr(err)
	is.Equal(got[0].Path, "a/b")
	is.Equal(got[0].FromPath, "c")
	is.Equal(got[0].SHA, strings.Repeat("f", 40))
	is.Equal(got[0].Source(), "c")
	is.True(got[0].Moves())
}

func TestDefaultChangeMessage(t *testing.T) {
	cases := []struct {
		changes []FileChange
		want    string
	}{
		{[]FileChange{{Operation: FileCreate, Path: "a"}}, "Add a"},
		{[]FileChange{{Operation: FileUpdate, Path: "a"}}, "Update a"},
		{[]FileChange{{Operation: FileDelete, Path: "a"}}, "Delete a"},
		{[]FileChange{{Operation: FileRename, Path: "b", FromPath: "a"}}, "Update b"},
		{[]FileChange{{Operation: FileUpload, Path: "u"}}, "Update u"},
		{[]FileChange{
			{Operation: FileDelete, Path: "d"}, {Operation: FileCreate, Path: "a"},
			{Operation: FileCreate, Path: "b"}, {Operation: FileUpdate, Path: "c"},
		}, "Add a, b\nUpdate c\nDelete d"},
		{changeMessageFiles(FileCreate, "f%d", 10), "Add f0, f1, f2, f3, f4, f5, f6, f7, f8, f9"},
		{changeMessageFiles(FileCreate, "f%d", 11), "Add f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 and 1 more file"},
		{append(changeMessageFiles(FileDelete, "d%d", 2000), changeMessageFiles(FileUpdate, "u%d", 12)...),
			"Update u0, u1, u2, u3, u4, u5, u6, u7, u8, u9 and 2 more files\nDelete d0, d1, d2, d3, d4, d5, d6, d7, d8, d9 and 1990 more files"},
		// Long paths: the first is always named, the line stops past 200 bytes.
		{changeMessageFiles(FileCreate, strings.Repeat("p", 300)+"%d", 3), "Add " + strings.Repeat("p", 300) + "0 and 2 more files"},
		{changeMessageFiles(FileCreate, strings.Repeat("q", 60)+"%d", 5), "Add " + strings.Repeat("q", 60) + "0, " +
			strings.Repeat("q", 60) + "1, " + strings.Repeat("q", 60) + "2 and 2 more files"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			is.New(t).Equal(DefaultChangeMessage(c.changes), c.want)
		})
	}
}

// changeMessageFiles is n changes of one operation at the paths format
// makes of 0..n-1.
func changeMessageFiles(op FileOperation, format string, n int) []FileChange {
	out := make([]FileChange, n)
	for i := range out {
		out[i] = FileChange{Operation: op, Path: fmt.Sprintf(format, i)}
	}
	return out
}

// TestDefaultChangeMessageBounded checks that the message of a write does
// not grow with its number of files.
func TestDefaultChangeMessageBounded(t *testing.T) {
	is := is.New(t)
	small := DefaultChangeMessage(changeMessageFiles(FileCreate, "doc/%05d.md", 20))
	large := DefaultChangeMessage(changeMessageFiles(FileCreate, "doc/%05d.md", 16000))
	is.True(len(large) <= len(small)+5) // only the count's digits differ
	is.True(strings.HasSuffix(large, " and 15990 more files"))
}

func TestCommitMessage(t *testing.T) {
	ann := Identity{Name: "Ann", Email: "ann@example.com"}
	cases := []struct {
		name, msg, fallback string
		signoff             bool
		want                string
	}{
		{"given", "Fix typo", "Update a", false, "Fix typo\n"},
		{"trimmed", "  Fix typo \n\n", "Update a", false, "Fix typo\n"},
		{"default", "   ", "Update a", false, "Update a\n"},
		{"signoff", "Fix typo\n", "Update a", true, "Fix typo\n\nSigned-off-by: Ann <ann@example.com>\n"},
		{"signoff on default", "", "Add a", true, "Add a\n\nSigned-off-by: Ann <ann@example.com>\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is.New(t).Equal(CommitMessage(c.msg, c.fallback, c.signoff, ann), c.want)
		})
	}
}

func TestCommitIdentities(t *testing.T) {
	doer := Identity{Name: "Doer", Email: "doer@example.com"}
	ann := Identity{Name: "Ann", Email: "ann@example.com"}
	bob := Identity{Name: "Bob", Email: "bob@example.com"}
	cases := []struct {
		name              string
		author, committer Identity
		wantA, wantC      Identity
		field             string
	}{
		{"neither", Identity{}, Identity{}, doer, doer, ""},
		{"name only counts as none", Identity{Name: "X"}, Identity{}, doer, doer, ""},
		{"author only", ann, Identity{}, ann, ann, ""},
		{"committer only", Identity{}, bob, bob, bob, ""},
		{"both", ann, bob, ann, bob, ""},
		{"doer's address without a name", Identity{Email: "DOER@example.com"}, Identity{}, Identity{Name: "Doer", Email: "DOER@example.com"}, Identity{Name: "Doer", Email: "DOER@example.com"}, ""},
		{"other address without a name", Identity{Email: "x@example.com"}, Identity{}, Identity{}, Identity{}, "Author"},
		{"bad address", Identity{Name: "X", Email: "not an address"}, Identity{}, Identity{}, Identity{}, "Author"},
		{"angle brackets", ann, Identity{Name: "B<b>", Email: "b@example.com"}, Identity{}, Identity{}, "Committer"},
		{"line break", Identity{Name: "A\nB", Email: "a@example.com"}, bob, Identity{}, Identity{}, "Author"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			a, cm, err := CommitIdentities(c.author, c.committer, doer)
			if c.field != "" {
				is.True(errors.Is(err, errs.ErrInvalid))
				is.True(strings.HasPrefix(errs.Message(err), c.field+": "))
				return
			}
			is.NoErr(err)
			is.Equal(a, c.wantA)
			is.Equal(cm, c.wantC)
		})
	}
}

func TestCheckFileCount(t *testing.T) {
	is := is.New(t)
	is.NoErr(CheckFileCount("Files", 10, 10))
	is.NoErr(CheckFileCount("Files", 1<<20, 0)) // no limit
	is.Equal(errs.Message(CheckFileCount("Content", 3, 2)), "Content: a write may change at most 2 files, got 3")
	err := CheckFileCount("Files", 11, 10)
	is.True(errors.Is(err, errs.ErrInvalid))
	is.Equal(errs.Message(err), "Files: a write may change at most 10 files, got 11")
}

func TestCheckFileSize(t *testing.T) {
	is := is.New(t)
	is.NoErr(CheckFileSize("a", 10, 10))
	is.NoErr(CheckFileSize("a", 1<<40, 0)) // no limit
	err := CheckFileSize("a", 11, 10)
	is.True(errors.Is(err, errs.ErrTooLarge))
	is.Equal(errs.Message(err), "file a is 11 bytes, over the limit of 10 bytes")
}
