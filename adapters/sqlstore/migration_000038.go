package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000038, frozen once released: packages. A package is a
// name of one type under an owner; its versions hold files, and each file
// names a blob row keyed by the SHA-256 of the bytes the blob store keeps
// under that sum, so equal files are stored once. Packages die with their
// owner, tags (npm's dist-tags) with their package, versions with their package, files with their version; a blob row
// is removed by the store when its last file goes.
type m000038Blob struct {
	bun.BaseModel `bun:"table:package_blobs"`

	ID      int64     `bun:"id,pk,autoincrement"`
	SHA256  string    `bun:"sha256,type:varchar(64),notnull,unique"`
	Size    int64     `bun:"size,notnull"`
	MD5     string    `bun:"md5,type:varchar(32),notnull"`
	SHA1    string    `bun:"sha1,type:varchar(40),notnull"`
	SHA512  string    `bun:"sha512,type:varchar(128),notnull"`
	Created time.Time `bun:"created,notnull"`
}

type m000038Package struct {
	bun.BaseModel `bun:"table:packages"`

	ID        int64  `bun:"id,pk,autoincrement"`
	OwnerID   int64  `bun:"owner_id,notnull"`
	Type      string `bun:"type,type:varchar(32),notnull"`
	Name      string `bun:"name,type:varchar(255),notnull"`
	LowerName string `bun:"lower_name,type:varchar(255),notnull"`
	RepoID    int64  `bun:"repo_id,notnull,default:0"`
}

type m000038Version struct {
	bun.BaseModel `bun:"table:package_versions"`

	ID           int64     `bun:"id,pk,autoincrement"`
	PackageID    int64     `bun:"package_id,notnull"`
	Version      string    `bun:"version,type:varchar(255),notnull"`
	LowerVersion string    `bun:"lower_version,type:varchar(255),notnull"`
	CreatorID    int64     `bun:"creator_id,notnull,default:0"`
	Metadata     string    `bun:"metadata,type:text,notnull,default:''"`
	Created      time.Time `bun:"created,notnull"`
}

type m000038File struct {
	bun.BaseModel `bun:"table:package_files"`

	ID        int64     `bun:"id,pk,autoincrement"`
	VersionID int64     `bun:"version_id,notnull"`
	BlobID    int64     `bun:"blob_id,notnull"`
	Name      string    `bun:"name,type:varchar(255),notnull"`
	LowerName string    `bun:"lower_name,type:varchar(255),notnull"`
	Created   time.Time `bun:"created,notnull"`
}

// m000038Tag is a registry's named pointer to a version (npm's dist-tags).
type m000038Tag struct {
	bun.BaseModel `bun:"table:package_tags"`

	PackageID int64  `bun:"package_id,pk"`
	Tag       string `bun:"tag,pk,type:varchar(255)"`
	Version   string `bun:"version,type:varchar(255),notnull"`
}

func up000038(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000038Blob)(nil)).IfNotExists().Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000038Package)(nil)).IfNotExists().
		ForeignKey(`("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000038Version)(nil)).IfNotExists().
		ForeignKey(`("package_id") REFERENCES "packages" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000038File)(nil)).IfNotExists().
		ForeignKey(`("version_id") REFERENCES "package_versions" ("id") ON DELETE CASCADE`).
		ForeignKey(`("blob_id") REFERENCES "package_blobs" ("id")`).Exec(ctx); err != nil {
		return err
	}
	if _, err := tx.NewCreateTable().Model((*m000038Tag)(nil)).IfNotExists().
		ForeignKey(`("package_id") REFERENCES "packages" ("id") ON DELETE CASCADE`).Exec(ctx); err != nil {
		return err
	}
	for _, ix := range []struct {
		table, name string
		unique      bool
		cols        []string
	}{
		{"packages", "packages_owner_type_name", true, []string{"owner_id", "type", "lower_name"}},
		{"package_versions", "package_versions_package_version", true, []string{"package_id", "lower_version"}},
		{"package_files", "package_files_version_name", true, []string{"version_id", "lower_name"}},
		{"package_files", "package_files_blob", false, []string{"blob_id"}},
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

func down000038(ctx context.Context, tx bun.Tx) error {
	for _, m := range []any{(*m000038Tag)(nil), (*m000038File)(nil), (*m000038Version)(nil), (*m000038Package)(nil), (*m000038Blob)(nil)} {
		if _, err := tx.NewDropTable().Model(m).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
