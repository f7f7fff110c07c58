package ports

import (
	"context"
	"io"
	"io/fs"
	"time"
)

// What `depot dump`, `depot restore` and `depot doctor` need (app/backup).

// SiteArchiveWriter adds entries to a site archive being written.
type SiteArchiveWriter interface {
	// AddFile adds a regular file of exactly size bytes read from r.
	AddFile(name string, mode fs.FileMode, size int64, r io.Reader) error
}

// SiteArchiveReader yields a site archive's entries in the order they
// were written.
type SiteArchiveReader interface {
	// Next returns the next entry and its content, io.EOF after the last.
	// A damaged archive gives an error wrapping errs.ErrBadRequest.
	Next() (SiteArchiveEntry, io.Reader, error)
}

// SiteArchiveEntry is one file of a site archive.
type SiteArchiveEntry struct {
	Name string
	Mode fs.FileMode
	Size int64
}

// SiteFile is a file of the data directory: its name relative to the data
// directory (slash-separated), its mode and size.
type SiteFile struct {
	Name string
	Mode fs.FileMode
	Size int64
}

// SiteDirectory is the data directory of the site being dumped, restored or
// checked, seen as named files.
type SiteDirectory interface {
	// Empty reports whether the directory holds nothing (or does not exist).
	Empty() (bool, error)
	// Walk calls fn with every regular file under root (a name relative to
	// the data directory), in lexical order; a root that does not exist has
	// none. Files that vanish during the walk are left out.
	Walk(ctx context.Context, root string, fn func(f SiteFile) error) error
	// Open reads a file.
	Open(name string) (io.ReadCloser, error)
	// Write creates a file (and its parents) from r.
	Write(name string, mode fs.FileMode, r io.Reader) error
	// Remove deletes a file or an empty directory; a missing one is no error.
	Remove(name string) error
}

// RepositoryFiles reads bare repositories' files for a dump, and checks
// them for the doctor.
type RepositoryFiles interface {
	// Dirs lists the repository directories under the repositories root,
	// relative to the data directory ("repos/<owner>/<name>.git"), sorted.
	Dirs(ctx context.Context) ([]string, error)
	// CaptureRefs reads dir's references (HEAD, packed-refs and the loose
	// refs) into memory, as they are at this instant.
	CaptureRefs(ctx context.Context, dir string) ([]CapturedFile, error)
	// Objects walks dir's other files (config, objects, info) that a
	// restored copy needs, leaving out the references and what an
	// unfinished push left in a quarantine.
	Objects(ctx context.Context, dir string, fn func(f SiteFile) error) error
	// Fsck runs git fsck on dir and returns what it reports ("" when clean).
	Fsck(ctx context.Context, dir string) (string, error)
}

// CapturedFile is a file held in memory.
type CapturedFile struct {
	SiteFile
	Data []byte
}

// PushGate holds pushes back while a dump freezes the database and the
// repositories' references, so that a push is wholly on one side of the
// dump's instant: its references and its rows are both in, or both out.
type PushGate interface {
	// Close waits until no push is running (each holds the gate from before
	// its references change until its post-receive hook has recorded it)
	// and keeps new ones waiting until reopen is called.
	Close(ctx context.Context) (reopen func(), err error)
}

// DatabaseSnapshots freezes the database for a dump.
type DatabaseSnapshots interface {
	// Snapshot freezes the database at this instant. The snapshot must be
	// closed.
	Snapshot(ctx context.Context) (DatabaseSnapshot, error)
}

// DatabaseSnapshot is the database as it was at one instant.
type DatabaseSnapshot interface {
	// Dialect is "sqlite" or "postgres".
	Dialect() string
	// MigrationLevel is the name of the last schema migration applied.
	MigrationLevel() string
	// WriteTo adds the snapshot to the archive under the prefix given, in
	// the form it chooses (an SQLite file, or every table as JSON lines);
	// progress is told each table or file done.
	WriteTo(ctx context.Context, w SiteArchiveWriter, prefix string, progress func(what string)) error
	Close() error
}

// DatabaseLoader loads a dumped database into the new site's database,
// which must hold no data yet.
type DatabaseLoader interface {
	// MigrationLevel is the last migration this program knows.
	MigrationLevel() string
	// Load reads the database files the dump wrote under prefix, now
	// extracted into the data directory, migrates the new database to the
	// dump's level and fills it; progress is told each table done.
	Load(ctx context.Context, dir SiteDirectory, prefix, dialect string, progress func(what string)) error
}

// SiteInventory lists what the rows say should be on disk, for the doctor.
type SiteInventory interface {
	// RepositoryDirs maps each repository row's directory ("repos/<owner>/
	// <name>.git", lower case) to its id.
	RepositoryDirs(ctx context.Context) (map[string]int64, error)
	// AttachmentUUIDs lists the UUIDs every attachment and release asset
	// row names.
	AttachmentUUIDs(ctx context.Context) ([]string, error)
	// MarkEmpty records that a repository's Git directory was recreated
	// empty: the row no longer claims commits it lost.
	MarkEmpty(ctx context.Context, repoID int64) error

	// AvatarRefs lists the rows that name a stored avatar: users',
	// organisations' and repositories'.
	AvatarRefs(ctx context.Context) ([]AvatarRef, error)
	// AvatarsReferenced returns those of hashes a row names.
	AvatarsReferenced(ctx context.Context, hashes []string) (map[string]bool, error)
	// ClearAvatar drops the avatar from ref's row (the account or
	// repository shows its default again) if the row still names ref.Hash,
	// and reports whether it did.
	ClearAvatar(ctx context.Context, ref AvatarRef) (bool, error)

	// ArtifactsKnown returns those of ids an Actions artifact row (in any
	// state) has.
	ArtifactsKnown(ctx context.Context, ids []int64) (map[int64]bool, error)
	// ConfirmedArtifacts lists the finalized artifacts not expired at now:
	// each one's content must be stored.
	ConfirmedArtifacts(ctx context.Context, now time.Time) ([]ArtifactRef, error)
	// ExpireArtifact makes ref's artifact expire at now, if its row is still
	// the finalized one read (the same digest: not uploaded again since),
	// and reports whether it did.
	ExpireArtifact(ctx context.Context, ref ArtifactRef, now time.Time) (bool, error)

	// PackageBlobRows calls fn with every package blob row, in id order, at
	// most n at a time (each batch read on its own), until fn fails.
	PackageBlobRows(ctx context.Context, n int, fn func(blobs []PackageBlobRef) error) error
	// PackageBlobUses describes at most limit of what names the package
	// blob row of sha256 (package files, container images) and counts
	// them all; a row gone meanwhile is errs.ErrNotFound.
	PackageBlobUses(ctx context.Context, sha256 string, limit int) (uses []string, total int, err error)

	// TasksKnown returns those of ids an Actions task row has.
	TasksKnown(ctx context.Context, ids []int64) (map[int64]bool, error)
	// ArchivedTaskLogs calls fn with the tasks whose log was moved to its
	// file, in id order, at most n at a time (each batch read on its own),
	// until fn fails.
	ArchivedTaskLogs(ctx context.Context, n int, fn func(tasks []TaskLogRef) error) error
}

// PackageBlobRef is a package blob row.
type PackageBlobRef struct {
	ID     int64
	SHA256 string
	Size   int64
}

// TaskLogRef is an Actions task whose log was moved to its file.
type TaskLogRef struct {
	TaskID int64
	// JobID is its job's id (the one of …/actions/jobs/{job_id}/logs), Job
	// its name, Repo its repository's owner/name.
	JobID int64
	Job   string
	Repo  string
}

// SiteTempFiles finds the temporary files a cut-off write (a crash, a
// killed process) left under the data directory: uploads and blobs being
// written, avatars, keys, hook scripts, caches and journals written aside
// and renamed into place; and the temporary folders, such as the one a
// dump copies the SQLite database into, which their writer holds locked
// while it runs.
type SiteTempFiles interface {
	// Stale calls fn with the temporary files last written before t that
	// no live writer holds (a folder: nothing under it written since t, and
	// its lock free), at most n at a time, until fn fails. Symbolic links
	// are neither followed nor listed.
	Stale(ctx context.Context, t time.Time, n int, fn func(files []TempFile) error) error
	// Remove deletes a file Stale listed if it is still the one listed (a
	// regular file last written at f.Modified, not held; a folder, with
	// all it holds, in which nothing was written since, its lock free);
	// one gone, or written since, is left as it is and is no error. A name that is no
	// temporary file of the data directory is errs.ErrInvalid.
	Remove(ctx context.Context, f TempFile) error
}

// TempFile is a temporary file of the data directory: its name relative
// to the data directory (slash-separated) and when it was last written.
type TempFile struct {
	Name     string
	Modified time.Time
	// Folder says it is a temporary folder, removed with all it holds;
	// Modified is then the latest time anything under it was written.
	Folder bool
}

// AvatarRef is a row that names a stored avatar.
type AvatarRef struct {
	// Kind is "user", "organization" or "repository".
	Kind string
	ID   int64
	// Name is the account's name, or the repository's owner/name.
	Name string
	Hash string
}

// ArtifactRef is a finalized Actions artifact's row.
type ArtifactRef struct {
	ID int64
	// Repo is its repository's owner/name; RunID and Name say which of the
	// repository's artifacts it is.
	Repo   string
	RunID  int64
	Name   string
	SHA256 string
}

// SiteHooks are the push hook scripts every repository runs.
type SiteHooks interface {
	// Check lists the hook scripts that are missing, not executable or not
	// what this version installs.
	Check() ([]string, error)
	// Install writes them.
	Install() error
}
