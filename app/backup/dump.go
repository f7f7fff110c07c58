package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/depothq/depot/ports"
)

// SiteRoots are the data directory's trees and files a dump carries
// besides the database and the repositories: the blob stores (attachments
// and release assets, avatars, packages, Actions artifacts and task logs) and the keys
// (the site key that seals secrets, the OAuth2 provider's JWT key, the
// commit signing key, the SSH host keys). The hook scripts are not among
// them: a server writes its own at start.
var SiteRoots = []string{"attachments", "avatars", "packages", "actions_artifacts", "actions_log", "site.key", "jwt", "signing", "ssh"}

// Progress is told how far a phase is ("database", "repositories",
// "files"): done of total (total 0 when unknown).
type Progress func(phase string, done, total int)

// Dumper writes a running site into one archive.
type Dumper struct {
	Gate  ports.PushGate
	DB    ports.DatabaseSnapshots
	Repos ports.RepositoryFiles
	Dir   ports.SiteDirectory
	// Version and APILevel are the program's, for the manifest.
	Version, APILevel string
	Now               func() time.Time
	// LockTimeout bounds the wait for the pushes running to end (the push
	// gate); 0 waits as long as they take.
	LockTimeout time.Duration
}

// ErrGateTimeout is Dump's error when the pushes running did not end
// within LockTimeout: nothing was written.
var ErrGateTimeout = errors.New("timed out waiting for the pushes running to end")

// inMemoryLimit is the size under which a file is read whole before it is
// added (a config or a loose object that may be rewritten meanwhile keeps
// the size it was read with); larger files (packs) are immutable.
const inMemoryLimit = 1 << 20

// Dump writes the archive. The database snapshot and every repository's
// references are taken while the push gate is closed (ports.PushGate,
// waited for at most LockTimeout, then ErrGateTimeout): a
// push acknowledged before the dump began is in it whole; one running
// when it began is waited for and is in it whole; one that starts during
// the dump is wholly out of it (its objects may be copied, but no
// reference of the dump names them). The objects are copied after the
// gate reopens: objects are only added to a repository, so every object
// the captured references reach is still there (a repack that replaces a
// pack during the copy is caught by walking again).
//
// Blobs are copied after the snapshot, as they are then: a blob written
// since has no row in the dump and is swept at the restored site's first
// start; a blob whose row was deleted since and that is already gone is
// missing from the dump (`depot doctor` lists such rows).
func (d *Dumper) Dump(ctx context.Context, w ports.SiteArchiveWriter, progress Progress) (Manifest, error) {
	progress("push gate", 0, 1)
	reopen, err := d.closeGate(ctx)
	if err != nil {
		return Manifest{}, err
	}
	progress("push gate", 1, 1)
	snap, refs, dirs, err := d.freeze(ctx)
	reopen()
	if err != nil {
		return Manifest{}, err
	}
	defer snap.Close()
	progress("snapshot", 1, 1)

	m := Manifest{Format: FormatVersion, DepotVersion: d.Version, APILevel: d.APILevel, Database: snap.Dialect(),
		MigrationLevel: snap.MigrationLevel(), Created: d.Now().UTC(), Repositories: len(dirs)}
	files := 0
	add := func(name string, data []byte) error {
		files++
		return w.AddFile(name, 0o600, int64(len(data)), bytes.NewReader(data))
	}
	manifest, _ := json.MarshalIndent(m, "", "  ")
	if err := add(ManifestName, manifest); err != nil {
		return m, err
	}
	tables := 0
	counting := countingWriter{w: w, n: &files}
	if err := snap.WriteTo(ctx, counting, DatabaseDir, func(string) {
		tables++
		progress("database", tables, 0)
	}); err != nil {
		return m, fmt.Errorf("dumping the database: %w", err)
	}
	for i, dir := range dirs {
		if err := d.copyObjects(ctx, counting, dir); err != nil {
			return m, fmt.Errorf("dumping %s: %w", dir, err)
		}
		for _, f := range refs[dir] {
			if err := counting.AddFile(f.Name, f.Mode, int64(len(f.Data)), bytes.NewReader(f.Data)); err != nil {
				return m, err
			}
		}
		progress("repositories", i+1, len(dirs))
	}
	n := 0
	for _, root := range SiteRoots {
		err := d.Dir.Walk(ctx, root, func(f ports.SiteFile) error {
			if strings.HasPrefix(path.Base(f.Name), ".") { // an upload being written
				return nil
			}
			n++
			progress("files", n, 0)
			return d.copyFile(counting, f)
		})
		if err != nil {
			return m, fmt.Errorf("dumping %s: %w", root, err)
		}
	}
	trailer, _ := json.Marshal(Trailer{Files: files})
	if err := w.AddFile(TrailerName, 0o600, int64(len(trailer)), bytes.NewReader(trailer)); err != nil {
		return m, err
	}
	return m, nil
}

// closeGate closes the push gate, waiting at most LockTimeout for the
// pushes running to end (a push whose hooks hang would otherwise stall the
// dump for good). Nothing is written before it returns.
func (d *Dumper) closeGate(ctx context.Context) (func(), error) {
	if d.LockTimeout <= 0 {
		return d.Gate.Close(ctx)
	}
	wait, cancel := context.WithTimeoutCause(ctx, d.LockTimeout, ErrGateTimeout)
	defer cancel()
	reopen, err := d.Gate.Close(wait)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(wait), ErrGateTimeout) {
		return nil, fmt.Errorf("%w after %s: a push still holds the push gate (%v)", ErrGateTimeout, d.LockTimeout, err)
	}
	return reopen, err
}

// freeze takes the database snapshot and the references of every
// repository (the caller holds the push gate).
func (d *Dumper) freeze(ctx context.Context) (ports.DatabaseSnapshot, map[string][]ports.CapturedFile, []string, error) {
	snap, err := d.DB.Snapshot(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("snapshot of the database: %w", err)
	}
	dirs, err := d.Repos.Dirs(ctx)
	if err != nil {
		_ = snap.Close()
		return nil, nil, nil, err
	}
	refs := make(map[string][]ports.CapturedFile, len(dirs))
	for _, dir := range dirs {
		if refs[dir], err = d.Repos.CaptureRefs(ctx, dir); err != nil {
			_ = snap.Close()
			return nil, nil, nil, fmt.Errorf("references of %s: %w", dir, err)
		}
	}
	return snap, refs, dirs, nil
}

// copyObjects adds a repository's files other than its references. When
// a file vanished between the walk and its reading (a repack), the walk
// is made again for what it put in its place.
func (d *Dumper) copyObjects(ctx context.Context, w ports.SiteArchiveWriter, dir string) error {
	done := map[string]bool{}
	for attempt := 0; attempt < 5; attempt++ {
		vanished := false
		err := d.Repos.Objects(ctx, dir, func(f ports.SiteFile) error {
			if done[f.Name] {
				return nil
			}
			err := d.copyFile(w, f)
			if errors.Is(err, fs.ErrNotExist) {
				vanished = true
				return nil
			}
			done[f.Name] = err == nil
			return err
		})
		if err != nil || !vanished {
			return err
		}
	}
	return fmt.Errorf("its files kept changing during the dump")
}

// copyFile adds one file of the data directory.
func (d *Dumper) copyFile(w ports.SiteArchiveWriter, f ports.SiteFile) error {
	r, err := d.Dir.Open(f.Name)
	if err != nil {
		return err
	}
	defer r.Close()
	if f.Size < inMemoryLimit {
		data, err := io.ReadAll(io.LimitReader(r, inMemoryLimit))
		if err != nil {
			return err
		}
		return w.AddFile(f.Name, f.Mode, int64(len(data)), bytes.NewReader(data))
	}
	return w.AddFile(f.Name, f.Mode, f.Size, r)
}

// countingWriter counts the files added, for the trailer.
type countingWriter struct {
	w ports.SiteArchiveWriter
	n *int
}

func (c countingWriter) AddFile(name string, mode fs.FileMode, size int64, r io.Reader) error {
	*c.n++
	return c.w.AddFile(name, mode, size, r)
}
