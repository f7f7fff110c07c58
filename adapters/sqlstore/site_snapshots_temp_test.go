package sqlstore_test

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// tempWatcher is an archive that reads each file and lists, as it is
// added, what the temporary directory holds.
type tempWatcher struct {
	dir   string
	files []string
	seen  []string
}

func (w *tempWatcher) AddFile(name string, _ fs.FileMode, size int64, r io.Reader) error {
	entries, err := os.ReadDir(w.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		w.seen = append(w.seen, e.Name())
	}
	n, err := io.Copy(io.Discard, r)
	if err == nil && n != size {
		err = io.ErrUnexpectedEOF
	}
	w.files = append(w.files, name)
	return err
}

// TestSnapshotPostgresTempFileHasNoName: a Postgres dump stages each table
// in a temporary file that has no name while the dump runs, so a dump
// killed part way leaves nothing in the temporary directory.
func TestSnapshotPostgresTempFileHasNoName(t *testing.T) {
	is := is.New(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	d := openMigrated(t, backends[1])
	snap, err := d.Snapshot(t.Context())
	is.NoErr(err)
	defer snap.Close()
	w := &tempWatcher{dir: tmp}
	is.NoErr(snap.WriteTo(t.Context(), w, "db/", func(string) {}))
	is.True(len(w.files) > 10)                       // every table was staged and added
	is.True(strings.HasSuffix(w.files[0], ".jsonl")) // as JSON lines
	is.Equal(len(w.seen), 0)                         // nothing named in TMPDIR meanwhile
	left, err := os.ReadDir(tmp)
	is.NoErr(err)
	is.Equal(len(left), 0)
}
