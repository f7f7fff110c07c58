package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.PublicKeyStore = (*PublicKeyStore)(nil)

// publicKeyRow is the query model of public_keys.
type publicKeyRow struct {
	bun.BaseModel `bun:"table:public_keys,alias:pk"`

	ID          int64     `bun:"id,pk,autoincrement"`
	UserID      int64     `bun:"user_id"`
	Title       string    `bun:"title"`
	Content     string    `bun:"content"`
	Fingerprint string    `bun:"fingerprint"`
	Created     time.Time `bun:"created,nullzero"`
	LastUsed    time.Time `bun:"last_used,nullzero"`
}

func toPublicKeyRow(k *user.PublicKey) *publicKeyRow {
	return &publicKeyRow{
		ID: k.ID, UserID: k.OwnerID, Title: k.Title, Content: k.Content, Fingerprint: k.Fingerprint,
		Created: dbTime(k.Created), LastUsed: dbTime(k.LastUsed),
	}
}

func (r *publicKeyRow) toDomain() *user.PublicKey {
	return &user.PublicKey{
		ID: r.ID, OwnerID: r.UserID, Title: r.Title, Content: r.Content, Fingerprint: r.Fingerprint,
		Created: domainTime(r.Created), LastUsed: domainTime(r.LastUsed),
	}
}

var publicKeyMapping = mapping{
	op:         "public keys",
	notFound:   "public key does not exist",
	missingRef: "user does not exist",
}

// PublicKeyStore is the SQL implementation of ports.PublicKeyStore.
type PublicKeyStore struct{ c conn }

// Create inserts k and sets k.ID. The checks run before the insert, in one
// transaction, so the caller learns which rule a key broke in the order
// Gitea checks them (fingerprint, then title); the unique constraints still
// decide when two inserts race. A deploy key has no constraint shared with
// this table, so a deploy key added at the same instant can slip past the
// check; the deploy key side is expected to check this table likewise.
func (s *PublicKeyStore) Create(ctx context.Context, k *user.PublicKey) error {
	row := toPublicKeyRow(k)
	row.ID = 0
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := s.checkFree(ctx, tx, row); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return mapPublicKeyInsert(err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	k.ID = row.ID
	return nil
}

// checkFree answers which uniqueness rule row would break, if any.
func (s *PublicKeyStore) checkFree(ctx context.Context, tx bun.IDB, row *publicKeyRow) error {
	taken, err := tx.NewSelect().Model((*publicKeyRow)(nil)).Where("pk.fingerprint = ?", row.Fingerprint).Exists(ctx)
	if err != nil {
		return publicKeyMapping.mapErr(err)
	}
	if taken {
		return user.ErrKeyInUse
	}
	taken, err = tx.NewSelect().Model((*deployKeyRow)(nil)).Where("dk.fingerprint = ?", row.Fingerprint).Exists(ctx)
	if err != nil {
		return publicKeyMapping.mapErr(err)
	}
	if taken {
		return user.ErrKeyIsDeployKey
	}
	taken, err = tx.NewSelect().Model((*publicKeyRow)(nil)).
		Where("pk.user_id = ?", row.UserID).Where("pk.title = ?", row.Title).Exists(ctx)
	if err != nil {
		return publicKeyMapping.mapErr(err)
	}
	if taken {
		return user.ErrKeyTitleInUse
	}
	return nil
}

// mapPublicKeyInsert tells the two unique constraints apart, for an insert
// that lost a race with another one.
func mapPublicKeyInsert(err error) error {
	if violationOf(err) == uniqueViolation {
		if uniqueOn(err, "public_keys_user_title", "public_keys.title") {
			return user.ErrKeyTitleInUse
		}
		return user.ErrKeyInUse
	}
	return publicKeyMapping.mapErr(err)
}

// Get returns one of the owner's keys; another account's is not found.
func (s *PublicKeyStore) Get(ctx context.Context, ownerID, id int64) (*user.PublicKey, error) {
	row := new(publicKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("pk.user_id = ?", ownerID).Where("pk.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, publicKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByFingerprint finds the key with this fingerprint through its unique index.
func (s *PublicKeyStore) GetByFingerprint(ctx context.Context, fingerprint string) (*user.PublicKey, error) {
	row := new(publicKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("pk.fingerprint = ?", fingerprint).Scan(ctx)
	if err != nil {
		return nil, publicKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the owner's keys ordered by id, and the total; a
// non-empty fingerprint keeps only that key.
func (s *PublicKeyStore) List(ctx context.Context, ownerID int64, fingerprint string, opts ports.ListOptions) ([]*user.PublicKey, int64, error) {
	var rows []publicKeyRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("pk.user_id = ?", ownerID)
	if fingerprint != "" {
		sel = sel.Where("pk.fingerprint = ?", fingerprint)
	}
	total, err := page(sel.OrderExpr("pk.id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, publicKeyMapping.mapErr(err)
	}
	out := domainAll(rows, (*publicKeyRow).toDomain)
	return out, total, nil
}

// Delete removes one of the owner's keys.
func (s *PublicKeyStore) Delete(ctx context.Context, ownerID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*publicKeyRow)(nil)).Where("user_id = ?", ownerID).Where("id = ?", id).Exec(ctx)
	return publicKeyMapping.affected(res, err)
}

// TouchLastUsed records that the key signed in at t.
func (s *PublicKeyStore) TouchLastUsed(ctx context.Context, id int64, t time.Time) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*publicKeyRow)(nil)).Set("last_used = ?", dbTime(t)).Where("id = ?", id).Exec(ctx)
	return publicKeyMapping.affected(res, err)
}
