package sqlstore

import "context"

// SetEmpty records whether the Git repository has no commit yet: the first
// write through the contents API clears it.
func (s *RepoStore) SetEmpty(ctx context.Context, repoID int64, empty bool) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*repoRow)(nil)).Set("is_empty = ?", empty).Where("id = ?", repoID).Exec(ctx)
	return repoMapping.affected(res, err)
}
