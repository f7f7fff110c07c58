// Package packages holds the package registry's entities: a package (one
// name of one type under one owner), its versions, and the files of a
// version, whose bytes are content-addressed blobs shared by every file
// with the same SHA-256. It validates the names and versions the
// registries accept, without I/O.
package packages

import (
	"strings"
	"time"
)

// Type is a registry's package type, as Gitea names it in paths and JSON.
type Type string

// The package types Depot serves a registry for.
const (
	TypeGeneric Type = "generic"
	TypeNpm     Type = "npm"
)

// knownTypes are the types Gitea 1.27 knows; the management API accepts
// them in paths and filters even where Depot serves no registry yet, so a
// filter on one of them answers an empty list rather than an error.
var knownTypes = map[Type]bool{
	"alpine": true, "arch": true, "cargo": true, "chef": true, "composer": true, "conan": true,
	"conda": true, "container": true, "cran": true, "debian": true, "generic": true, "go": true,
	"helm": true, "maven": true, "npm": true, "nuget": true, "pub": true, "pypi": true,
	"rpm": true, "rubygems": true, "swift": true, "vagrant": true,
}

// ParseType reads a type from a path or a filter; ok is false for a type
// Gitea does not know.
func ParseType(s string) (Type, bool) {
	t := Type(strings.ToLower(s))
	return t, knownTypes[t]
}

// Package is one package: a name of one type under one owner (a user or an
// organisation), optionally linked to one of the owner's repositories.
type Package struct {
	ID        int64
	OwnerID   int64
	Type      Type
	Name      string
	LowerName string
	// RepoID is the linked repository, 0 when none.
	RepoID int64
}

// Version is one published version of a package.
type Version struct {
	ID           int64
	PackageID    int64
	Version      string
	LowerVersion string
	CreatorID    int64
	// Metadata is the registry's own description of the version (npm's
	// package document, for instance), kept as it was published.
	Metadata  string
	CreatedAt time.Time
}

// Blob is the content of one or more files, stored once by its SHA-256.
type Blob struct {
	ID     int64
	Size   int64
	MD5    string
	SHA1   string
	SHA256 string
	SHA512 string
}

// File is one file of a version, naming the blob that holds its bytes.
type File struct {
	ID        int64
	VersionID int64
	Name      string
	LowerName string
	Blob      Blob
	CreatedAt time.Time
}

// Entry is a version with its package, as the management API lists it.
type Entry struct {
	Package Package
	Version Version
}
