package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
)

// GetByIDs finds the users with these ids in one query; absent ids are skipped.
func (s *UserStore) GetByIDs(ctx context.Context, ids []int64) ([]*user.User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []userRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("u.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, userMapping.mapErr(err)
	}
	out := domainAll(rows, (*userRow).toDomain)
	return out, nil
}
