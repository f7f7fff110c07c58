package node_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/node"
)

func TestNodeLockKeepsItsNameAcrossRestarts(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	first := node.NewLock(dir)
	name, err := first.Acquire()
	is.NoErr(err)
	is.True(strings.HasPrefix(name, "node-"))
	is.True(!strings.Contains(name, "/")) // leases are named name/instance/n
	first.Release()

	again, err := node.NewLock(dir).Acquire()
	is.NoErr(err)
	is.Equal(again, name) // the next start is the same node

	other, err := node.NewLock(t.TempDir()).Acquire()
	is.NoErr(err)
	is.True(other != name) // another data directory is another node
}

func TestNodeLockIsHeldByOneProcessAtATime(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	running := node.NewLock(dir)
	name, err := running.Acquire()
	is.NoErr(err)
	is.True(name != "")

	// A second server on the same data directory (each Lock opens the file
	// on its own, as another process does) runs without the name, so it
	// never takes back the running one's leases.
	second := node.NewLock(dir)
	none, err := second.Acquire()
	is.NoErr(err)
	is.Equal(none, "")

	// Once the holder stops (a crash drops the lock the same way), the name
	// is free for the next start.
	running.Release()
	after, err := second.Acquire()
	is.NoErr(err)
	is.Equal(after, name)
	second.Release()
}
