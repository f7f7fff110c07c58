// Package release holds a repository's releases: a named, described
// pointer at a tag, published or kept as a draft.
package release

import (
	"strings"
	"time"
)

// Release is one release of a repository. Its tag exists in Git once the
// release is published (a draft creates none).
type Release struct {
	ID          int64
	RepoID      int64
	PublisherID int64
	TagName     string
	// Target is the branch or commit the tag was (or will be) made at.
	Target string
	Title  string
	Note   string
	// Sha1 is the commit the tag named when the release was published;
	// empty for a draft.
	Sha1             string
	IsDraft          bool
	IsPrerelease     bool
	HideArchiveLinks bool
	Created          time.Time
	// Published is when the release left draft; zero for a draft.
	Published time.Time
}

// Filter narrows a list of a repository's releases.
type Filter struct {
	// IncludeDrafts lists drafts at all (only writers see them).
	IncludeDrafts bool
	// Draft and Prerelease, when set, keep only the releases that are (or
	// are not) drafts or pre-releases.
	Draft, Prerelease *bool
	// Keyword keeps releases whose tag name or title contains it, case
	// insensitively.
	Keyword string
}

// NormalisedKeyword is f's keyword trimmed and lower-cased, as the stores
// compare it.
func (f Filter) NormalisedKeyword() string { return strings.ToLower(strings.TrimSpace(f.Keyword)) }

// VisibleTo reports whether a caller who may (or may not) write the
// repository's releases may see r: drafts are for writers only.
func (r *Release) VisibleTo(writer bool) bool { return writer || !r.IsDraft }

// Asset is one file attached to a release; its bytes are stored under its
// UUID, which also makes its download address.
type Asset struct {
	ID         int64
	UUID       string
	RepoID     int64
	ReleaseID  int64
	UploaderID int64
	Name       string
	Size       int64
	// SHA256 is the bytes' checksum (hex); empty for files stored before
	// Depot kept one.
	SHA256        string
	DownloadCount int64
	Created       time.Time
	// ExternalURL is where a link asset's file is (it has no bytes here);
	// empty for an uploaded file.
	ExternalURL string
}

// IsExternal reports whether a is a link to a file elsewhere.
func (a *Asset) IsExternal() bool { return a.ExternalURL != "" }
