package repos

import (
	"context"
	"strconv"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// SetAvatar stores image as a's avatar, replacing any earlier one.
func (s *Service) SetAvatar(ctx context.Context, a *Access, image []byte) error {
	hash, err := s.avatars.Put(ctx, "image", "repo-"+strconv.FormatInt(a.Repo.ID, 10), image)
	if err != nil {
		return err
	}
	return s.setAvatar(ctx, a.Repo, hash)
}

// DeleteAvatar removes a's avatar; removing none is a no-op.
func (s *Service) DeleteAvatar(ctx context.Context, a *Access) error {
	if a.Repo.Avatar == "" {
		return nil
	}
	return s.setAvatar(ctx, a.Repo, "")
}

// setAvatar records hash and then removes the file it replaces.
func (s *Service) setAvatar(ctx context.Context, r *repository.Repository, hash string) error {
	old := r.Avatar
	if old == hash {
		return nil
	}
	next := *r
	next.Avatar = hash
	next.Updated = s.clock.Now()
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Repos.Update(ctx, &next)
	}); err != nil {
		return err
	}
	if old != "" {
		if err := s.avatars.Remove(ctx, old); err != nil {
			s.log.Warn("removing a replaced repository avatar", "repo", r.FullName(), "err", err)
		}
	}
	return nil
}

// Avatar returns a stored avatar image by its hash.
func (s *Service) Avatar(ctx context.Context, hash string) ([]byte, error) {
	return s.avatars.Open(ctx, hash)
}

// Templates returns the template texts, for the template routes.
func (s *Service) Templates() ports.Templates { return s.templates }
