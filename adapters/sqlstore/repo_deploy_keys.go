package sqlstore

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var deployKeyMapping = mapping{
	op: "deploy key", notFound: "deploy key does not exist", conflict: "deploy key already exists",
	missingRef: "repository does not exist",
}

var _ ports.DeployKeyStore = (*DeployKeyStore)(nil)

// DeployKeyStore is the SQL implementation of ports.DeployKeyStore.
type DeployKeyStore struct{ c conn }

// Create inserts k and sets k.ID. A title or fingerprint already used on the
// repository is a conflict, told apart by the constraint that refused it.
func (s *DeployKeyStore) Create(ctx context.Context, k *repository.DeployKey) error {
	row := toDeployKeyRow(k)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		if violationOf(err) == uniqueViolation && uniqueOn(err, "deploy_keys_repo_title", "deploy_keys.title") {
			return errs.Conflict("a deploy key with this title already exists")
		}
		return deployKeyMapping.mapErr(err)
	}
	k.ID = row.ID
	return nil
}

// Get returns one of the repository's keys; another repository's is not found.
func (s *DeployKeyStore) Get(ctx context.Context, repoID, id int64) (*repository.DeployKey, error) {
	row := new(deployKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("dk.repo_id = ?", repoID).Where("dk.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, deployKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the repository's keys ordered by id, and the
// total; a non-empty fingerprint keeps only that key.
func (s *DeployKeyStore) List(ctx context.Context, repoID int64, fingerprint string, opts ports.ListOptions) ([]*repository.DeployKey, int64, error) {
	var rows []deployKeyRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("dk.repo_id = ?", repoID)
	if fingerprint != "" {
		sel = sel.Where("dk.fingerprint = ?", fingerprint)
	}
	total, err := page(sel.OrderExpr("dk.id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, deployKeyMapping.mapErr(err)
	}
	out := domainAll(rows, (*deployKeyRow).toDomain)
	return out, total, nil
}

// GetByFingerprint finds the repository's key with this fingerprint through
// the (repo_id, fingerprint) unique index.
func (s *DeployKeyStore) GetByFingerprint(ctx context.Context, repoID int64, fingerprint string) (*repository.DeployKey, error) {
	row := new(deployKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("dk.repo_id = ?", repoID).Where("dk.fingerprint = ?", fingerprint).Scan(ctx)
	if err != nil {
		return nil, deployKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// FingerprintInUse reports whether any repository has a deploy key with
// this fingerprint.
func (s *DeployKeyStore) FingerprintInUse(ctx context.Context, fingerprint string) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*deployKeyRow)(nil)).Where("dk.fingerprint = ?", fingerprint).Exists(ctx)
	if err != nil {
		return false, deployKeyMapping.mapErr(err)
	}
	return ok, nil
}

// Delete removes one of the repository's keys.
func (s *DeployKeyStore) Delete(ctx context.Context, repoID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*deployKeyRow)(nil)).Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
	return deployKeyMapping.affected(res, err)
}

type deployKeyRow struct {
	bun.BaseModel `bun:"table:deploy_keys,alias:dk"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id"`
	Title       string    `bun:"title"`
	Content     string    `bun:"content"`
	Fingerprint string    `bun:"fingerprint"`
	ReadOnly    bool      `bun:"read_only"`
	Created     time.Time `bun:"created,nullzero"`
}

func toDeployKeyRow(k *repository.DeployKey) *deployKeyRow {
	return &deployKeyRow{
		ID: k.ID, RepoID: k.RepoID, Title: k.Title, Content: k.Content, Fingerprint: k.Fingerprint,
		ReadOnly: k.ReadOnly, Created: dbTime(k.Created),
	}
}

func (r *deployKeyRow) toDomain() *repository.DeployKey {
	return &repository.DeployKey{
		ID: r.ID, RepoID: r.RepoID, Title: r.Title, Content: r.Content, Fingerprint: r.Fingerprint,
		ReadOnly: r.ReadOnly, Created: domainTime(r.Created),
	}
}
