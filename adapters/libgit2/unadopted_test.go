package libgit2_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

func TestRepoDirsListsOnlyRepositoryDirectories(t *testing.T) {
	is := is.New(t)
	s, root := newStorage(t)
	ctx := context.Background()
	is.NoErr(s.Init(ctx, ports.RepoPath{Owner: "Bob", Name: "Tools"}, "trunk"))
	is.NoErr(s.Init(ctx, ports.RepoPath{Owner: "acme", Name: "site"}, "main"))
	for _, d := range []string{".trash/x.git", "bob/.hidden.git", "bob/plain", "Upper/r.git", "bob/Mixed.git"} {
		is.NoErr(os.MkdirAll(filepath.Join(root, d), 0o700))
	}
	is.NoErr(os.WriteFile(filepath.Join(root, "bob", "file.git"), nil, 0o600))
	is.NoErr(os.Symlink("/", filepath.Join(root, "bob", "escape.git")))

	dirs, err := s.RepoDirs(ctx)
	is.NoErr(err)
	is.Equal(dirs, []ports.RepoPath{{Owner: "acme", Name: "site"}, {Owner: "bob", Name: "tools"}})

	head, err := s.HeadBranch(ctx, ports.RepoPath{Owner: "bob", Name: "tools"})
	is.NoErr(err)
	is.Equal(head, "trunk")
	// HEAD on a branch that does not exist while others do: the first by name.
	acme := ports.RepoPath{Owner: "acme", Name: "site"}
	commit(t, s, acme, "zeta", "z")
	commit(t, s, acme, "beta", "b")
	head, err = s.HeadBranch(ctx, acme)
	is.NoErr(err)
	is.Equal(head, "beta")
	_, err = s.HeadBranch(ctx, ports.RepoPath{Owner: "bob", Name: "none"})
	is.True(err != nil)
}
