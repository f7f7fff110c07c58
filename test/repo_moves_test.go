package test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// A crash between a rename's directory move and its database commit leaves
// a journal record; at the next start the database decides where the
// directory belongs. These tests plant what such crashes leave and run the
// start-up reconciliation on a live server.
func TestRepoMovesReconcile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, alice := httpGitSetup(t)
	git := srv.App.Git

	exists := func(owner, name string) bool {
		_, err := os.Stat(repoDir(srv, owner, name))
		return err == nil
	}
	journal := func(t *testing.T, m ports.DirMove) ports.DirMove {
		t.Helper()
		m, err := git.JournalMove(ctx, m)
		if err != nil {
			t.Fatalf("journal: %v", err)
		}
		return m
	}
	pending := func(t *testing.T) int {
		t.Helper()
		ms, err := git.PendingMoves(ctx)
		if err != nil {
			t.Fatalf("pending: %v", err)
		}
		return len(ms)
	}

	t.Run("rename that did not commit moves back", func(t *testing.T) {
		is := is.New(t)
		r := createRepo(t, alice, gitea.CreateRepoOption{Name: "stay", AutoInit: true})
		from, to := ports.RepoPath{Owner: "alice", Name: "stay"}, ports.RepoPath{Owner: "alice", Name: "gone"}
		journal(t, ports.DirMove{RepoID: r.ID, From: from, To: to})
		is.NoErr(git.Move(ctx, from, to)) // the crash came before the commit
		is.True(!exists("alice", "stay"))

		is.NoErr(srv.App.Repos.ReconcileMoves(ctx))
		is.True(exists("alice", "stay"))
		is.True(!exists("alice", "gone"))
		is.Equal(pending(t), 0)
		clone := cloneRepo(t, srv, "alice", "stay") // the repository serves again
		_, err := os.Stat(filepath.Join(clone, "README.md"))
		is.NoErr(err)
	})

	t.Run("rename that committed stays", func(t *testing.T) {
		is := is.New(t)
		r := createRepo(t, alice, gitea.CreateRepoOption{Name: "before", AutoInit: true})
		name := "after"
		_, _, err := alice.EditRepo("alice", "before", gitea.EditRepoOption{Name: &name})
		is.NoErr(err)
		// The crash came after the commit, before the record was settled.
		journal(t, ports.DirMove{RepoID: r.ID, From: ports.RepoPath{Owner: "alice", Name: "before"},
			To: ports.RepoPath{Owner: "alice", Name: "after"}})
		is.NoErr(srv.App.Repos.ReconcileMoves(ctx))
		is.True(exists("alice", "after"))
		is.True(!exists("alice", "before"))
		is.Equal(pending(t), 0)
	})

	t.Run("journalled but never moved", func(t *testing.T) {
		is := is.New(t)
		r := createRepo(t, alice, gitea.CreateRepoOption{Name: "still"})
		journal(t, ports.DirMove{RepoID: r.ID, From: ports.RepoPath{Owner: "alice", Name: "still"},
			To: ports.RepoPath{Owner: "alice", Name: "elsewhere"}})
		is.NoErr(srv.App.Repos.ReconcileMoves(ctx))
		is.True(exists("alice", "still"))
		is.Equal(pending(t), 0)
	})

	t.Run("owner rename that did not commit moves back", func(t *testing.T) {
		is := is.New(t)
		bob, bobClient := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, bobClient, gitea.CreateRepoOption{Name: "code", AutoInit: true})
		journal(t, ports.DirMove{UserID: bob.ID, Owner: true, From: ports.RepoPath{Owner: "bob"},
			To: ports.RepoPath{Owner: "robert"}})
		is.NoErr(git.MoveOwner(ctx, "bob", "robert"))
		is.True(!exists("bob", "code"))

		is.NoErr(srv.App.Repos.ReconcileMoves(ctx))
		is.True(exists("bob", "code"))
		is.True(!exists("robert", "code"))
		is.Equal(pending(t), 0)
	})

	t.Run("renames through the API leave no record", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "via-api"})
		name := "via-api2"
		_, _, err := alice.EditRepo("alice", "via-api", gitea.EditRepoOption{Name: &name})
		is.NoErr(err)
		r := srv.Do("POST", "/admin/users/bob/rename", map[string]string{"new_username": "bobby"}, adminHeader(srv)...)
		is.Equal(r.Status, 204)
		is.True(exists("bobby", "code"))
		is.Equal(pending(t), 0)
	})
}
