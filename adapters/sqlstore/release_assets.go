package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/ports"
)

var releaseAssetMapping = mapping{op: "release asset", notFound: "attachment does not exist",
	conflict: "attachment already exists", missingRef: "release does not exist"}

var _ ports.ReleaseAssetStore = (*ReleaseAssetStore)(nil)

// ReleaseAssetStore is the SQL implementation of ports.ReleaseAssetStore.
type ReleaseAssetStore struct{ c conn }

// Create inserts a and sets a.ID.
func (s *ReleaseAssetStore) Create(ctx context.Context, a *release.Asset) error {
	row := toReleaseAssetRow(a)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return releaseAssetMapping.mapErr(err)
	}
	a.ID = row.ID
	return nil
}

// Get finds one of the release's assets.
func (s *ReleaseAssetStore) Get(ctx context.Context, releaseID, id int64) (*release.Asset, error) {
	return s.one(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("ra.release_id = ?", releaseID).Where("ra.id = ?", id)
	})
}

// GetByUUID finds an asset by its UUID.
func (s *ReleaseAssetStore) GetByUUID(ctx context.Context, uuid string) (*release.Asset, error) {
	return s.one(ctx, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("ra.uuid = ?", uuid) })
}

// GetByName finds the release's first asset of that name.
func (s *ReleaseAssetStore) GetByName(ctx context.Context, releaseID int64, name string) (*release.Asset, error) {
	return s.one(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("ra.release_id = ?", releaseID).Where("ra.name = ?", name).OrderExpr("ra.id ASC").Limit(1)
	})
}

func (s *ReleaseAssetStore) one(ctx context.Context, where func(*bun.SelectQuery) *bun.SelectQuery) (*release.Asset, error) {
	row := new(releaseAssetRow)
	if err := where(s.c.r(ctx).NewSelect().Model(row)).Scan(ctx); err != nil {
		return nil, releaseAssetMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns the release's assets, oldest first.
func (s *ReleaseAssetStore) List(ctx context.Context, releaseID int64) ([]*release.Asset, error) {
	var rows []releaseAssetRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("ra.release_id = ?", releaseID).
		OrderExpr("ra.id ASC").Scan(ctx); err != nil {
		return nil, releaseAssetMapping.mapErr(err)
	}
	return domainAll(rows, (*releaseAssetRow).toDomain), nil
}

// OfReleases returns the assets of these releases in one query: on SQLite
// a prepared statement read without bun's reflection, the larger part of a
// release page's cost otherwise (BenchmarkListReleases).
func (s *ReleaseAssetStore) OfReleases(ctx context.Context, releaseIDs []int64) (map[int64][]*release.Asset, error) {
	out := map[int64][]*release.Asset{}
	if len(releaseIDs) == 0 {
		return out, nil
	}
	var rows []releaseAssetRow
	if ps := s.c.sqliteReadStmt(ctx, releaseAssetsOfReleasesText); ps != nil {
		var err error
		if rows, err = queryRows(ctx, ps, scanReleaseAssetRows, idsJSON(releaseIDs)); err != nil {
			return nil, releaseAssetMapping.mapErr(err)
		}
	} else if err := s.c.r(ctx).NewSelect().Model(&rows).Where("ra.release_id IN (?)", bun.In(releaseIDs)).
		OrderExpr("ra.id ASC").Scan(ctx); err != nil {
		return nil, releaseAssetMapping.mapErr(err)
	}
	for i := range rows {
		a := rows[i].toDomain()
		out[a.ReleaseID] = append(out[a.ReleaseID], a)
	}
	return out, nil
}

// Edit writes a's name and external URL.
func (s *ReleaseAssetStore) Edit(ctx context.Context, a *release.Asset) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*releaseAssetRow)(nil)).Set("name = ?", a.Name).
		Set("external_url = ?", a.ExternalURL).Where("release_id = ?", a.ReleaseID).Where("id = ?", a.ID).Exec(ctx)
	return releaseAssetMapping.affected(res, err)
}

// Delete removes one of the release's assets (the bytes are the caller's to remove).
func (s *ReleaseAssetStore) Delete(ctx context.Context, releaseID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*releaseAssetRow)(nil)).Where("release_id = ?", releaseID).
		Where("id = ?", id).Exec(ctx)
	return releaseAssetMapping.affected(res, err)
}

// CountDownload adds one to the asset's download count.
func (s *ReleaseAssetStore) CountDownload(ctx context.Context, id int64) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*releaseAssetRow)(nil)).Set("download_count = download_count + 1").
		Where("id = ?", id).Exec(ctx)
	return releaseAssetMapping.affected(res, err)
}

type releaseAssetRow struct {
	bun.BaseModel `bun:"table:release_assets,alias:ra"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UUID          string    `bun:"uuid"`
	RepoID        int64     `bun:"repo_id"`
	ReleaseID     int64     `bun:"release_id"`
	UploaderID    int64     `bun:"uploader_id"`
	Name          string    `bun:"name"`
	Size          int64     `bun:"size"`
	SHA256        string    `bun:"sha256"`
	DownloadCount int64     `bun:"download_count"`
	Created       time.Time `bun:"created"`
	ExternalURL   string    `bun:"external_url"`
}

func toReleaseAssetRow(a *release.Asset) *releaseAssetRow {
	return &releaseAssetRow{ID: a.ID, UUID: a.UUID, RepoID: a.RepoID, ReleaseID: a.ReleaseID, UploaderID: a.UploaderID,
		Name: a.Name, Size: a.Size, SHA256: a.SHA256, DownloadCount: a.DownloadCount, Created: dbTime(a.Created), ExternalURL: a.ExternalURL}
}

func (r *releaseAssetRow) toDomain() *release.Asset {
	return &release.Asset{ID: r.ID, UUID: r.UUID, RepoID: r.RepoID, ReleaseID: r.ReleaseID, UploaderID: r.UploaderID,
		Name: r.Name, Size: r.Size, SHA256: r.SHA256, DownloadCount: r.DownloadCount, Created: domainTime(r.Created), ExternalURL: r.ExternalURL}
}

// releaseAssetColumns are the columns of releaseAssetsOfReleasesText, in
// the order scanReleaseAssetRows reads them; the time is read as text, as
// the issue list's (issue_rows_scan.go).
var releaseAssetColumns = []string{"ra.id", "ra.uuid", "ra.repo_id", "ra.release_id", "ra.uploader_id", "ra.name",
	"ra.size", "ra.sha256", "ra.download_count", "CAST(ra.created AS TEXT)", "ra.external_url"}

// releaseAssetsOfReleasesText is OfReleases on SQLite, the release ids
// given as one JSON array.
var releaseAssetsOfReleasesText = "SELECT " + strings.Join(releaseAssetColumns, ", ") +
	" FROM release_assets AS ra WHERE ra.release_id IN (SELECT value FROM json_each(?)) ORDER BY ra.id ASC"

// scanReleaseAssetRows reads the rows of releaseAssetsOfReleasesText and
// closes them.
func scanReleaseAssetRows(rows *sql.Rows) (_ []releaseAssetRow, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	out := make([]releaseAssetRow, 0, 16)
	var created sql.RawBytes
	for rows.Next() {
		out = append(out, releaseAssetRow{})
		r := &out[len(out)-1]
		if err := rows.Scan(&r.ID, &r.UUID, &r.RepoID, &r.ReleaseID, &r.UploaderID, &r.Name, &r.Size, &r.SHA256,
			&r.DownloadCount, &created, &r.ExternalURL); err != nil {
			return nil, err
		}
		if r.Created, err = parseDBTime(created); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}
