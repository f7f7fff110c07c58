package libgit2_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func wikiWrite(put, content, remove string, create bool) ports.WikiWrite {
	sig := ports.GitSignature{Name: "Wiki Writer", Email: "wiki@example.com"}
	return ports.WikiWrite{Branch: "main", Message: "write " + put, Author: sig, Committer: sig,
		Put: put, Content: []byte(content), Remove: remove, Create: create}
}

// A wiki is created by its first write beside its repository; pages are
// created, renamed and deleted as commits that git itself reads back.
func TestWikiWrites(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "notes"}
	is.NoErr(s.Init(ctx, p, "main"))

	_, err := s.WikiEntries(ctx, p, "main")
	is.True(errors.Is(err, errs.ErrNotFound)) // no wiki before the first page

	c1, err := s.WriteWiki(ctx, p, wikiWrite("Home.md", "# Home", "", true))
	is.NoErr(err)
	wdir := repoDir(root, ports.WikiRepoPath(p))
	is.True(strings.HasSuffix(wdir, "notes.wiki.git"))
	is.Equal(strings.TrimSpace(runGit(t, wdir, "show", "main:Home.md")), "# Home")
	is.Equal(strings.TrimSpace(runGit(t, wdir, "symbolic-ref", "HEAD")), "refs/heads/main")

	_, err = s.WriteWiki(ctx, p, wikiWrite("Home.md", "again", "", true))
	is.True(errors.Is(err, errs.ErrConflict)) // a new page over an existing one

	c2, err := s.WriteWiki(ctx, p, wikiWrite("Start.md", "# Start", "Home.md", false))
	is.NoErr(err)
	is.Equal(c2.ParentIDs, []string{c1.ID})
	entries, err := s.WikiEntries(ctx, p, "main")
	is.NoErr(err)
	is.Equal(entries, []ports.WikiEntry{{Name: "Start.md", Regular: true}})

	content, size, err := s.WikiFile(ctx, p, "main", "Start.md", 1<<20)
	is.NoErr(err)
	is.Equal(string(content), "# Start")
	is.Equal(size, int64(7))
	content, _, err = s.WikiFile(ctx, p, "main", "Start.md", 3)
	is.NoErr(err)
	is.Equal(content, nil) // over the bound: size only

	_, _, err = s.WikiFile(ctx, p, "main", "../notes.git/config", 1<<20)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = s.WriteWiki(ctx, p, wikiWrite("../escape.md", "x", "", true))
	is.True(errors.Is(err, errs.ErrInvalid))

	_, err = s.WriteWiki(ctx, p, wikiWrite("", "", "Missing.md", false))
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = s.WriteWiki(ctx, p, wikiWrite("", "", "Start.md", false))
	is.NoErr(err)
	entries, err = s.WikiEntries(ctx, p, "main")
	is.NoErr(err)
	is.Equal(len(entries), 0)
	is.Equal(len(strings.Fields(runGit(t, wdir, "log", "--format=%H", "main"))), 3)
}

// Renaming, transferring and deleting a repository take its wiki along.
func TestWikiFollowsRepository(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	p := ports.RepoPath{Owner: "alice", Name: "notes"}
	is.NoErr(s.Init(ctx, p, "main"))
	_, err := s.WriteWiki(ctx, p, wikiWrite("Home.md", "# Home", "", true))
	is.NoErr(err)

	to := ports.RepoPath{Owner: "bob", Name: "journal"}
	is.NoErr(s.Move(ctx, p, to))
	_, err = os.Stat(repoDir(root, ports.WikiRepoPath(p)))
	is.True(os.IsNotExist(err))
	content, _, err := s.WikiFile(ctx, to, "main", "Home.md", 1<<20)
	is.NoErr(err)
	is.Equal(string(content), "# Home")

	// Undoing a move that crashed before the wiki followed finds it in place.
	is.NoErr(s.Move(ctx, to, p))
	content, _, err = s.WikiFile(ctx, p, "main", "Home.md", 1<<20)
	is.NoErr(err)
	is.Equal(string(content), "# Home")

	// A fork takes a copy of the wiki; a repository without one forks without one.
	fork := ports.RepoPath{Owner: "carol", Name: "notes"}
	is.NoErr(s.Fork(ctx, p, fork))
	content, _, err = s.WikiFile(ctx, fork, "main", "Home.md", 1<<20)
	is.NoErr(err)
	is.Equal(string(content), "# Home")
	bare := ports.RepoPath{Owner: "alice", Name: "bare"}
	is.NoErr(s.Init(ctx, bare, "main"))
	is.NoErr(s.Init(ctx, ports.WikiRepoPath(bare), "main")) // an empty wiki (a first push that failed)
	is.NoErr(s.Fork(ctx, bare, ports.RepoPath{Owner: "carol", Name: "bare"}))
	plain := ports.RepoPath{Owner: "alice", Name: "plain"}
	is.NoErr(s.Init(ctx, plain, "main"))
	is.NoErr(s.Fork(ctx, plain, ports.RepoPath{Owner: "dave", Name: "journal"}))
	_, err = os.Stat(repoDir(root, ports.WikiRepoPath(ports.RepoPath{Owner: "dave", Name: "journal"})))
	is.True(os.IsNotExist(err))

	is.NoErr(s.Delete(ctx, p))
	_, err = os.Stat(repoDir(root, ports.WikiRepoPath(p)))
	is.True(os.IsNotExist(err))
	is.NoErr(s.Init(ctx, p, "main"))
	_, err = s.WikiEntries(ctx, p, "main")
	is.True(errors.Is(err, errs.ErrNotFound)) // a new repository of the name starts without a wiki
}
