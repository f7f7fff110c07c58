// Package backup holds the site's maintenance use cases: `depot dump`
// writes one consistent archive of a running site, `depot restore` makes a
// new site from one, and `depot doctor` checks the rows against what is on
// disk and repairs what it safely can.
package backup

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// Archive layout: the manifest first, then the database under DatabaseDir,
// the repositories, the blob stores and the keys under their names in the
// data directory, and the trailer last (a restore refuses an archive
// without it: it was cut short).
const (
	ManifestName = "depot-dump.json"
	TrailerName  = "depot-dump-end.json"
	DatabaseDir  = "database/"
)

// FormatVersion is the archive layout's version.
const FormatVersion = 1

// Manifest says what an archive holds and what made it.
type Manifest struct {
	Format int `json:"format"`
	// DepotVersion and APILevel are the dumping program's.
	DepotVersion string `json:"depot_version"`
	APILevel     string `json:"api_level,omitempty"`
	// Database is the dumped database's dialect ("sqlite", "postgres");
	// MigrationLevel its last applied migration.
	Database       string    `json:"database"`
	MigrationLevel string    `json:"migration_level"`
	Created        time.Time `json:"created"`
	// Repositories is how many repository directories follow.
	Repositories int `json:"repositories"`
}

// Trailer ends an archive: how many files came before it.
type Trailer struct {
	Files int `json:"files"`
}

var migrationName = regexp.MustCompile(`^[0-9]{6}$`)

// ParseManifest reads and checks a manifest.
func ParseManifest(data []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%w: the archive's manifest is unreadable: %v", errs.ErrBadRequest, err)
	}
	switch {
	case m.Format != FormatVersion:
		return m, fmt.Errorf("%w: the archive's format %d is not %d (made by another Depot version?)", errs.ErrBadRequest, m.Format, FormatVersion)
	case m.Database != "sqlite" && m.Database != "postgres":
		return m, fmt.Errorf("%w: the archive's database kind %q is unknown", errs.ErrBadRequest, m.Database)
	case !migrationName.MatchString(m.MigrationLevel):
		return m, fmt.Errorf("%w: the archive's migration level %q is not a migration name", errs.ErrBadRequest, m.MigrationLevel)
	case m.Repositories < 0:
		return m, fmt.Errorf("%w: the archive's repository count is negative", errs.ErrBadRequest)
	}
	return m, nil
}

// ParseTrailer reads and checks a trailer.
func ParseTrailer(data []byte) (Trailer, error) {
	var t Trailer
	if err := json.Unmarshal(data, &t); err != nil || t.Files < 0 {
		return t, fmt.Errorf("%w: the archive's trailer is unreadable", errs.ErrBadRequest)
	}
	return t, nil
}
