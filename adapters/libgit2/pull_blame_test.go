package libgit2_test

import (
	"context"
	"errors"
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
