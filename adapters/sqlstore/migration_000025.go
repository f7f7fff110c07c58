package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000025, frozen once released: a repository's releases. A
// tag has at most one release per repository; the publisher is kept as a
// plain id, so a deleted user leaves the release to the ghost.

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
	_, err := tx.NewCreateIndex().Table("releases").Index("idx_releases_repo_created").
		Column("repo_id", "created", "id").IfNotExists().Exec(ctx)
	return err
}

func down000025(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000025Release)(nil)).IfExists().Exec(ctx)
	return err
}
