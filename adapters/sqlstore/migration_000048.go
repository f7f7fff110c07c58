package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000048, frozen once released: the container registry.
// container_blobs records which blobs (layers, configs) an owner's image
// holds, pushed before any manifest names them; a blob row stays while a
// package file or an image holds it. container_manifests describes the
// manifest of each image version (a tag, or a digest pushed untagged) and
// goes with its version; subject indexes the referrers API.
type m000048Blob struct {
	bun.BaseModel `bun:"table:container_blobs"`

	ID      int64     `bun:"id,pk,autoincrement"`
	OwnerID int64     `bun:"owner_id,notnull"`
	Image   string    `bun:"image,type:varchar(255),notnull"`
	BlobID  int64     `bun:"blob_id,notnull"`
	Created time.Time `bun:"created,notnull"`
}

type m000048Manifest struct {
	bun.BaseModel `bun:"table:container_manifests"`

	VersionID    int64  `bun:"version_id,pk"`
	PackageID    int64  `bun:"package_id,notnull"`
	Digest       string `bun:"digest,type:varchar(80),notnull"`
	MediaType    string `bun:"media_type,type:varchar(255),notnull"`
	ArtifactType string `bun:"artifact_type,type:varchar(255),notnull,default:''"`
	Subject      string `bun:"subject,type:varchar(80),notnull,default:''"`
	Size         int64  `bun:"size,notnull"`
	BlobID       int64  `bun:"blob_id,notnull"`
	Annotations  string `bun:"annotations,type:text,notnull,default:''"`
}

func up000048(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000048Blob)(nil)).IfNotExists().
		ForeignKey(`("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`).
		ForeignKey(`("blob_id") REFERENCES "package_blobs" ("id")`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000048Manifest)(nil)).IfNotExists().
		ForeignKey(`("version_id") REFERENCES "package_versions" ("id") ON DELETE CASCADE`).
		ForeignKey(`("package_id") REFERENCES "packages" ("id") ON DELETE CASCADE`).
		ForeignKey(`("blob_id") REFERENCES "package_blobs" ("id")`).Exec(ctx); err != nil {
		return err
	}
	for _, ix := range []struct {
		table, name string
		unique      bool
		cols        []string
	}{
		{"container_blobs", "container_blobs_owner_image_blob", true, []string{"owner_id", "image", "blob_id"}},
		{"container_blobs", "container_blobs_blob", false, []string{"blob_id"}},
		{"container_manifests", "container_manifests_package_digest", false, []string{"package_id", "digest"}},
		{"container_manifests", "container_manifests_package_subject", false, []string{"package_id", "subject"}},
		{"container_manifests", "container_manifests_blob", false, []string{"blob_id"}},
	} {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.cols...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000048(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000048Manifest)(nil), (*m000048Blob)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
