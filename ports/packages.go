package ports

import (
	"context"
	"io"
	"time"

	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
)

// PackageFilter narrows an owner's package versions.
type PackageFilter struct {
	OwnerID int64
	// Type keeps one type; empty keeps all.
	Type packages.Type
	// Query keeps the packages whose name contains it (case-insensitive).
	Query string
}

// PackageStore persists packages, their versions and files, and the blob
// rows that name the content-addressed bytes (kept in PackageBlobs).
type PackageStore interface {
	// Ensure finds the package of p's owner, type and name (any case) or
	// creates it, and fills p's ID and linked repository.
	Ensure(ctx context.Context, p *packages.Package) error
	// Get finds a package by owner, type and name (any case).
	Get(ctx context.Context, ownerID int64, typ packages.Type, name string) (*packages.Package, error)
	// List pages the versions of the filter's packages, newest package
	// name first as Gitea orders them (name, then newest version), with
	// the total.
	List(ctx context.Context, f PackageFilter, opts ListOptions) ([]packages.Entry, int64, error)
	// Versions pages a package's versions, newest first, with the total.
	Versions(ctx context.Context, packageID int64, opts ListOptions) ([]*packages.Version, int64, error)
	// OfType returns at most n of the owner's packages of one type whose
	// ID is above afterID, by ID.
	OfType(ctx context.Context, ownerID int64, typ packages.Type, afterID int64, n int) ([]packages.Package, error)
	// AllVersions returns every version of a package, oldest first.
	AllVersions(ctx context.Context, packageID int64) ([]*packages.Version, error)
	// GetVersion finds a version of a package (any case).
	GetVersion(ctx context.Context, packageID int64, version string) (*packages.Version, error)
	// Latest is the package's most recently created version.
	Latest(ctx context.Context, packageID int64) (*packages.Version, error)
	// CreateVersion inserts v; an existing version is a conflict.
	CreateVersion(ctx context.Context, v *packages.Version) error
	// SetMetadata replaces a version's metadata.
	SetMetadata(ctx context.Context, versionID int64, metadata string) error
	// DeleteVersion removes a version and its files, and the package when
	// it was its last version; it returns the SHA-256 of the blobs no file
	// names any more, whose rows it removed too.
	DeleteVersion(ctx context.Context, versionID int64) ([]string, error)
	// Files returns a version's files by name.
	Files(ctx context.Context, versionID int64) ([]*packages.File, error)
	// FilesOf returns the files of these versions in one query.
	FilesOf(ctx context.Context, versionIDs []int64) (map[int64][]*packages.File, error)
	// PackageFiles returns the files of every version of the package, by
	// version, in one query.
	PackageFiles(ctx context.Context, packageID int64) (map[int64][]*packages.File, error)
	// GetFile finds a version's file by name (any case).
	GetFile(ctx context.Context, versionID int64, name string) (*packages.File, error)
	// AddFile adds f to its version, recording its blob once by SHA-256;
	// a file of that name in the version is a conflict.
	AddFile(ctx context.Context, f *packages.File) error
	// DeleteFile removes a file and returns the SHA-256 of its blob when no
	// other file names it (its row removed too), else "".
	DeleteFile(ctx context.Context, fileID int64) (string, error)
	// SetRepo links the package to a repository (0 unlinks).
	SetRepo(ctx context.Context, packageID, repoID int64) error
	// BlobsReferenced returns those of sums that a blob row names.
	BlobsReferenced(ctx context.Context, sums []string) (map[string]bool, error)
	// Tags returns a package's tags and the versions they name.
	Tags(ctx context.Context, packageID int64) (map[string]string, error)
	// SetTag points a tag at a version, replacing where it pointed.
	SetTag(ctx context.Context, packageID int64, tag, version string) error
	// DeleteTag removes a tag; an absent one is not an error.
	DeleteTag(ctx context.Context, packageID int64, tag string) error
	// TeamMode is the highest packages-unit mode the user's teams hold in
	// the organisation (an owners' or admin team's mode counts whole).
	TeamMode(ctx context.Context, orgID, userID int64) (permission.AccessMode, error)
}

// PackageBlobs stores package bytes content-addressed by their SHA-256,
// so equal files of any version and owner are kept once.
type PackageBlobs interface {
	// Put streams at most limit bytes from r into the store, hashing them;
	// errs.ErrTooLarge beyond. The blob stays held, so the sweep leaves it
	// alone, until release is called: call it once the row naming the blob
	// is committed, or has failed.
	Put(ctx context.Context, r io.Reader, limit int64) (b packages.Blob, release func(), err error)
	// Open reads a blob by SHA-256; an absent one is errs.ErrNotFound.
	Open(ctx context.Context, sha256 string) (io.ReadSeekCloser, error)
	// Delete removes a blob; an absent one is not an error.
	Delete(ctx context.Context, sha256 string) error
	// Stored calls fn with the SHA-256 of the unheld blobs last written
	// before t, at most n at a time, until fn fails.
	Stored(ctx context.Context, t time.Time, n int, fn func(sums []string) error) error
	// RemovePartial removes cut-off uploads older than t and counts them.
	RemovePartial(ctx context.Context, t time.Time) (int, error)
}
