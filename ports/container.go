package ports

import (
	"context"
	"io"
	"time"

	"github.com/depothq/depot/domain/packages"
)

// ContainerStore persists what the container registry adds to packages:
// the blobs pushed to an image (its layers and configs, which exist before
// any manifest names them) and the manifest of each image version.
type ContainerStore interface {
	// AddBlob records that the owner's image holds blob, recording the blob
	// row once by SHA-256; holding it already is not an error.
	AddBlob(ctx context.Context, ownerID int64, image string, blob packages.Blob, at time.Time) error
	// GetBlob finds a blob the owner's image holds by SHA-256.
	GetBlob(ctx context.Context, ownerID int64, image, sha256 string) (*packages.Blob, error)
	// FindBlob finds a blob any image of the owner holds by SHA-256.
	FindBlob(ctx context.Context, ownerID int64, sha256 string) (*packages.Blob, error)
	// DeleteBlob removes the image's hold on a blob and returns the SHA-256
	// of the blob when nothing names it any more (its row removed too).
	DeleteBlob(ctx context.Context, ownerID int64, image, sha256 string) ([]string, error)
	// MissingBlobs returns those of sums the owner's image does not hold.
	MissingBlobs(ctx context.Context, ownerID int64, image string, sums []string) ([]string, error)
	// SaveManifest records or replaces the manifest of m.VersionID.
	SaveManifest(ctx context.Context, m *packages.ContainerManifest) error
	// DeleteManifest removes the description of a version's manifest (its
	// files stay); an absent one is not an error.
	DeleteManifest(ctx context.Context, versionID int64) error
	// ManifestByDigest finds a manifest of the package by digest.
	ManifestByDigest(ctx context.Context, packageID int64, digest string) (*packages.ContainerManifest, error)
	// ManifestOf finds the manifest of a version.
	// ImageManifest finds the manifest of the owner's image (its name any
	// case) by tag or by digest, in one query: what a pull asks first.
	ImageManifest(ctx context.Context, ownerID int64, image string, ref packages.Reference) (*packages.ContainerManifest, error)
	ManifestOf(ctx context.Context, versionID int64) (*packages.ContainerManifest, error)
	// VersionsWithDigest lists the package's versions whose manifest has digest.
	VersionsWithDigest(ctx context.Context, packageID int64, digest string) ([]int64, error)
	// MissingManifests returns those of digests no version of the package has.
	MissingManifests(ctx context.Context, packageID int64, digests []string) ([]string, error)
	// Tags lists the package's tags (versions that are not digests) after
	// last in name order, at most n (n < 0: all).
	Tags(ctx context.Context, packageID int64, last string, n int) ([]string, error)
	// Referrers lists the package's manifests whose subject is digest, one
	// per digest, filtered by artifact type unless it is "".
	Referrers(ctx context.Context, packageID int64, digest, artifactType string) ([]packages.ContainerManifest, error)
	// Catalog lists, as "owner/image" in owner then image name order, the
	// images of the owners v may see (RepoViewer's UserID, IsAdmin and
	// PublicOnly; an organisation's members see it), after last, at most n.
	Catalog(ctx context.Context, v RepoViewer, last string, n int) ([]string, error)
}

// ContainerUploads keeps the chunks of blob uploads in progress, each a
// file of its own named by its id, until the upload is committed into the
// package blob store or cancelled. Nothing in them is visible as a blob.
type ContainerUploads interface {
	// Create starts an empty upload under id.
	Create(ctx context.Context, id string) error
	// Size is the number of bytes received so far; an unknown id is
	// errs.ErrNotFound.
	Size(ctx context.Context, id string) (int64, error)
	// Append streams r onto the upload, refusing to grow it past limit
	// (errs.ErrTooLarge), and returns its new size.
	Append(ctx context.Context, id string, r io.Reader, limit int64) (int64, error)
	// Open reads the bytes received so far.
	Open(ctx context.Context, id string) (io.ReadCloser, error)
	// Remove drops an upload; an unknown one is not an error.
	Remove(ctx context.Context, id string) error
	// RemoveBefore drops the uploads last written before t and counts them.
	RemoveBefore(ctx context.Context, t time.Time) (int, error)
}
