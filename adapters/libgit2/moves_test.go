package libgit2_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// The move journal keeps records durably and in order until settled; a
// half-written record (a crash while writing it) is dropped, a damaged one
// is reported and kept.
func TestMoveJournal(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	s, root := newStorage(t)
	ms, err := s.PendingMoves(ctx)
	is.NoErr(err)
	is.Equal(len(ms), 0) // no journal yet

	first, err := s.JournalMove(ctx, ports.DirMove{RepoID: 7, From: ports.RepoPath{Owner: "a", Name: "x"},
		To: ports.RepoPath{Owner: "b", Name: "x"}})
	is.NoErr(err)
	second, err := s.JournalMove(ctx, ports.DirMove{UserID: 3, Owner: true, From: ports.RepoPath{Owner: "c"},
		To: ports.RepoPath{Owner: "d"}})
	is.NoErr(err)
	is.True(first.ID != second.ID)

	dir := filepath.Join(root, ".moves")
	is.NoErr(os.WriteFile(filepath.Join(dir, "repo-9-1.json.tmp"), []byte("{"), 0o600))
	ms, err = s.PendingMoves(ctx)
	is.NoErr(err)
	is.Equal(len(ms), 2)
	is.Equal(ms[0], first) // oldest first, fields kept
	is.Equal(ms[1], second)
	_, err = os.Stat(filepath.Join(dir, "repo-9-1.json.tmp"))
	is.True(os.IsNotExist(err)) // the unfinished record is gone

	is.NoErr(os.WriteFile(filepath.Join(dir, "repo-5-2.json"), []byte("not json"), 0o600))
	ms, err = s.PendingMoves(ctx)
	is.True(err != nil) // the damaged record is reported
	is.Equal(len(ms), 2)

	is.NoErr(s.SettleMove(ctx, first))
	is.NoErr(s.SettleMove(ctx, first)) // settling twice is harmless
	is.True(s.SettleMove(ctx, ports.DirMove{ID: "../x"}) != nil)
	is.NoErr(os.Remove(filepath.Join(dir, "repo-5-2.json")))
	ms, err = s.PendingMoves(ctx)
	is.NoErr(err)
	is.Equal(len(ms), 1)
	is.Equal(ms[0].ID, second.ID)
}
