package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Restorer makes a new site from an archive.
type Restorer struct {
	// Dir is the new site's data directory; it must be empty.
	Dir ports.SiteDirectory
	DB  ports.DatabaseLoader
}

// manifestLimit bounds the manifest and the trailer (a few hundred bytes).
const manifestLimit = 1 << 20

// Restore reads the archive into the empty data directory and loads its
// database. A damaged or cut-short archive, one made by a newer Depot, or
// a directory that is not empty is refused with errs.ErrBadRequest or
// errs.ErrConflict.
func (r *Restorer) Restore(ctx context.Context, ar ports.SiteArchiveReader, progress Progress) (Manifest, error) {
	empty, err := r.Dir.Empty()
	if err != nil {
		return Manifest{}, err
	}
	if !empty {
		return Manifest{}, fmt.Errorf("%w: the data directory is not empty; restore only into an empty one", errs.ErrConflict)
	}
	e, body, err := ar.Next()
	if err == io.EOF {
		return Manifest{}, fmt.Errorf("%w: the archive is empty", errs.ErrBadRequest)
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("not a Depot dump, or a damaged one: %w", err)
	}
	if e.Name != ManifestName {
		return Manifest{}, fmt.Errorf("%w: not a Depot dump (it does not start with %s)", errs.ErrBadRequest, ManifestName)
	}
	data, err := readSmall(body, e.Size)
	if err != nil {
		return Manifest{}, err
	}
	m, err := ParseManifest(data)
	if err != nil {
		return m, err
	}
	if known := r.DB.MigrationLevel(); m.MigrationLevel > known {
		return m, fmt.Errorf("%w: the dump's schema (migration %s) is newer than this program's (%s): restore it with Depot %s or later",
			errs.ErrBadRequest, m.MigrationLevel, known, m.DepotVersion)
	}
	files, repos := 1, 0
	for {
		e, body, err := ar.Next()
		if err == io.EOF {
			return m, fmt.Errorf("%w: the archive is cut short (it has no %s)", errs.ErrBadRequest, TrailerName)
		}
		if err != nil {
			return m, err
		}
		if e.Name == TrailerName {
			data, err := readSmall(body, e.Size)
			if err != nil {
				return m, err
			}
			t, err := ParseTrailer(data)
			if err != nil {
				return m, err
			}
			if t.Files != files {
				return m, fmt.Errorf("%w: the archive holds %d files where its trailer counts %d", errs.ErrBadRequest, files, t.Files)
			}
			if _, _, err := ar.Next(); err != io.EOF {
				return m, fmt.Errorf("%w: the archive goes on after its trailer", errs.ErrBadRequest)
			}
			break
		}
		if !restorable(e.Name) {
			return m, fmt.Errorf("%w: the archive holds %q, which is no part of a site", errs.ErrBadRequest, e.Name)
		}
		if err := r.Dir.Write(e.Name, e.Mode, io.LimitReader(body, e.Size)); err != nil {
			return m, err
		}
		files++
		if strings.HasSuffix(e.Name, ".git/HEAD") && strings.HasPrefix(e.Name, "repos/") {
			repos++
			progress("repositories", repos, m.Repositories)
		}
	}
	tables := 0
	if err := r.DB.Load(ctx, r.Dir, DatabaseDir, m.Database, func(string) {
		tables++
		progress("database", tables, 0)
	}); err != nil {
		return m, fmt.Errorf("loading the database: %w", err)
	}
	return m, nil
}

// restorable reports whether an archive name belongs to a site.
func restorable(name string) bool {
	if strings.HasPrefix(name, DatabaseDir) || strings.HasPrefix(name, "repos/") {
		return true
	}
	for _, root := range SiteRoots {
		if name == root || strings.HasPrefix(name, root+"/") {
			return true
		}
	}
	return false
}

// readSmall reads an entry that must be small.
func readSmall(r io.Reader, size int64) ([]byte, error) {
	if size > manifestLimit {
		return nil, fmt.Errorf("%w: the archive's manifest is too large", errs.ErrBadRequest)
	}
	data, err := io.ReadAll(io.LimitReader(r, size))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != size {
		return nil, errors.New("the archive is cut short")
	}
	return data, nil
}
