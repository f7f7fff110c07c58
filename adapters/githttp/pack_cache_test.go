package githttp

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// openPackCache opens a cache of max bytes in a new directory, on the
// clock now.
func openPackCache(t *testing.T, max int64, now func() time.Time) *PackCache {
	t.Helper()
	c, err := NewPackCache(PackCacheConfig{Dir: filepath.Join(t.TempDir(), "git-packs"), MaxBytes: max, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// keep fills key with body, written in pieces of three bytes, and commits it.
func keep(c *PackCache, key, body string) {
	fill := c.Fill(key)
	for i := 0; i < len(body); i += 3 {
		_, _ = fill.Write([]byte(body[i:min(i+3, len(body))]))
	}
	fill.Commit()
}

// kept reads the answer under key, "" and false when there is none.
func kept(t *testing.T, c *PackCache, key string) (string, bool) {
	t.Helper()
	f, size, ok := c.Open(key)
	if !ok {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != size {
		t.Fatalf("size %d, read %d", size, len(data))
	}
	return string(data), true
}

// files lists the cache directory.
func files(t *testing.T, c *PackCache) []string {
	t.Helper()
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestPackCacheKeepsAnswers(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 1000, nil)
	_, ok := kept(t, c, "a1")
	is.True(!ok)
	keep(c, "a1", "0008NAK\nPACK and more")
	got, ok := kept(t, c, "a1")
	is.True(ok)
	is.Equal(got, "0008NAK\nPACK and more")
	is.Equal(c.Bytes(), int64(len("0008NAK\nPACK and more")))
	n := c.Stats().Counts()
	is.Equal(n.Hits, uint64(1))
	is.Equal(n.Misses, uint64(1))
	is.Equal(n.Entries, int64(1))
	is.Equal(files(t, c), []string{"a1"}) // no fill left behind

	// A second fill of the same key (two identical clones at once) leaves
	// the first answer and no file of its own.
	keep(c, "a1", "another answer")
	got, _ = kept(t, c, "a1")
	is.Equal(got, "0008NAK\nPACK and more")
	is.Equal(files(t, c), []string{"a1"})
}

func TestPackCacheAbortKeepsNothing(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 1000, nil)
	fill := c.Fill("b2")
	_, _ = fill.Write([]byte("half an answer"))
	fill.Abort()
	fill.Commit() // after Abort, nothing
	_, ok := kept(t, c, "b2")
	is.True(!ok)
	is.Equal(files(t, c), []string{})
}

// TestPackCacheBound checks the bound of bytes: the least recently used
// answers go first, and an answer over a quarter of the bound is never kept
// (its file given up as soon as it grows past it).
func TestPackCacheBound(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 400, nil)
	for _, k := range []string{"k1", "k2", "k3", "k4"} {
		keep(c, k, strings.Repeat("x", 100))
	}
	is.Equal(c.Bytes(), int64(400))
	_, ok := kept(t, c, "k1") // used: k2 is now the least recent
	is.True(ok)
	keep(c, "k5", strings.Repeat("y", 100))
	is.Equal(c.Bytes(), int64(400))
	_, ok = kept(t, c, "k2")
	is.True(!ok)
	for _, k := range []string{"k1", "k3", "k4", "k5"} {
		_, ok := kept(t, c, k)
		is.True(ok)
	}
	is.Equal(c.Stats().Counts().Evictions, uint64(1))
	is.Equal(len(files(t, c)), 4)

	fill := c.Fill("big")
	_, _ = fill.Write([]byte(strings.Repeat("z", 60)))
	is.Equal(len(files(t, c)), 5) // being written
	_, _ = fill.Write([]byte(strings.Repeat("z", 60)))
	is.Equal(len(files(t, c)), 4) // given up past 100 bytes
	fill.Commit()
	_, ok = kept(t, c, "big")
	is.True(!ok)
	is.Equal(c.Bytes(), int64(400))
}

func TestPackCacheDropsUnusedAnswers(t *testing.T) {
	is := is.New(t)
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	c := openPackCache(t, 1000, func() time.Time { return now })
	keep(c, "old", "old answer")
	now = now.Add(50 * time.Minute)
	keep(c, "new", "new answer")
	_, ok := kept(t, c, "old") // used at 50 minutes
	is.True(ok)
	now = now.Add(55 * time.Minute)
	keep(c, "newest", "newest answer") // "new" was last used 55 minutes ago: kept
	is.Equal(len(files(t, c)), 3)
	now = now.Add(10 * time.Minute)
	_, ok = kept(t, c, "new") // unused for 65 minutes
	is.True(!ok)
	_, ok = kept(t, c, "old")
	is.True(!ok)
	_, ok = kept(t, c, "newest")
	is.True(ok)
	is.Equal(files(t, c), []string{"newest"})
	is.Equal(c.Stats().Counts().Evictions, uint64(0)) // expired, not evicted
}

// TestPackCacheEmptiedAtOpen checks that a new run starts with an empty
// directory: a fill a crash cut off, or answers of an earlier run, are
// never read.
func TestPackCacheEmptiedAtOpen(t *testing.T) {
	is := is.New(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "git-packs")
	is.NoErr(os.MkdirAll(dir, 0o700))
	is.NoErr(os.WriteFile(filepath.Join(dir, "a1"), []byte("from the last run"), 0o600))
	is.NoErr(os.WriteFile(filepath.Join(dir, "fill-123"), []byte("cut off"), 0o600))
	c, err := NewPackCache(PackCacheConfig{Dir: dir, MaxBytes: 1000})
	is.NoErr(err)
	is.Equal(files(t, c), []string{})
	_, ok := kept(t, c, "a1")
	is.True(!ok)
	// The old directory is removed in the background.
	deadline := time.Now().Add(5 * time.Second)
	for {
		left, _ := os.ReadDir(parent)
		if len(left) == 1 || time.Now().After(deadline) {
			is.Equal(len(left), 1)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPackCacheRemovedBehindItsBack(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 1000, nil)
	keep(c, "c3", "answer")
	is.NoErr(os.Remove(filepath.Join(c.dir, "c3")))
	_, ok := kept(t, c, "c3")
	is.True(!ok)
	is.Equal(c.Bytes(), int64(0))
	is.Equal(c.Stats().Counts().Entries, int64(0))
}

func TestPackCacheOff(t *testing.T) {
	is := is.New(t)
	dir := filepath.Join(t.TempDir(), "git-packs")
	c, err := NewPackCache(PackCacheConfig{Dir: dir, MaxBytes: 0})
	is.NoErr(err)
	is.True(c == nil)
	_, statErr := os.Stat(dir)
	is.True(os.IsNotExist(statErr)) // no directory made
	// A nil cache keeps nothing and says so.
	fill := c.Fill("k")
	_, err = fill.Write([]byte("x"))
	is.NoErr(err)
	fill.Commit()
	_, _, ok := c.Open("k")
	is.True(!ok)
	is.True(c.Stats() == nil)
	is.Equal(c.Bytes(), int64(0))
}

// TestPackCacheKeepsOnlyWhileTheKeyHolds: an answer whose key no longer
// names it when git is done (the refs moved meanwhile) is not kept.
func TestPackCacheKeepsOnlyWhileTheKeyHolds(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 1000, nil)
	for _, holds := range []bool{false, true} {
		fill := c.Fill("d4")
		fill.still = func() bool { return holds }
		_, _ = fill.Write([]byte("answer"))
		fill.Commit()
		_, ok := kept(t, c, "d4")
		is.Equal(ok, holds)
	}
	is.Equal(files(t, c), []string{"d4"})
}

// TestPackCacheKeepsOnSecondSight: a key is worth keeping the second time
// it is asked for; after that it is forgotten (its answer is kept by then,
// or the next ask starts counting again).
func TestPackCacheKeepsOnSecondSight(t *testing.T) {
	is := is.New(t)
	c := openPackCache(t, 1000, nil)
	is.True(!c.SeenBefore("e5"))
	is.True(!c.SeenBefore("f6")) // another key counts apart
	is.True(c.SeenBefore("e5"))
	is.True(!c.SeenBefore("e5"))
	var off *PackCache
	is.True(!off.SeenBefore("e5"))
	is.True(!off.SeenBefore("e5"))
}
