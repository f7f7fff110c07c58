package sqlstore

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

var _ ports.AccessTokenStore = (*AccessTokenStore)(nil)

// AccessTokenStore is the SQL implementation of ports.AccessTokenStore.
type AccessTokenStore struct{ c conn }

var tokenMapping = mapping{
	op: "access token", notFound: "access token does not exist",
	conflict: "access token name has been used already", missingRef: "user does not exist",
}

// Create inserts t and sets t.ID.
func (s *AccessTokenStore) Create(ctx context.Context, t *token.AccessToken) error {
	row := toTokenRow(t)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return tokenMapping.mapErr(err)
	}
	t.ID = row.ID
	return nil
}

// ListByUser returns one page of the user's tokens ordered by id, and the total.
func (s *AccessTokenStore) ListByUser(ctx context.Context, userID int64, opts ports.ListOptions) ([]*token.AccessToken, int64, error) {
	var rows []tokenRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("t.user_id = ?", userID).Order("t.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, tokenMapping.mapErr(err)
	}
	return tokensToDomain(rows), total, nil
}

// FindByLastEight returns every token whose secret ends with lastEight, with
// one indexed query; the caller compares hashes to pick the one presented.
func (s *AccessTokenStore) FindByLastEight(ctx context.Context, lastEight string) ([]*token.AccessToken, error) {
	var rows []tokenRow
	var err error
	started := time.Now()
	if ps := s.c.hotStmt(ctx, hotTokensByLastEight); ps != nil {
		err = s.c.scanAll(ctx, ps, &rows, lastEight)
	} else {
		err = s.c.r(ctx).NewSelect().Model(&rows).Where("t.last_eight = ?", lastEight).Scan(ctx)
	}
	if err != nil {
		return nil, tokenMapping.mapErr(s.c.owner.waitCause(err, false, started))
	}
	return tokensToDomain(rows), nil
}

// GetByID finds one of the user's tokens; another user's token is not found.
func (s *AccessTokenStore) GetByID(ctx context.Context, userID, id int64) (*token.AccessToken, error) {
	row := new(tokenRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("t.id = ?", id).Where("t.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, tokenMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByName finds one of the user's tokens by its exact name.
func (s *AccessTokenStore) GetByName(ctx context.Context, userID int64, name string) (*token.AccessToken, error) {
	row := new(tokenRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("t.user_id = ?", userID).Where("t.name = ?", name).Scan(ctx)
	if err != nil {
		return nil, tokenMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Delete removes a token by id.
func (s *AccessTokenStore) Delete(ctx context.Context, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*tokenRow)(nil)).Where("id = ?", id).Exec(ctx)
	return tokenMapping.affected(res, err)
}

// TouchLastUsed records last-use times in one transaction, so a batch costs
// one commit (one fsync on SQLite) rather than one per token. Times never move
// backwards, so a late batch cannot undo a newer one; ids are visited in
// order so concurrent batches on Postgres lock rows in the same order and
// cannot deadlock. Tokens deleted meanwhile are skipped.
func (s *AccessTokenStore) TouchLastUsed(ctx context.Context, used map[int64]time.Time) error {
	if len(used) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(used))
	for id := range used {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	touch := func(ctx context.Context, db bun.IDB) error {
		for _, id := range ids {
			at := dbTime(used[id])
			if at.IsZero() {
				continue
			}
			_, err := db.NewUpdate().Model((*tokenRow)(nil)).
				Set("last_used = ?", at).
				Where("id = ?", id).
				Where("(last_used IS NULL OR last_used < ?)", at).
				Exec(ctx)
			if err != nil {
				return tokenMapping.mapErr(err)
			}
		}
		return nil
	}
	db := s.c.w(ctx)
	if tx, ok := db.(bun.Tx); ok {
		return touch(ctx, tx)
	}
	started := time.Now()
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if d := s.c.owner; d != nil && d.dialect == DialectSQLite {
			defer d.writer.hold("the token last-use flush")()
		}
		return touch(ctx, tx)
	})
	return s.c.owner.waitCause(err, true, started)
}

func tokensToDomain(rows []tokenRow) []*token.AccessToken {
	out := domainAll(rows, (*tokenRow).toDomain)
	return out
}
