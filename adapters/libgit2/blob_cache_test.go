package libgit2_test

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// TestBlobCacheCrossRepo checks that a blob read (and so cached) through the
// repository that holds it cannot then be read through one that does not:
// the blob cache is shared by every repository.
func TestBlobCacheCrossRepo(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	private := ports.RepoPath{Owner: "a", Name: "priv"}
	public := ports.RepoPath{Owner: "d", Name: "public"}
	for _, p := range []ports.RepoPath{private, public} {
		is.NoErr(s.Init(ctx, p, "main"))
	}
	commit(t, s, private, "main", "secret", file("secret.env", "TOKEN=hunter2\n"))
	commit(t, s, public, "main", "readme", file("README.md", "public\n"))

	id := runGit(t, repoDir(root, private), "rev-parse", "main:secret.env")
	_, err := s.Blob(ctx, public, id, 1<<20)
	is.True(errors.Is(err, errs.ErrNotFound)) // the cold answer

	// Both read paths that fill the cache: a file by path, a blob by id.
	res, err := s.ReadPath(ctx, private, ports.GitPathQuery{Ref: "main", Path: "secret.env", Content: true, MaxContent: 1 << 20})
	is.NoErr(err)
	is.Equal(string(res.Entry.Content), "TOKEN=hunter2\n")
	b, err := s.Blob(ctx, private, id, 1<<20)
	is.NoErr(err)
	is.Equal(string(b.Content), "TOKEN=hunter2\n")
	for _, max := range []int64{1 << 20, 0} {
		_, err = s.Blob(ctx, public, id, max)
		is.True(errors.Is(err, errs.ErrNotFound)) // the warm answer is the cold one
	}
	// The repository that holds the blob still reads it from the cache.
	b, err = s.Blob(ctx, private, id, 1<<20)
	is.NoErr(err)
	is.Equal(string(b.Content), "TOKEN=hunter2\n")
}
