package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/ports"
)

var _ ports.PackageStore = (*PackageStore)(nil)

var (
	packageMapping = mapping{op: "package", notFound: "package does not exist", missingRef: "owner does not exist"}
	versionMapping = mapping{op: "package version", notFound: "package does not exist",
		conflict: "package version already exists", missingRef: "package does not exist"}
	fileMapping = mapping{op: "package file", notFound: "package file does not exist",
		conflict: "package file already exists", missingRef: "package version does not exist"}
)

type packageRow struct {
	bun.BaseModel `bun:"table:packages,alias:p"`

	ID        int64  `bun:"id,pk,autoincrement"`
	OwnerID   int64  `bun:"owner_id"`
	Type      string `bun:"type"`
	Name      string `bun:"name"`
	LowerName string `bun:"lower_name"`
	RepoID    int64  `bun:"repo_id"`
}

func (r *packageRow) toDomain() packages.Package {
	return packages.Package{ID: r.ID, OwnerID: r.OwnerID, Type: packages.Type(r.Type), Name: r.Name,
		LowerName: r.LowerName, RepoID: r.RepoID}
}

type versionRow struct {
	bun.BaseModel `bun:"table:package_versions,alias:v"`

	ID           int64     `bun:"id,pk,autoincrement"`
	PackageID    int64     `bun:"package_id"`
	Version      string    `bun:"version"`
	LowerVersion string    `bun:"lower_version"`
	CreatorID    int64     `bun:"creator_id"`
	Metadata     string    `bun:"metadata"`
	Created      time.Time `bun:"created"`
}

func (r *versionRow) toDomain() *packages.Version {
	return &packages.Version{ID: r.ID, PackageID: r.PackageID, Version: r.Version, LowerVersion: r.LowerVersion,
		CreatorID: r.CreatorID, Metadata: r.Metadata, CreatedAt: domainTime(r.Created)}
}

type blobRow struct {
	bun.BaseModel `bun:"table:package_blobs,alias:b"`

	ID      int64     `bun:"id,pk,autoincrement"`
	SHA256  string    `bun:"sha256"`
	Size    int64     `bun:"size"`
	MD5     string    `bun:"md5"`
	SHA1    string    `bun:"sha1"`
	SHA512  string    `bun:"sha512"`
	Created time.Time `bun:"created"`
}

type fileRow struct {
	bun.BaseModel `bun:"table:package_files,alias:f"`

	ID        int64     `bun:"id,pk,autoincrement"`
	VersionID int64     `bun:"version_id"`
	BlobID    int64     `bun:"blob_id"`
	Name      string    `bun:"name"`
	LowerName string    `bun:"lower_name"`
	Created   time.Time `bun:"created"`
}

// fileBlobRow is a file with its blob's columns.
type fileBlobRow struct {
	fileRow `bun:",extend"`

	Size   int64  `bun:"size,scanonly"`
	MD5    string `bun:"md5,scanonly"`
	SHA1   string `bun:"sha1,scanonly"`
	SHA256 string `bun:"sha256,scanonly"`
	SHA512 string `bun:"sha512,scanonly"`
}

func (r *fileBlobRow) toDomain() *packages.File {
	return &packages.File{ID: r.ID, VersionID: r.VersionID, Name: r.Name, LowerName: r.LowerName,
		CreatedAt: domainTime(r.Created),
		Blob:      packages.Blob{ID: r.BlobID, Size: r.Size, MD5: r.MD5, SHA1: r.SHA1, SHA256: r.SHA256, SHA512: r.SHA512}}
}

// entryRow is a version with its package's columns.
type entryRow struct {
	versionRow `bun:",extend"`

	OwnerID   int64  `bun:"owner_id,scanonly"`
	Type      string `bun:"type,scanonly"`
	Name      string `bun:"name,scanonly"`
	LowerName string `bun:"lower_name,scanonly"`
	RepoID    int64  `bun:"repo_id,scanonly"`
}

// PackageStore is the SQL implementation of ports.PackageStore over the
// packages, package_versions, package_files and package_blobs tables
// (migration 000038).
type PackageStore struct{ c conn }

// Ensure finds or creates the package; a concurrent creation of the same
// one is absorbed by the unique index.
func (s *PackageStore) Ensure(ctx context.Context, p *packages.Package) error {
	row := &packageRow{OwnerID: p.OwnerID, Type: string(p.Type), Name: p.Name, LowerName: strings.ToLower(p.Name)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").
		On("CONFLICT (owner_id, type, lower_name) DO NOTHING").Exec(ctx); err != nil {
		return packageMapping.mapErr(err)
	}
	got := new(packageRow)
	if err := s.c.w(ctx).NewSelect().Model(got).
		Where("owner_id = ? AND type = ? AND lower_name = ?", row.OwnerID, row.Type, row.LowerName).Scan(ctx); err != nil {
		return packageMapping.mapErr(err)
	}
	*p = got.toDomain()
	return nil
}

// Get finds a package by owner, type and name.
func (s *PackageStore) Get(ctx context.Context, ownerID int64, typ packages.Type, name string) (*packages.Package, error) {
	row := new(packageRow)
	if err := s.c.r(ctx).NewSelect().Model(row).
		Where("owner_id = ? AND type = ? AND lower_name = ?", ownerID, string(typ), strings.ToLower(name)).
		Scan(ctx); err != nil {
		return nil, packageMapping.mapErr(err)
	}
	p := row.toDomain()
	return &p, nil
}

// likeEscape escapes LIKE's wildcards in s (the escape character is '\').
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// List pages the filter's versions, newest first.
func (s *PackageStore) List(ctx context.Context, f ports.PackageFilter, opts ports.ListOptions) ([]packages.Entry, int64, error) {
	var rows []entryRow
	q := s.c.r(ctx).NewSelect().Model(&rows).ColumnExpr("v.*").
		ColumnExpr("p.owner_id, p.type, p.name, p.lower_name, p.repo_id").
		Join("JOIN packages AS p ON p.id = v.package_id").Where("p.owner_id = ?", f.OwnerID)
	if f.Type != "" {
		q = q.Where("p.type = ?", string(f.Type))
	}
	if f.Query != "" {
		q = q.Where(`p.lower_name LIKE ? ESCAPE '\'`, "%"+likeEscape(strings.ToLower(f.Query))+"%")
	}
	q = q.OrderExpr("v.id DESC")
	if opts.Limit > 0 {
		q = q.Limit(int64(opts.Clamped().Limit)).Offset(int64(opts.Offset()))
	}
	n, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, packageMapping.mapErr(err)
	}
	out := make([]packages.Entry, 0, len(rows))
	for i := range rows {
		r := &rows[i]
		out = append(out, packages.Entry{
			Package: packages.Package{ID: r.PackageID, OwnerID: r.OwnerID, Type: packages.Type(r.Type), Name: r.Name,
				LowerName: r.LowerName, RepoID: r.RepoID},
			Version: *r.versionRow.toDomain(),
		})
	}
	return out, int64(n), nil
}

// Versions pages a package's versions, newest first.
func (s *PackageStore) Versions(ctx context.Context, packageID int64, opts ports.ListOptions) ([]*packages.Version, int64, error) {
	var rows []versionRow
	q := s.c.r(ctx).NewSelect().Model(&rows).Where("package_id = ?", packageID).OrderExpr("id DESC")
	if opts.Limit > 0 {
		q = q.Limit(int64(opts.Clamped().Limit)).Offset(int64(opts.Offset()))
	}
	n, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, versionMapping.mapErr(err)
	}
	return versionsToDomain(rows), int64(n), nil
}

func versionsToDomain(rows []versionRow) []*packages.Version {
	out := make([]*packages.Version, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out
}

// OfType returns at most n of the owner's packages of one type above
// afterID, by ID.
func (s *PackageStore) OfType(ctx context.Context, ownerID int64, typ packages.Type, afterID int64, n int) ([]packages.Package, error) {
	var rows []packageRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("owner_id = ? AND type = ? AND id > ?", ownerID, string(typ), afterID).
		OrderExpr("id ASC").Limit(int64(n)).Scan(ctx); err != nil {
		return nil, packageMapping.mapErr(err)
	}
	out := make([]packages.Package, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out, nil
}

// AllVersions returns a package's versions, oldest first.
func (s *PackageStore) AllVersions(ctx context.Context, packageID int64) ([]*packages.Version, error) {
	var rows []versionRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("package_id = ?", packageID).OrderExpr("id ASC").
		Scan(ctx); err != nil {
		return nil, versionMapping.mapErr(err)
	}
	return versionsToDomain(rows), nil
}

// GetVersion finds a version by its name, any case.
func (s *PackageStore) GetVersion(ctx context.Context, packageID int64, version string) (*packages.Version, error) {
	row := new(versionRow)
	if err := s.c.r(ctx).NewSelect().Model(row).
		Where("package_id = ? AND lower_version = ?", packageID, strings.ToLower(version)).Scan(ctx); err != nil {
		return nil, versionMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Latest is the most recently created version.
func (s *PackageStore) Latest(ctx context.Context, packageID int64) (*packages.Version, error) {
	row := new(versionRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("package_id = ?", packageID).
		OrderExpr("id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, versionMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// CreateVersion inserts v.
func (s *PackageStore) CreateVersion(ctx context.Context, v *packages.Version) error {
	row := &versionRow{PackageID: v.PackageID, Version: v.Version, LowerVersion: strings.ToLower(v.Version),
		CreatorID: v.CreatorID, Metadata: v.Metadata, Created: dbTime(v.CreatedAt)}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return versionMapping.mapErr(err)
	}
	v.ID, v.LowerVersion = row.ID, row.LowerVersion
	return nil
}

// SetMetadata replaces a version's metadata.
func (s *PackageStore) SetMetadata(ctx context.Context, versionID int64, metadata string) error {
	_, err := s.c.w(ctx).NewUpdate().Model((*versionRow)(nil)).Set("metadata = ?", metadata).
		Where("id = ?", versionID).Exec(ctx)
	return versionMapping.mapErr(err)
}

// DeleteVersion removes the version, its files, the package when empty,
// and the blob rows no file names any more.
func (s *PackageStore) DeleteVersion(ctx context.Context, versionID int64) ([]string, error) {
	var gone []string
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		v := new(versionRow)
		if err := tx.NewSelect().Model(v).Where("id = ?", versionID).Scan(ctx); err != nil {
			return versionMapping.mapErr(err)
		}
		var blobIDs []int64
		if err := tx.NewSelect().Model((*fileRow)(nil)).Column("blob_id").Where("version_id = ?", versionID).
			Scan(ctx, &blobIDs); err != nil {
			return fileMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*fileRow)(nil)).Where("version_id = ?", versionID).Exec(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*versionRow)(nil)).Where("id = ?", versionID).Exec(ctx); err != nil {
			return versionMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*tagRow)(nil)).Where("package_id = ? AND version = ?", v.PackageID, v.Version).
			Exec(ctx); err != nil {
			return packageMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*packageRow)(nil)).Where("id = ?", v.PackageID).
			Where("NOT EXISTS (SELECT 1 FROM package_versions AS pv WHERE pv.package_id = ?)", v.PackageID).
			Exec(ctx); err != nil {
			return packageMapping.mapErr(err)
		}
		var err error
		gone, err = dropUnusedBlobs(ctx, tx, blobIDs)
		return err
	})
	return gone, err
}

// dropUnusedBlobs removes those of the blob rows ids that no file names
// and returns their sums.
func dropUnusedBlobs(ctx context.Context, tx bun.IDB, ids []int64) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []blobRow
	if err := tx.NewSelect().Model(&rows).Where("b.id IN (?)", bun.In(ids)).
		Where("NOT EXISTS (SELECT 1 FROM package_files AS pf WHERE pf.blob_id = b.id)").
		// The container registry's images hold blobs without files (migration 000048).
		Where("NOT EXISTS (SELECT 1 FROM container_blobs AS cb WHERE cb.blob_id = b.id)").
		Where("NOT EXISTS (SELECT 1 FROM container_manifests AS cm WHERE cm.blob_id = b.id)").Scan(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	unused := make([]int64, 0, len(rows))
	sums := make([]string, 0, len(rows))
	for _, r := range rows {
		unused = append(unused, r.ID)
		sums = append(sums, r.SHA256)
	}
	if _, err := tx.NewDelete().Model((*blobRow)(nil)).Where("id IN (?)", bun.In(unused)).Exec(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	return sums, nil
}

func selectFiles(db bun.IDB, rows *[]fileBlobRow) *bun.SelectQuery {
	return db.NewSelect().Model(rows).ColumnExpr("f.*").
		ColumnExpr("b.size, b.md5, b.sha1, b.sha256, b.sha512").
		Join("JOIN package_blobs AS b ON b.id = f.blob_id")
}

// Files returns a version's files by name.
func (s *PackageStore) Files(ctx context.Context, versionID int64) ([]*packages.File, error) {
	var rows []fileBlobRow
	if err := selectFiles(s.c.r(ctx), &rows).Where("f.version_id = ?", versionID).OrderExpr("f.lower_name ASC").
		Scan(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	out := make([]*packages.File, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toDomain())
	}
	return out, nil
}

// FilesOf returns the files of these versions in one query.
func (s *PackageStore) FilesOf(ctx context.Context, versionIDs []int64) (map[int64][]*packages.File, error) {
	out := make(map[int64][]*packages.File, len(versionIDs))
	if len(versionIDs) == 0 {
		return out, nil
	}
	var rows []fileBlobRow
	if err := selectFiles(s.c.r(ctx), &rows).Where("f.version_id IN (?)", bun.In(versionIDs)).
		OrderExpr("f.lower_name ASC").Scan(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	for i := range rows {
		f := rows[i].toDomain()
		out[f.VersionID] = append(out[f.VersionID], f)
	}
	return out, nil
}

// PackageFiles returns the files of every version of the package in one
// query, its versions selected in it (no list of ids to send and parse).
func (s *PackageStore) PackageFiles(ctx context.Context, packageID int64) (map[int64][]*packages.File, error) {
	var rows []fileBlobRow
	if err := selectFiles(s.c.r(ctx), &rows).
		Where("f.version_id IN (SELECT v.id FROM package_versions AS v WHERE v.package_id = ?)", packageID).
		OrderExpr("f.version_id ASC, f.lower_name ASC").Scan(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	out := map[int64][]*packages.File{}
	for i := range rows {
		f := rows[i].toDomain()
		out[f.VersionID] = append(out[f.VersionID], f)
	}
	return out, nil
}

// GetFile finds a version's file by name.
func (s *PackageStore) GetFile(ctx context.Context, versionID int64, name string) (*packages.File, error) {
	var rows []fileBlobRow
	if err := selectFiles(s.c.r(ctx), &rows).Where("f.version_id = ? AND f.lower_name = ?", versionID,
		strings.ToLower(name)).Limit(1).Scan(ctx); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	if len(rows) == 0 {
		return nil, fileMapping.mapErr(sql.ErrNoRows)
	}
	return rows[0].toDomain(), nil
}

// AddFile records f's blob (once per SHA-256) and the file.
func (s *PackageStore) AddFile(ctx context.Context, f *packages.File) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		b := &blobRow{SHA256: f.Blob.SHA256, Size: f.Blob.Size, MD5: f.Blob.MD5, SHA1: f.Blob.SHA1,
			SHA512: f.Blob.SHA512, Created: dbTime(f.CreatedAt)}
		if _, err := tx.NewInsert().Model(b).ExcludeColumn("id").On("CONFLICT (sha256) DO NOTHING").
			Exec(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		got := new(blobRow)
		if err := tx.NewSelect().Model(got).Where("sha256 = ?", b.SHA256).Scan(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		row := &fileRow{VersionID: f.VersionID, BlobID: got.ID, Name: f.Name, LowerName: strings.ToLower(f.Name),
			Created: dbTime(f.CreatedAt)}
		if _, err := tx.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		f.ID, f.LowerName, f.Blob.ID = row.ID, row.LowerName, got.ID
		return nil
	})
}

// DeleteFile removes a file, and its blob row when unused.
func (s *PackageStore) DeleteFile(ctx context.Context, fileID int64) (string, error) {
	var sum string
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := new(fileRow)
		if err := tx.NewSelect().Model(row).Where("id = ?", fileID).Scan(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*fileRow)(nil)).Where("id = ?", fileID).Exec(ctx); err != nil {
			return fileMapping.mapErr(err)
		}
		gone, err := dropUnusedBlobs(ctx, tx, []int64{row.BlobID})
		if len(gone) == 1 {
			sum = gone[0]
		}
		return err
	})
	return sum, err
}

// SetRepo links the package to a repository, or unlinks it with 0.
func (s *PackageStore) SetRepo(ctx context.Context, packageID, repoID int64) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*packageRow)(nil)).Set("repo_id = ?", repoID).
		Where("id = ?", packageID).Exec(ctx)
	if err != nil {
		return packageMapping.mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return packageMapping.mapErr(sql.ErrNoRows)
	}
	return nil
}

// BlobsReferenced returns those of sums a blob row names.
func (s *PackageStore) BlobsReferenced(ctx context.Context, sums []string) (map[string]bool, error) {
	out := make(map[string]bool, len(sums))
	if len(sums) == 0 {
		return out, nil
	}
	var found []string
	if err := s.c.r(ctx).NewSelect().Model((*blobRow)(nil)).Column("sha256").Where("sha256 IN (?)", bun.In(sums)).
		Scan(ctx, &found); err != nil {
		return nil, fileMapping.mapErr(err)
	}
	for _, sum := range found {
		out[sum] = true
	}
	return out, nil
}

// TeamMode is the highest packages mode of the user's teams in the
// organisation: a team's packages unit, or the team's whole mode when it
// is an admin or owners' team.
func (s *PackageStore) TeamMode(ctx context.Context, orgID, userID int64) (permission.AccessMode, error) {
	var modes []int
	if err := s.c.r(ctx).NewRaw(`SELECT CASE WHEN t.mode >= ? THEN t.mode ELSE COALESCE(tun.mode, 0) END
		FROM team_users AS tu JOIN teams AS t ON t.id = tu.team_id
		LEFT JOIN team_units AS tun ON tun.team_id = t.id AND tun.unit = ?
		WHERE tu.org_id = ? AND tu.user_id = ?`, int(permission.ModeAdmin), string(permission.UnitPackages),
		orgID, userID).Scan(ctx, &modes); err != nil {
		return 0, packageMapping.mapErr(err)
	}
	best := permission.ModeNone
	for _, m := range modes {
		best = max(best, permission.AccessMode(m))
	}
	return best, nil
}

type tagRow struct {
	bun.BaseModel `bun:"table:package_tags,alias:pt"`

	PackageID int64  `bun:"package_id,pk"`
	Tag       string `bun:"tag,pk"`
	Version   string `bun:"version"`
}

// Tags returns the package's tags.
func (s *PackageStore) Tags(ctx context.Context, packageID int64) (map[string]string, error) {
	var rows []tagRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("package_id = ?", packageID).Scan(ctx); err != nil {
		return nil, packageMapping.mapErr(err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Tag] = r.Version
	}
	return out, nil
}

// SetTag points tag at version.
func (s *PackageStore) SetTag(ctx context.Context, packageID int64, tag, version string) error {
	_, err := s.c.w(ctx).NewInsert().Model(&tagRow{PackageID: packageID, Tag: tag, Version: version}).
		On("CONFLICT (package_id, tag) DO UPDATE").Set("version = EXCLUDED.version").Exec(ctx)
	return packageMapping.mapErr(err)
}

// DeleteTag removes a tag.
func (s *PackageStore) DeleteTag(ctx context.Context, packageID int64, tag string) error {
	_, err := s.c.w(ctx).NewDelete().Model((*tagRow)(nil)).Where("package_id = ? AND tag = ?", packageID, tag).Exec(ctx)
	return packageMapping.mapErr(err)
}
