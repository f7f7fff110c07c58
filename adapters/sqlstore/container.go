package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.ContainerStore = (*ContainerStore)(nil)

var (
	containerBlobMapping     = mapping{op: "container blob", notFound: "blob unknown to registry", missingRef: "owner does not exist"}
	containerManifestMapping = mapping{op: "container manifest", notFound: "manifest unknown", missingRef: "package does not exist"}
)

type containerBlobRow struct {
	bun.BaseModel `bun:"table:container_blobs,alias:cb"`

	ID      int64     `bun:"id,pk,autoincrement"`
	OwnerID int64     `bun:"owner_id"`
	Image   string    `bun:"image"`
	BlobID  int64     `bun:"blob_id"`
	Created time.Time `bun:"created"`
}

type containerManifestRow struct {
	bun.BaseModel `bun:"table:container_manifests,alias:cm"`

	VersionID    int64  `bun:"version_id,pk"`
	PackageID    int64  `bun:"package_id"`
	Digest       string `bun:"digest"`
	MediaType    string `bun:"media_type"`
	ArtifactType string `bun:"artifact_type"`
	Subject      string `bun:"subject"`
	Size         int64  `bun:"size"`
	BlobID       int64  `bun:"blob_id"`
	Annotations  string `bun:"annotations"`
	// SHA256 is the manifest blob's, joined in.
	SHA256 string `bun:"sha256,scanonly"`
}

func (r *containerManifestRow) toDomain() packages.ContainerManifest {
	m := packages.ContainerManifest{VersionID: r.VersionID, Digest: r.Digest, MediaType: r.MediaType,
		ArtifactType: r.ArtifactType, Subject: r.Subject, Size: r.Size, BlobSHA256: r.SHA256}
	if r.Annotations != "" {
		_ = json.Unmarshal([]byte(r.Annotations), &m.Annotations)
	}
	return m
}

// ContainerStore is the SQL implementation of ports.ContainerStore over
// container_blobs and container_manifests (migration 000048).
type ContainerStore struct{ c conn }

// ensureBlob records b's row once by SHA-256 and returns its id.
func ensureBlob(ctx context.Context, tx bun.IDB, b packages.Blob, at time.Time) (int64, error) {
	row := &blobRow{SHA256: b.SHA256, Size: b.Size, MD5: b.MD5, SHA1: b.SHA1, SHA512: b.SHA512, Created: dbTime(at)}
	if _, err := tx.NewInsert().Model(row).ExcludeColumn("id").On("CONFLICT (sha256) DO NOTHING").Exec(ctx); err != nil {
		return 0, fileMapping.mapErr(err)
	}
	got := new(blobRow)
	if err := tx.NewSelect().Model(got).Column("id").Where("sha256 = ?", b.SHA256).Scan(ctx); err != nil {
		return 0, fileMapping.mapErr(err)
	}
	return got.ID, nil
}

// AddBlob records the image's hold on blob.
func (s *ContainerStore) AddBlob(ctx context.Context, ownerID int64, image string, blob packages.Blob, at time.Time) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		id, err := ensureBlob(ctx, tx, blob, at)
		if err != nil {
			return err
		}
		row := &containerBlobRow{OwnerID: ownerID, Image: strings.ToLower(image), BlobID: id, Created: dbTime(at)}
		_, err = tx.NewInsert().Model(row).ExcludeColumn("id").On("CONFLICT (owner_id, image, blob_id) DO NOTHING").Exec(ctx)
		return containerBlobMapping.mapErr(err)
	})
}

func (s *ContainerStore) findBlob(ctx context.Context, where string, args ...any) (*packages.Blob, error) {
	var rows []blobRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).
		Where("EXISTS (SELECT 1 FROM container_blobs AS cb WHERE cb.blob_id = b.id AND "+where+")", args...).
		Limit(1).Scan(ctx); err != nil {
		return nil, containerBlobMapping.mapErr(err)
	}
	if len(rows) == 0 {
		return nil, containerBlobMapping.mapErr(sql.ErrNoRows)
	}
	r := rows[0]
	return &packages.Blob{ID: r.ID, Size: r.Size, MD5: r.MD5, SHA1: r.SHA1, SHA256: r.SHA256, SHA512: r.SHA512}, nil
}

// GetBlob finds a blob the image holds.
func (s *ContainerStore) GetBlob(ctx context.Context, ownerID int64, image, sha256 string) (*packages.Blob, error) {
	return s.findBlob(ctx, "cb.owner_id = ? AND cb.image = ? AND b.sha256 = ?", ownerID, strings.ToLower(image), sha256)
}

// FindBlob finds a blob any image of the owner holds.
func (s *ContainerStore) FindBlob(ctx context.Context, ownerID int64, sha256 string) (*packages.Blob, error) {
	return s.findBlob(ctx, "cb.owner_id = ? AND b.sha256 = ?", ownerID, sha256)
}

// DeleteBlob removes the image's hold and the blob row when unused.
func (s *ContainerStore) DeleteBlob(ctx context.Context, ownerID int64, image, sha256 string) ([]string, error) {
	var gone []string
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var ids []int64
		if err := tx.NewSelect().Model((*containerBlobRow)(nil)).Column("cb.blob_id").
			Join("JOIN package_blobs AS b ON b.id = cb.blob_id").
			Where("cb.owner_id = ? AND cb.image = ? AND b.sha256 = ?", ownerID, strings.ToLower(image), sha256).
			Scan(ctx, &ids); err != nil {
			return containerBlobMapping.mapErr(err)
		}
		if len(ids) == 0 {
			return containerBlobMapping.mapErr(sql.ErrNoRows)
		}
		if _, err := tx.NewDelete().Model((*containerBlobRow)(nil)).
			Where("owner_id = ? AND image = ? AND blob_id IN (?)", ownerID, strings.ToLower(image), bun.In(ids)).
			Exec(ctx); err != nil {
			return containerBlobMapping.mapErr(err)
		}
		var err error
		gone, err = dropUnusedBlobs(ctx, tx, ids)
		return err
	})
	return gone, err
}

// MissingBlobs returns the sums the image does not hold.
func (s *ContainerStore) MissingBlobs(ctx context.Context, ownerID int64, image string, sums []string) ([]string, error) {
	if len(sums) == 0 {
		return nil, nil
	}
	var held []string
	if err := s.c.r(ctx).NewSelect().Model((*containerBlobRow)(nil)).ColumnExpr("b.sha256").
		Join("JOIN package_blobs AS b ON b.id = cb.blob_id").
		Where("cb.owner_id = ? AND cb.image = ? AND b.sha256 IN (?)", ownerID, strings.ToLower(image), bun.In(sums)).
		Scan(ctx, &held); err != nil {
		return nil, containerBlobMapping.mapErr(err)
	}
	return missingOf(sums, held), nil
}

// missingOf returns those of want not in have.
func missingOf(want, have []string) []string {
	seen := make(map[string]bool, len(have))
	for _, h := range have {
		seen[h] = true
	}
	var out []string
	for _, w := range want {
		if !seen[w] {
			out = append(out, w)
			seen[w] = true
		}
	}
	return out
}

// SaveManifest records or replaces a version's manifest.
func (s *ContainerStore) SaveManifest(ctx context.Context, m *packages.ContainerManifest) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		v := new(versionRow)
		if err := tx.NewSelect().Model(v).Column("package_id").Where("id = ?", m.VersionID).Scan(ctx); err != nil {
			return versionMapping.mapErr(err)
		}
		b := new(blobRow)
		if err := tx.NewSelect().Model(b).Column("id").Where("sha256 = ?", m.BlobSHA256).Scan(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		ann := ""
		if len(m.Annotations) > 0 {
			raw, err := json.Marshal(m.Annotations)
			if err != nil {
				return err
			}
			ann = string(raw)
		}
		row := &containerManifestRow{VersionID: m.VersionID, PackageID: v.PackageID, Digest: m.Digest,
			MediaType: m.MediaType, ArtifactType: m.ArtifactType, Subject: m.Subject, Size: m.Size,
			BlobID: b.ID, Annotations: ann}
		_, err := tx.NewInsert().Model(row).On("CONFLICT (version_id) DO UPDATE").
			Set("digest = EXCLUDED.digest, media_type = EXCLUDED.media_type, artifact_type = EXCLUDED.artifact_type").
			Set("subject = EXCLUDED.subject, size = EXCLUDED.size, blob_id = EXCLUDED.blob_id").
			Set("annotations = EXCLUDED.annotations").Exec(ctx)
		return containerManifestMapping.mapErr(err)
	})
}

// DeleteManifest removes a version's manifest description.
func (s *ContainerStore) DeleteManifest(ctx context.Context, versionID int64) error {
	_, err := s.c.w(ctx).NewDelete().Model((*containerManifestRow)(nil)).Where("version_id = ?", versionID).Exec(ctx)
	return containerManifestMapping.mapErr(err)
}

func (s *ContainerStore) oneManifest(ctx context.Context, where string, args ...any) (*packages.ContainerManifest, error) {
	var rows []containerManifestRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).ColumnExpr("cm.*").ColumnExpr("b.sha256").
		Join("JOIN package_blobs AS b ON b.id = cm.blob_id").Where(where, args...).
		OrderExpr("cm.version_id ASC").Limit(1).Scan(ctx); err != nil {
		return nil, containerManifestMapping.mapErr(err)
	}
	if len(rows) == 0 {
		return nil, containerManifestMapping.mapErr(sql.ErrNoRows)
	}
	m := rows[0].toDomain()
	return &m, nil
}

// ManifestByDigest finds a manifest of the package by digest.
func (s *ContainerStore) ManifestByDigest(ctx context.Context, packageID int64, digest string) (*packages.ContainerManifest, error) {
	return s.oneManifest(ctx, "cm.package_id = ? AND cm.digest = ?", packageID, digest)
}

// ManifestOf finds a version's manifest.
func (s *ContainerStore) ManifestOf(ctx context.Context, versionID int64) (*packages.ContainerManifest, error) {
	return s.oneManifest(ctx, "cm.version_id = ?", versionID)
}

// imagePackage selects the id of the owner's image; its arguments are the
// owner id, the package type and the lower-case name.
const imagePackage = "SELECT p.id FROM packages AS p WHERE p.owner_id = ? AND p.type = ? AND p.lower_name = ?"

// ImageManifest finds the manifest of the owner's image by tag or digest
// in one query (the package, the version and the manifest joined).
func (s *ContainerStore) ImageManifest(ctx context.Context, ownerID int64, image string, ref packages.Reference) (*packages.ContainerManifest, error) {
	typ, lower := string(packages.TypeContainer), strings.ToLower(image)
	if ref.Digest != "" {
		return s.oneManifest(ctx, "cm.package_id = ("+imagePackage+") AND cm.digest = ?", ownerID, typ, lower, ref.Digest)
	}
	return s.oneManifest(ctx, "cm.version_id = (SELECT v.id FROM package_versions AS v WHERE v.package_id = ("+
		imagePackage+") AND v.lower_version = ?)", ownerID, typ, lower, strings.ToLower(ref.Tag))
}

// VersionsWithDigest lists the versions whose manifest has digest.
func (s *ContainerStore) VersionsWithDigest(ctx context.Context, packageID int64, digest string) ([]int64, error) {
	var ids []int64
	err := s.c.r(ctx).NewSelect().Model((*containerManifestRow)(nil)).Column("version_id").
		Where("package_id = ? AND digest = ?", packageID, digest).OrderExpr("version_id ASC").Scan(ctx, &ids)
	return ids, containerManifestMapping.mapErr(err)
}

// MissingManifests returns the digests no version of the package has.
func (s *ContainerStore) MissingManifests(ctx context.Context, packageID int64, digests []string) ([]string, error) {
	if len(digests) == 0 {
		return nil, nil
	}
	var have []string
	if err := s.c.r(ctx).NewSelect().Model((*containerManifestRow)(nil)).Column("digest").
		Where("package_id = ? AND digest IN (?)", packageID, bun.In(digests)).Scan(ctx, &have); err != nil {
		return nil, containerManifestMapping.mapErr(err)
	}
	return missingOf(digests, have), nil
}

// Tags lists the package's tags after last, in name order.
func (s *ContainerStore) Tags(ctx context.Context, packageID int64, last string, n int) ([]string, error) {
	if n == 0 {
		return []string{}, nil
	}
	var tags []string
	q := s.c.r(ctx).NewSelect().Model((*versionRow)(nil)).Column("version").
		Where("package_id = ? AND version NOT LIKE 'sha256:%'", packageID).OrderExpr("version ASC")
	if last != "" {
		q = q.Where("version > ?", last)
	}
	if n > 0 {
		q = q.Limit(int64(n))
	}
	if err := q.Scan(ctx, &tags); err != nil {
		return nil, versionMapping.mapErr(err)
	}
	if tags == nil {
		tags = []string{}
	}
	return tags, nil
}

// Referrers lists the manifests whose subject is digest.
func (s *ContainerStore) Referrers(ctx context.Context, packageID int64, digest, artifactType string) ([]packages.ContainerManifest, error) {
	var rows []containerManifestRow
	q := s.c.r(ctx).NewSelect().Model(&rows).ColumnExpr("cm.*").ColumnExpr("b.sha256").
		Join("JOIN package_blobs AS b ON b.id = cm.blob_id").
		Where("cm.package_id = ? AND cm.subject = ?", packageID, digest).OrderExpr("cm.version_id ASC")
	if artifactType != "" {
		q = q.Where("cm.artifact_type = ?", artifactType)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, containerManifestMapping.mapErr(err)
	}
	seen := map[string]bool{}
	out := make([]packages.ContainerManifest, 0, len(rows))
	for i := range rows {
		if seen[rows[i].Digest] {
			continue
		}
		seen[rows[i].Digest] = true
		out = append(out, rows[i].toDomain())
	}
	return out, nil
}

// Catalog lists the container images of the owners v may see, keyed by
// (owner, image) lower names, from the (owner_id, type, lower_name) index
// joined to each owner's row.
func (s *ContainerStore) Catalog(ctx context.Context, v ports.RepoViewer, last string, n int) ([]string, error) {
	out := []string{}
	if n <= 0 {
		return out, nil
	}
	q := s.c.r(ctx).NewSelect().TableExpr("packages AS p").
		ColumnExpr("u.lower_name AS owner").ColumnExpr("p.lower_name AS image").
		Join("JOIN users AS u ON u.id = p.owner_id").
		Where("p.type = ?", string(packages.TypeContainer))
	switch {
	case v.UserID == 0 || v.PublicOnly:
		q = q.Where("u.visibility = ?", string(user.VisibilityPublic))
	case v.IsAdmin:
	default:
		q = q.Where("(u.visibility IN (?) OR u.id = ? OR u.id IN (SELECT ou.org_id FROM org_users AS ou WHERE ou.user_id = ?))",
			bun.List([]string{string(user.VisibilityPublic), string(user.VisibilityLimited)}), v.UserID, v.UserID)
	}
	if owner, image, ok := strings.Cut(last, "/"); ok {
		q = q.Where("(u.lower_name > ? OR (u.lower_name = ? AND p.lower_name > ?))", owner, owner, image)
	} else if last != "" {
		q = q.Where("u.lower_name > ?", last)
	}
	var rows []struct {
		Owner string `bun:"owner"`
		Image string `bun:"image"`
	}
	if err := q.OrderExpr("u.lower_name ASC, p.lower_name ASC").Limit(int64(n)).Scan(ctx, &rows); err != nil {
		return nil, packageMapping.mapErr(err)
	}
	for _, r := range rows {
		out = append(out, r.Owner+"/"+r.Image)
	}
	return out, nil
}
