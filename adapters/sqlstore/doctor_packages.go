package sqlstore

import (
	"context"

	"github.com/depothq/depot/ports"
)

// PackageBlobRows calls fn with every package blob row, n at a time.
func (s *SiteInventory) PackageBlobRows(ctx context.Context, n int, fn func(blobs []ports.PackageBlobRef) error) error {
	return pagesByID(ctx, n, func(ctx context.Context, after int64, n int) ([]ports.PackageBlobRef, error) {
		var rows []blobRow
		if err := s.d.read.NewSelect().Model(&rows).Column("id", "sha256", "size").Where("id > ?", after).
			OrderExpr("id ASC").Limit(int64(n)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make([]ports.PackageBlobRef, len(rows))
		for i, r := range rows {
			out[i] = ports.PackageBlobRef{ID: r.ID, SHA256: r.SHA256, Size: r.Size}
		}
		return out, nil
	}, func(b ports.PackageBlobRef) int64 { return b.ID }, fn)
}

// PackageBlobUses describes at most limit of the package files (type,
// owner/name, version, file name) and container images (their blobs
// pushed, their manifests) that name the blob row of sum, and counts them.
func (s *SiteInventory) PackageBlobUses(ctx context.Context, sum string, limit int) ([]string, int, error) {
	var id int64
	if err := s.d.read.NewSelect().Model((*blobRow)(nil)).Column("id").Where("sha256 = ?", sum).
		Limit(1).Scan(ctx, &id); err != nil {
		return nil, 0, packageBlobMapping.mapErr(err)
	}
	const uses = `SELECT f.id AS k, p.type || ' ' || u.name || '/' || p.name || ' ' || v.version || ' ' || f.name AS what
		FROM package_files f JOIN package_versions v ON v.id = f.version_id JOIN packages p ON p.id = v.package_id
		JOIN users u ON u.id = p.owner_id WHERE f.blob_id = ?0
		UNION ALL
		SELECT cb.id, 'container ' || u.name || '/' || cb.image || ' (a pushed blob)'
		FROM container_blobs cb JOIN users u ON u.id = cb.owner_id WHERE cb.blob_id = ?0
		UNION ALL
		SELECT cm.version_id, 'container ' || u.name || '/' || p.name || ' ' || v.version || ' (its manifest)'
		FROM container_manifests cm JOIN package_versions v ON v.id = cm.version_id JOIN packages p ON p.id = cm.package_id
		JOIN users u ON u.id = p.owner_id WHERE cm.blob_id = ?0`
	var total int
	if err := s.d.read.NewRaw(`SELECT COUNT(*) FROM (`+uses+`) AS x`, id).Scan(ctx, &total); err != nil {
		return nil, 0, err
	}
	var out []string
	if err := s.d.read.NewRaw(`SELECT what FROM (`+uses+`) AS x ORDER BY what LIMIT ?1`, id, limit).
		Scan(ctx, &out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// packageBlobMapping maps the errors of reading a package blob row.
var packageBlobMapping = mapping{op: "package blob", notFound: "package blob row does not exist"}
