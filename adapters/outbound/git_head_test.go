package outbound_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/outbound"
	"github.com/depothq/depot/ports"
)

// outboundFetchErr drops Fetch's head, for tests about the fetch alone.
func outboundFetchErr(_ string, err error) error { return err }

// outboundFetchOnly is g.Fetch as a function returning only the error.
func outboundFetchOnly(g *outbound.Guard) func(context.Context, ports.RepoPath, ports.Remote) error {
	return func(ctx context.Context, p ports.RepoPath, r ports.Remote) error {
		_, err := g.Fetch(ctx, p, r)
		return err
	}
}

func TestFetchReportsRemoteHead(t *testing.T) {
	ctx := context.Background()
	remote := outboundStartRemote(t)
	src := filepath.Join(remote.root, "src.git")
	dirs := outboundDirs{root: t.TempDir()}
	g := outboundGuard(t, "loopback", dirs)
	creds := func(repo string) ports.Remote {
		return ports.Remote{URL: remote.url + "/" + repo, Username: outboundUser, Password: outboundPassword}
	}
	fetch := func(t *testing.T, name, repo string) string {
		t.Helper()
		p := ports.RepoPath{Owner: "alice", Name: name}
		outboundLocal(t, dirs, p)
		head, err := g.Fetch(ctx, p, creds(repo))
		is.New(t).NoErr(err)
		return head
	}

	t.Run("main", func(t *testing.T) {
		is.New(t).Equal(fetch(t, "a", "src.git"), "main")
	})
	t.Run("another branch", func(t *testing.T) {
		is := is.New(t)
		outboundGit(t, src, "branch", "trunk", "main")
		outboundGit(t, src, "symbolic-ref", "HEAD", "refs/heads/trunk")
		is.Equal(fetch(t, "b", "src.git"), "trunk")
		local, _ := dirs.Dir(ports.RepoPath{Owner: "alice", Name: "b"})
		// The local HEAD is the caller's to set.
		is.Equal(outboundGit(t, local, "symbolic-ref", "HEAD"), "refs/heads/main")
	})
	t.Run("empty remote", func(t *testing.T) {
		is.New(t).Equal(fetch(t, "c", "empty.git"), "")
	})
	t.Run("detached", func(t *testing.T) {
		is := is.New(t)
		outboundGit(t, src, "update-ref", "--no-deref", "HEAD", "v1^{commit}")
		is.Equal(fetch(t, "d", "src.git"), "")
	})
}
