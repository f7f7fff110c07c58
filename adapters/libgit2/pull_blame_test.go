package libgit2_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TestLineBlame follows lines of a file over three commits, and refuses a
// missing path, a line past the end and an unknown commit.
func TestLineBlame(t *testing.T) {
	is := is.New(t)
	s, _ := newStorage(t)
	ctx := context.Background()
	p := ports.RepoPath{Owner: "alice", Name: "blame"}
	is.NoErr(s.Init(ctx, p, "main"))
	first := commit(t, s, p, "main", "first", file("a.txt", "one\ntwo\nthree"), file("b.txt", "b\n"))
	// Each commit writes the whole tree.
	second := commit(t, s, p, "main", "second", file("a.txt", "one\nTWO\nthree"), file("b.txt", "b\n"))
	third := commit(t, s, p, "main", "third", file("a.txt", "one\nTWO\nthree"), file("b.txt", "b, changed\n"))

	blame := func(commit, path string, line int64) (string, error) {
		return s.LineBlame(ctx, p, commit, path, line)
	}
	for _, c := range []struct {
		commit, path string
		line         int64
		want         string
	}{
		{first, "a.txt", 2, first},
		{second, "a.txt", 2, second},
		{third, "a.txt", 2, second},
		{third, "a.txt", 1, first},
		{third, "a.txt", 3, first}, // a last line without a newline counts
		{second, "b.txt", 1, first},
		{third, "b.txt", 1, third},
	} {
		got, err := blame(c.commit, c.path, c.line)
		is.NoErr(err)
		is.Equal(got, c.want)
	}
	for _, bad := range []struct {
		commit, path string
		line         int64
	}{
		{third, "a.txt", 4},
		{third, "a.txt", 0},
		{third, "missing.txt", 1},
		{third, "", 1},
		{"0123456789012345678901234567890123456789", "a.txt", 1},
	} {
		_, err := blame(bad.commit, bad.path, bad.line)
		is.True(errors.Is(err, errs.ErrNotFound))
	}
}

// TestRangeChanged moves a pull request's head: merging the base in
// proposes nothing new, an edit of the head's file or a revert of the
// base's change does.
func TestRangeChanged(t *testing.T) {
	is := is.New(t)
	f := newHistFixture(t)
	f.write("shared.txt", "shared\n")
	f.commit(1, "first")
	f.git(2, "checkout", "-q", "-b", "feature")
	f.write("feature.txt", "feature\n")
	f1 := f.commit(2, "feature")
	f.git(3, "checkout", "-q", "main")
	f.write("main.txt", "main\n")
	base := f.commit(3, "main moves")
	f.git(4, "checkout", "-q", "feature")
	f.git(4, "merge", "-q", "--no-edit", "main")
	merged := strings.TrimSpace(f.git(4, "rev-parse", "HEAD"))
	f.write("feature.txt", "feature, edited\n")
	edited := f.commit(5, "edit the feature")
	f.write("main.txt", "not main's\n")
	undone := f.commit(6, "change the base's file")
	f.publish()

	ctx := context.Background()
	for _, c := range []struct {
		old, new string
		want     bool
	}{
		{f1, merged, false},
		{merged, edited, true},
		{edited, undone, true},
		{f1, f1, false},
	} {
		got, err := f.s.RangeChanged(ctx, f.p, base, c.old, c.new)
		is.NoErr(err)
		is.Equal(got, c.want)
	}
	_, err := f.s.RangeChanged(ctx, f.p, base, "0123456789012345678901234567890123456789", edited)
	is.True(errors.Is(err, errs.ErrNotFound))
}
