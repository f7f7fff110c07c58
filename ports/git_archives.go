package ports

import (
	"context"
	"io"
)

// ArchiveFormat is the kind of download an archive route asks for.
type ArchiveFormat string

// The archive formats, named by their file extension.
const (
	ArchiveZip    ArchiveFormat = "zip"
	ArchiveTarGz  ArchiveFormat = "tar.gz"
	ArchiveBundle ArchiveFormat = "bundle"
)

// GitArchive is an archive whose ref has been resolved and that is ready to
// be written. It holds the repository open until Close.
type GitArchive interface {
	// Revision is the commit the archive holds.
	Revision() GitRevision
	// Stream writes the archive to w while generating it, in memory that does
	// not grow with the repository (one blob at a time). It may be called once.
	Stream(ctx context.Context, w io.Writer) error
	// Close releases the repository.
	Close() error
}

// GitArchives is the part of GitContent for archives and bundles, languages,
// licences and editorconfig.
type GitArchives interface {
	// OpenArchive resolves ref (as GitResolver.Resolve; empty is not allowed)
	// and prepares an archive of its tree in which every path starts with
	// prefix (e.g. "name/"); a bundle ignores prefix. Absent ref:
	// errs.ErrNotFound.
	OpenArchive(ctx context.Context, p RepoPath, ref string, format ArchiveFormat, prefix string) (GitArchive, error)
	// Languages returns the bytes of each programming or markup language in
	// the tree of ref, leaving out vendored, generated, documentation,
	// configuration, dot and binary files.
	Languages(ctx context.Context, p RepoPath, ref string) (map[string]int64, error)
	// Licenses returns the SPDX ids of the licences in the licence files at
	// the root of ref's tree (LICENSE*, LICENCE*, COPYING*, UNLICENSE*),
	// sorted.
	Licenses(ctx context.Context, p RepoPath, ref string) ([]string, error)
	// EditorConfig returns the properties the .editorconfig at the root of
	// ref's tree gives filename (a slash-separated path from the root).
	// No .editorconfig: errs.ErrNotFound.
	EditorConfig(ctx context.Context, p RepoPath, ref, filename string) (map[string]string, error)
}
