package repos

import (
	"context"
	"strconv"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Avatars are the use cases of repository avatars.
type Avatars struct{ *Service }

// Avatars returns the repository avatar use cases.
func (s *Service) Avatars() Avatars { return Avatars{s} }

// Set stores image as a's avatar, replacing any earlier one.
func (s Avatars) Set(ctx context.Context, a *Access, image []byte) error {
	hash, err := s.avatars.Put(ctx, "image", "repo-"+strconv.FormatInt(a.Repo.ID, 10), image)
	if err != nil {
		return err
	}
	return s.setAvatar(ctx, a.Repo, hash)
}

// Delete removes a's avatar; removing none is a no-op.
func (s Avatars) Delete(ctx context.Context, a *Access) error {
	if a.Repo.Avatar == "" {
		return nil
	}
	return s.setAvatar(ctx, a.Repo, "")
}

// setAvatar records hash and then removes the file it replaces.
func (s Avatars) setAvatar(ctx context.Context, r *repository.Repository, hash string) error {
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

// Get returns a stored avatar image by its hash.
func (s Avatars) Get(ctx context.Context, hash string) ([]byte, error) {
	return s.avatars.Open(ctx, hash)
}
