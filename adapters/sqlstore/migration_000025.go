package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000025, frozen once released: a repository's releases and
// their assets. A tag has at most one release per repository; the
// publisher and uploader are kept as plain ids, so a deleted user leaves
// them to the ghost. Assets have their own table: the issue attachments'
// rows require an issue.

// m000025Release is one release.
type m000025Release struct {
	bun.BaseModel `bun:"table:releases"`

	ID               int64     `bun:"id,pk,autoincrement"`
	RepoID           int64     `bun:"repo_id,notnull"`
	PublisherID      int64     `bun:"publisher_id,notnull"`
	TagName          string    `bun:"tag_name,type:varchar(255),notnull"`
	Target           string    `bun:"target,type:varchar(255),notnull"`
	Title            string    `bun:"title,type:varchar(255),notnull"`
	Note             string    `bun:"note,type:text,notnull"`
	Sha1             string    `bun:"sha1,type:varchar(64),notnull"`
	IsDraft          bool      `bun:"is_draft,notnull"`
	IsPrerelease     bool      `bun:"is_prerelease,notnull"`
	HideArchiveLinks bool      `bun:"hide_archive_links,notnull"`
	Created          time.Time `bun:"created,notnull"`
	Published        time.Time `bun:"published,nullzero"`
}

// m000025ReleaseAsset is one file of a release; its bytes are in the
// attachment blob store under its UUID.
type m000025ReleaseAsset struct {
	bun.BaseModel `bun:"table:release_assets"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UUID          string    `bun:"uuid,type:varchar(40),notnull"`
	RepoID        int64     `bun:"repo_id,notnull"`
	ReleaseID     int64     `bun:"release_id,notnull"`
	UploaderID    int64     `bun:"uploader_id,notnull"`
	Name          string    `bun:"name,type:varchar(255),notnull"`
	Size          int64     `bun:"size,notnull"`
	DownloadCount int64     `bun:"download_count,notnull,default:0"`
	Created       time.Time `bun:"created,notnull"`
}

const releaseAssetToRelease = `("release_id") REFERENCES "releases" ("id") ON DELETE CASCADE`

const releaseToRepo = `("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`

func up000025(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000025Release)(nil)).IfNotExists().
		ForeignKey(releaseToRepo).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateIndex().Table("releases").Index("releases_repo_tag").Unique().
		Column("repo_id", "tag_name").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	// Lists and the latest release walk a repository's releases newest first.
	if _, err := tx.NewCreateIndex().Table("releases").Index("idx_releases_repo_created").
		Column("repo_id", "created", "id").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000025ReleaseAsset)(nil)).IfNotExists().
		ForeignKey(releaseToRepo).ForeignKey(releaseAssetToRelease).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateIndex().Table("release_assets").Index("release_assets_uuid").Unique().
		Column("uuid").IfNotExists().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewCreateIndex().Table("release_assets").Index("idx_release_assets_release").
		Column("release_id", "id").IfNotExists().Exec(ctx)
	return err
}

func down000025(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{(*m000025ReleaseAsset)(nil), (*m000025Release)(nil)} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
