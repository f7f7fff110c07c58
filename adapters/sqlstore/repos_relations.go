package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/permission"
)

// RelationsMany returns userID's ties to each of rs with one query over the
// collaborations, so that a listing computes its permissions without a
// query per repository.
func (s *RepoStore) RelationsMany(ctx context.Context, rs []permission.Repo, userID int64) (map[int64]permission.Relations, error) {
	out := make(map[int64]permission.Relations, len(rs))
	ids := make([]int64, 0, len(rs))
	for _, r := range rs {
		out[r.ID] = permission.Relations{IsOwner: userID != 0 && userID == r.OwnerID, CollaboratorMode: permission.ModeNone}
		if userID != 0 && userID != r.OwnerID {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []collaborationRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Column("repo_id", "mode").
		Where("c.user_id = ?", userID).Where("c.repo_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, collaboratorMapping.mapErr(err)
	}
	for _, row := range rows {
		rel := out[row.RepoID]
		rel.CollaboratorMode = permission.AccessMode(row.Mode)
		out[row.RepoID] = rel
	}
	return out, nil
}
