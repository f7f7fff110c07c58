package sqlstore

import (
	"context"
	"strings"

	"github.com/depothq/depot/ports"
)

// SiteInventory implements ports.SiteInventory: what the rows say should
// be on disk, for `depot doctor`.
type SiteInventory struct{ d *DB }

var _ ports.SiteInventory = (*SiteInventory)(nil)

// SiteInventory returns the database's inventory.
func (d *DB) SiteInventory() *SiteInventory { return &SiteInventory{d: d} }

// RepositoryDirs maps each repository row's directory to its id.
func (s *SiteInventory) RepositoryDirs(ctx context.Context) (map[string]int64, error) {
	rows, err := s.d.read.QueryContext(ctx, `SELECT r.id, u.lower_name, r.lower_name
		FROM repos r JOIN users u ON u.id = r.owner_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id int64
		var owner, name string
		if err := rows.Scan(&id, &owner, &name); err != nil {
			return nil, err
		}
		out["repos/"+strings.ToLower(owner)+"/"+strings.ToLower(name)+".git"] = id
	}
	return out, rows.Err()
}

// AttachmentUUIDs lists the UUIDs of every attachment and release asset.
func (s *SiteInventory) AttachmentUUIDs(ctx context.Context) ([]string, error) {
	rows, err := s.d.read.QueryContext(ctx, `SELECT uuid FROM attachments UNION SELECT uuid FROM release_assets ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// MarkEmpty records that the repository has no commit (its directory was
// recreated empty).
func (s *SiteInventory) MarkEmpty(ctx context.Context, repoID int64) error {
	_, err := s.d.write.NewUpdate().Table("repos").Set("is_empty = ?", true).Set("size = 0").
		Where("id = ?", repoID).Exec(ctx)
	return err
}
