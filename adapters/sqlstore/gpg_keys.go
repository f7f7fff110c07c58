package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.GPGKeyStore = (*GPGKeyStore)(nil)

// gpgKeyRow is the query model of gpg_keys.
type gpgKeyRow struct {
	bun.BaseModel `bun:"table:gpg_keys,alias:gk"`

	ID                int64     `bun:"id,pk,autoincrement"`
	OwnerID           int64     `bun:"owner_id"`
	KeyID             string    `bun:"key_id"`
	PrimaryKeyID      string    `bun:"primary_key_id"`
	Content           string    `bun:"content"`
	Armored           string    `bun:"armored"`
	Emails            string    `bun:"emails"`
	Verified          bool      `bun:"verified"`
	CanSign           bool      `bun:"can_sign"`
	CanEncryptComms   bool      `bun:"can_encrypt_comms"`
	CanEncryptStorage bool      `bun:"can_encrypt_storage"`
	CanCertify        bool      `bun:"can_certify"`
	Created           time.Time `bun:"created"`
	Expires           time.Time `bun:"expires,nullzero"`
}

func toGPGKeyRow(ownerID int64, primaryID string, k *user.GPGKey) *gpgKeyRow {
	return &gpgKeyRow{
		OwnerID: ownerID, KeyID: k.KeyID, PrimaryKeyID: primaryID, Content: k.Content, Armored: k.Armored,
		Emails: strings.Join(k.Emails, "\n"), Verified: k.Verified, CanSign: k.CanSign,
		CanEncryptComms: k.CanEncryptComms, CanEncryptStorage: k.CanEncryptStorage, CanCertify: k.CanCertify,
		Created: dbTime(k.Created), Expires: dbTime(k.Expires),
	}
}

func (r *gpgKeyRow) toDomain() *user.GPGKey {
	k := &user.GPGKey{
		ID: r.ID, OwnerID: r.OwnerID, KeyID: r.KeyID, PrimaryKeyID: r.PrimaryKeyID, Content: r.Content,
		Armored: r.Armored, Verified: r.Verified, CanSign: r.CanSign, CanEncryptComms: r.CanEncryptComms,
		CanEncryptStorage: r.CanEncryptStorage, CanCertify: r.CanCertify,
		Created: domainTime(r.Created), Expires: domainTime(r.Expires),
	}
	if r.Emails != "" {
		k.Emails = strings.Split(r.Emails, "\n")
	}
	return k
}

var gpgKeyMapping = mapping{
	op:         "gpg keys",
	notFound:   "GPG key does not exist",
	missingRef: "user does not exist",
}

// GPGKeyStore is the SQL implementation of ports.GPGKeyStore.
type GPGKeyStore struct{ c conn }

// Create inserts k and its subkeys in one transaction. The key ids are
// looked up first, so a repeated key answers with its rule; the unique index
// still decides when two inserts race.
func (s *GPGKeyStore) Create(ctx context.Context, k *user.GPGKey) error {
	rows := []*gpgKeyRow{toGPGKeyRow(k.OwnerID, "", k)}
	ids := []string{k.KeyID}
	for _, sub := range k.Subkeys {
		sub.Verified = k.Verified
		rows = append(rows, toGPGKeyRow(k.OwnerID, k.KeyID, sub))
		ids = append(ids, sub.KeyID)
	}
	err := s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		taken, err := tx.NewSelect().Model((*gpgKeyRow)(nil)).Where("gk.key_id IN (?)", bun.In(ids)).Exists(ctx)
		if err != nil {
			return gpgKeyMapping.mapErr(err)
		}
		if taken {
			return user.ErrGPGKeyInUse
		}
		for _, row := range rows {
			if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
				if violationOf(err) == uniqueViolation {
					return user.ErrGPGKeyInUse
				}
				return gpgKeyMapping.mapErr(err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	k.ID = rows[0].ID
	for i, sub := range k.Subkeys {
		sub.ID, sub.OwnerID, sub.PrimaryKeyID = rows[i+1].ID, k.OwnerID, k.KeyID
	}
	return nil
}

// Get returns one of the owner's primary keys with its subkeys.
func (s *GPGKeyStore) Get(ctx context.Context, ownerID, id int64) (*user.GPGKey, error) {
	return s.getWhere(ctx, ownerID, "gk.id = ?", id)
}

// GetByKeyID returns the owner's primary key with this key id.
func (s *GPGKeyStore) GetByKeyID(ctx context.Context, ownerID int64, keyID string) (*user.GPGKey, error) {
	return s.getWhere(ctx, ownerID, "gk.key_id = ?", keyID)
}

func (s *GPGKeyStore) getWhere(ctx context.Context, ownerID int64, cond string, arg any) (*user.GPGKey, error) {
	row := new(gpgKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("gk.owner_id = ?", ownerID).
		Where("gk.primary_key_id = ''").Where(cond, arg).Scan(ctx)
	if err != nil {
		return nil, gpgKeyMapping.mapErr(err)
	}
	keys := []*user.GPGKey{row.toDomain()}
	if err := s.attachSubkeys(ctx, ownerID, keys); err != nil {
		return nil, err
	}
	return keys[0], nil
}

// List returns one page of the owner's primary keys by id, with their
// subkeys fetched in one more query, and the total.
func (s *GPGKeyStore) List(ctx context.Context, ownerID int64, opts ports.ListOptions) ([]*user.GPGKey, int64, error) {
	var rows []gpgKeyRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("gk.owner_id = ?", ownerID).Where("gk.primary_key_id = ''")
	total, err := page(sel.OrderExpr("gk.id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, gpgKeyMapping.mapErr(err)
	}
	keys := domainAll(rows, (*gpgKeyRow).toDomain)
	if err := s.attachSubkeys(ctx, ownerID, keys); err != nil {
		return nil, 0, err
	}
	return keys, total, nil
}

// attachSubkeys fills the subkeys of keys, all the owner's, in one query.
func (s *GPGKeyStore) attachSubkeys(ctx context.Context, ownerID int64, keys []*user.GPGKey) error {
	if len(keys) == 0 {
		return nil
	}
	byID := make(map[string]*user.GPGKey, len(keys))
	ids := make([]string, 0, len(keys))
	for _, k := range keys {
		byID[k.KeyID] = k
		ids = append(ids, k.KeyID)
	}
	var rows []gpgKeyRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Where("gk.owner_id = ?", ownerID).
		Where("gk.primary_key_id IN (?)", bun.In(ids)).OrderExpr("gk.id ASC").Scan(ctx)
	if err != nil {
		return gpgKeyMapping.mapErr(err)
	}
	for i := range rows {
		sub := rows[i].toDomain()
		if k := byID[sub.PrimaryKeyID]; k != nil {
			k.Subkeys = append(k.Subkeys, sub)
		}
	}
	return nil
}

// Delete removes one of the owner's primary keys and its subkeys.
func (s *GPGKeyStore) Delete(ctx context.Context, ownerID, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := new(gpgKeyRow)
		err := tx.NewSelect().Model(row).Where("gk.owner_id = ?", ownerID).Where("gk.id = ?", id).
			Where("gk.primary_key_id = ''").Scan(ctx)
		if err != nil {
			return gpgKeyMapping.mapErr(err)
		}
		_, err = tx.NewDelete().Model((*gpgKeyRow)(nil)).Where("owner_id = ?", ownerID).
			WhereGroup(" AND ", func(q *bun.DeleteQuery) *bun.DeleteQuery {
				return q.Where("id = ?", id).WhereOr("primary_key_id = ?", row.KeyID)
			}).Exec(ctx)
		return gpgKeyMapping.mapErr(err)
	})
}

// MarkVerified records that the owner proved holding key id, and so its
// subkeys.
func (s *GPGKeyStore) MarkVerified(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := new(gpgKeyRow)
		if err := tx.NewSelect().Model(row).Where("gk.id = ?", id).Scan(ctx); err != nil {
			return gpgKeyMapping.mapErr(err)
		}
		_, err := tx.NewUpdate().Model((*gpgKeyRow)(nil)).Set("verified = ?", true).
			Where("owner_id = ?", row.OwnerID).
			WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
				return q.Where("id = ?", id).WhereOr("primary_key_id = ?", row.KeyID)
			}).Exec(ctx)
		return gpgKeyMapping.mapErr(err)
	})
}
