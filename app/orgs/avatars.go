package orgs

import (
	"context"
)

// Avatars are the use cases of uploaded avatars: an organisation's (kept
// as any account's, by users.Avatars), and reading any account's stored
// image.
type Avatars struct{ *Service }

// Avatars returns the avatar use cases.
func (s *Service) Avatars() Avatars { return Avatars{s} }

// Set stores image as a.Org's avatar, replacing any earlier one; an
// image that does not decode is a 422 naming "image".
func (s Avatars) Set(ctx context.Context, a *Access, image []byte) error {
	return s.users.Avatars().Set(ctx, &a.Org.User, image)
}

// Delete removes a.Org's avatar; removing none is a no-op.
func (s Avatars) Delete(ctx context.Context, a *Access) error {
	return s.users.Avatars().Delete(ctx, &a.Org.User)
}

// Open returns a stored account avatar image by its name.
func (s Avatars) Open(ctx context.Context, hash string) ([]byte, error) {
	return s.avatars.Open(ctx, hash)
}
