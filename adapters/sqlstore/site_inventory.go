package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/user"
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

// AvatarRefs lists the users', organisations' and repositories' rows
// that name a stored avatar.
func (s *SiteInventory) AvatarRefs(ctx context.Context) ([]ports.AvatarRef, error) {
	rows, err := s.d.read.QueryContext(ctx, `SELECT 'account', id, kind, name, avatar FROM users WHERE avatar <> ''
		UNION ALL
		SELECT 'repository', r.id, 0, u.name || '/' || r.name, r.avatar FROM repos r JOIN users u ON u.id = r.owner_id
		WHERE r.avatar <> ''
		ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ports.AvatarRef
	for rows.Next() {
		var ref ports.AvatarRef
		var kind int
		if err := rows.Scan(&ref.Kind, &ref.ID, &kind, &ref.Name, &ref.Hash); err != nil {
			return nil, err
		}
		if ref.Kind == "account" {
			ref.Kind = "user"
			if user.Kind(kind) == user.KindOrganization {
				ref.Kind = "organization"
			}
		}
		out = append(out, ref)
	}
	return out, rows.Err()
}

// AvatarsReferenced returns those of hashes a user, organisation or
// repository row names.
func (s *SiteInventory) AvatarsReferenced(ctx context.Context, hashes []string) (map[string]bool, error) {
	out := make(map[string]bool, len(hashes))
	if len(hashes) == 0 {
		return out, nil
	}
	var found []string
	if err := s.d.read.NewRaw(`SELECT avatar FROM users WHERE avatar IN (?) UNION SELECT avatar FROM repos WHERE avatar IN (?)`,
		bun.In(hashes), bun.In(hashes)).Scan(ctx, &found); err != nil {
		return nil, err
	}
	for _, h := range found {
		out[h] = true
	}
	return out, nil
}

// ClearAvatar empties the row's avatar column if it still names ref.Hash.
func (s *SiteInventory) ClearAvatar(ctx context.Context, ref ports.AvatarRef) (bool, error) {
	table := "users"
	if ref.Kind == "repository" {
		table = "repos"
	}
	res, err := s.d.write.NewUpdate().Table(table).Set("avatar = ''").Set("updated = ?", dbTime(time.Now())).
		Where("id = ?", ref.ID).Where("avatar = ?", ref.Hash).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// ArtifactsKnown returns those of ids an artifact row has.
func (s *SiteInventory) ArtifactsKnown(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var found []int64
	if err := s.d.read.NewSelect().Table("action_artifacts").Column("id").Where("id IN (?)", bun.In(ids)).
		Scan(ctx, &found); err != nil {
		return nil, err
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// ConfirmedArtifacts lists the finalized artifacts not expired at now.
func (s *SiteInventory) ConfirmedArtifacts(ctx context.Context, now time.Time) ([]ports.ArtifactRef, error) {
	rows, err := s.d.read.NewSelect().TableExpr("action_artifacts AS aa").
		ColumnExpr("aa.id, u.name, r.name, aa.run_id, aa.name, aa.sha256").
		Join("JOIN repos AS r ON r.id = aa.repo_id").Join("JOIN users AS u ON u.id = r.owner_id").
		Where("aa.status = ?", actions.ArtifactConfirmed).Where("aa.expires > ?", dbTime(now)).
		OrderExpr("aa.id").Rows(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ports.ArtifactRef
	for rows.Next() {
		var ref ports.ArtifactRef
		var owner, repo string
		if err := rows.Scan(&ref.ID, &owner, &repo, &ref.RunID, &ref.Name, &ref.SHA256); err != nil {
			return nil, err
		}
		ref.Repo = owner + "/" + repo
		out = append(out, ref)
	}
	return out, rows.Err()
}

// ExpireArtifact sets the artifact's expiry to now if its row is still
// the finalized one of ref's digest.
func (s *SiteInventory) ExpireArtifact(ctx context.Context, ref ports.ArtifactRef, now time.Time) (bool, error) {
	res, err := s.d.write.NewUpdate().Table("action_artifacts").Set("expires = ?", dbTime(now)).
		Set("updated = ?", dbTime(now)).Where("id = ?", ref.ID).Where("status = ?", actions.ArtifactConfirmed).
		Where("sha256 = ?", ref.SHA256).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// pagesByID calls fn with the rows of a table read n at a time in id
// order, each page a query of its own (the rows after the last id of the
// previous one), so that no read stays open while fn works.
func pagesByID[T any](ctx context.Context, n int, page func(ctx context.Context, after int64, n int) ([]T, error),
	id func(T) int64, fn func(rows []T) error) error {
	n = max(n, 1)
	var after int64
	for {
		rows, err := page(ctx, after, n)
		if err != nil {
			return err
		}
		if len(rows) > 0 {
			if err := fn(rows); err != nil {
				return err
			}
			after = id(rows[len(rows)-1])
		}
		if len(rows) < n {
			return nil
		}
	}
}
