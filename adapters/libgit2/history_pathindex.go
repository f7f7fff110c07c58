package libgit2

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	git "github.com/libgit2/git2go/v34"
)

// A path index lists, in the order a listing shows them, the commits a
// path-filtered listing from one tip shows (git log <tip> -- <path>). With
// it any page of that listing is read from the file and looked up, where
// walking to the page reads every commit and tree down to it: a path
// touched once in a hundred commits costs a walk of 3,000 commits for a
// first page of 30. The index of a new tip is the old tip's index behind
// what the push added (extendPathIDs), so a push does not walk the history
// again.
//
// The files sit in the bare repository, which git leaves alone:
// depot-path-index/<hash of the path>/<tip>, each
//
//	"DPI1" | uint32 path length | path | uint64 count | count × 20-byte ids
//
// They are caches: written through a synced temporary file and a rename,
// checked against their own header when read, pruned to the newest few tips
// per path, and rebuilt when missing or damaged.
const pathIndexDir = "depot-path-index"

// pathIndexMagic starts every path index file.
const pathIndexMagic = "DPI1"

// oidSize is the length of a raw object id (git.Oid, as the assignment
// below checks).
const oidSize = 20

var _ [oidSize]byte = git.Oid{}

// pathIndexMax is the most commits an index holds (5 MiB of ids): a path
// shown more often than that is dense enough for the walk to fill a page
// quickly.
const pathIndexMax = 1 << 18

// pathIndexKeep is how many tips' indexes a path keeps.
const pathIndexKeep = 8

// pathIndexFolder is the folder of path's indexes in the repository in dir.
func pathIndexFolder(dir, path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(dir, pathIndexDir, hex.EncodeToString(sum[:12]))
}

// pathIndex is an open index file.
type pathIndex struct {
	f     *os.File
	base  int64 // offset of the first id
	count int64
}

// openPathIndex opens path's index at tip in the repository in dir; ok is
// false when there is none or it is damaged.
func openPathIndex(dir, path string, tip git.Oid) (*pathIndex, bool) {
	f, err := os.Open(filepath.Join(pathIndexFolder(dir, path), tip.String()))
	if err != nil {
		return nil, false
	}
	x, err := readPathIndexHeader(f, path)
	if err != nil {
		_ = f.Close()
		return nil, false
	}
	return x, true
}

// readPathIndexHeader checks f's header against path and its size.
func readPathIndexHeader(f *os.File, path string) (*pathIndex, error) {
	head := make([]byte, len(pathIndexMagic)+4+len(path)+8)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, err
	}
	rest, ok := bytes.CutPrefix(head, []byte(pathIndexMagic))
	if !ok || binary.BigEndian.Uint32(rest) != uint32(len(path)) || string(rest[4:4+len(path)]) != path {
		return nil, errors.New("libgit2: path index of another path")
	}
	count := int64(binary.BigEndian.Uint64(rest[4+len(path):]))
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	base := int64(len(head))
	if count < 0 || count > pathIndexMax || info.Size() != base+count*oidSize {
		return nil, errors.New("libgit2: damaged path index")
	}
	return &pathIndex{f: f, base: base, count: count}, nil
}

// ids reads up to n ids from the off-th on.
func (x *pathIndex) ids(off, n int) ([]git.Oid, error) {
	if int64(off) >= x.count || n <= 0 {
		return nil, nil
	}
	n = int(min(int64(n), x.count-int64(off)))
	buf := make([]byte, n*oidSize)
	if _, err := x.f.ReadAt(buf, x.base+int64(off)*oidSize); err != nil {
		return nil, err
	}
	out := make([]git.Oid, n)
	for i := range out {
		copy(out[i][:], buf[i*oidSize:])
	}
	return out, nil
}

func (x *pathIndex) close() { _ = x.f.Close() }

// readPathIndex returns every id of path's index at tip, if there is one.
func readPathIndex(dir, path string, tip git.Oid) ([]git.Oid, bool) {
	x, ok := openPathIndex(dir, path, tip)
	if !ok {
		return nil, false
	}
	defer x.close()
	ids, err := x.ids(0, int(x.count))
	if err != nil {
		return nil, false
	}
	return ids, true
}

// writePathIndex keeps ids as path's index at tip, unless there are too
// many, and prunes the path's older indexes. Failing to write costs only
// speed, so errors are ignored.
func writePathIndex(dir, path string, tip git.Oid, ids []git.Oid) {
	if len(ids) > pathIndexMax {
		return
	}
	folder := pathIndexFolder(dir, path)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return
	}
	buf := make([]byte, 0, len(pathIndexMagic)+4+len(path)+8+len(ids)*oidSize)
	buf = append(buf, pathIndexMagic...)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(path)))
	buf = append(buf, path...)
	buf = binary.BigEndian.AppendUint64(buf, uint64(len(ids)))
	for i := range ids {
		buf = append(buf, ids[i][:]...)
	}
	tmp, err := os.CreateTemp(folder, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if werr != nil || serr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(folder, tip.String())) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	prunePathIndexes(folder)
}

// prunePathIndexes removes all but the pathIndexKeep newest indexes of a
// folder, and temporary files a crash left behind.
func prunePathIndexes(folder string) {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return
	}
	type tipFile struct {
		name string
		mod  time.Time
	}
	var tips []tipFile
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		if e.Name()[0] == '.' {
			if time.Since(info.ModTime()) > time.Hour {
				_ = os.Remove(filepath.Join(folder, e.Name()))
			}
			continue
		}
		tips = append(tips, tipFile{e.Name(), info.ModTime()})
	}
	if len(tips) <= pathIndexKeep {
		return
	}
	slices.SortFunc(tips, func(a, b tipFile) int { return b.mod.Compare(a.mod) })
	for _, t := range tips[pathIndexKeep:] {
		_ = os.Remove(filepath.Join(folder, t.name))
	}
}

// pathIndexTips returns the tips path has an index for, newest first.
func pathIndexTips(dir, path string) []git.Oid {
	folder := pathIndexFolder(dir, path)
	entries, err := os.ReadDir(folder)
	if err != nil {
		return nil
	}
	type tip struct {
		id  git.Oid
		mod time.Time
	}
	var tips []tip
	for _, e := range entries {
		id, err := git.NewOid(e.Name())
		if err != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		tips = append(tips, tip{*id, info.ModTime()})
	}
	slices.SortFunc(tips, func(a, b tip) int { return b.mod.Compare(a.mod) })
	out := make([]git.Oid, len(tips))
	for i, t := range tips {
		out[i] = t.id
	}
	return out
}
