package ports

import (
	"context"

	"github.com/depothq/depot/domain/release"
)

// ReleaseAssetStore persists the rows of release assets (the bytes are in
// an AttachmentBlobs). A UUID is unique; assets go with their release.
type ReleaseAssetStore interface {
	// Create inserts a and sets a.ID.
	Create(ctx context.Context, a *release.Asset) error
	// Get finds one of the release's assets; another release's is not found.
	Get(ctx context.Context, releaseID, id int64) (*release.Asset, error)
	// GetByUUID finds an asset by the UUID of its download address.
	GetByUUID(ctx context.Context, uuid string) (*release.Asset, error)
	// GetByName finds the release's first asset (by id) of that name.
	GetByName(ctx context.Context, releaseID int64, name string) (*release.Asset, error)
	// List returns the release's assets, oldest first.
	List(ctx context.Context, releaseID int64) ([]*release.Asset, error)
	// OfReleases returns the assets of these releases in one query, by release id.
	OfReleases(ctx context.Context, releaseIDs []int64) (map[int64][]*release.Asset, error)
	// Edit writes a's name and external URL.
	Edit(ctx context.Context, a *release.Asset) error
	// Delete removes one of the release's assets.
	Delete(ctx context.Context, releaseID, id int64) error
	// CountDownload adds one to the asset's download count.
	CountDownload(ctx context.Context, id int64) error
}
