package repos

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// AccessMany is OpenByID for repositories already loaded: c's access to
// each, keyed by id, with one relations query for the whole list.
// Repositories c may not see are left out, by the rule OpenByID applies.
func (s *Service) AccessMany(ctx context.Context, c auth.Caller, list []*repository.Repository) (map[int64]*Access, error) {
	all, err := s.PermissionsFor(ctx, c, list)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*Access, len(all))
	for _, a := range all {
		if a.Perm.HasAnyAccess() || c.IsAdmin() {
			out[a.Repo.ID] = a
			continue
		}
		// The rare repository without access goes through OpenByID's own
		// rule, which has exceptions (a pending transfer's recipient).
		one, err := s.access(ctx, c, a.Repo)
		switch {
		case err == nil:
			out[a.Repo.ID] = one
		case !errors.Is(err, errs.ErrNotFound):
			return nil, err
		}
	}
	return out, nil
}
