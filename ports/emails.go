package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// EmailStore persists e-mail addresses. An address is unique site-wide (case-insensitive).
type EmailStore interface {
	Add(ctx context.Context, e *user.Email) error
	ListByUser(ctx context.Context, userID int64) ([]*user.Email, error)
	// GetByEmail finds an address of any user.
	GetByEmail(ctx context.Context, addr string) (*user.Email, error)
	Delete(ctx context.Context, userID int64, addr string) error
	// SetPrimary marks addr as the user's only primary address.
	SetPrimary(ctx context.Context, userID int64, addr string) error
	// Search lists addresses of all users matching keyword (address, name or full name), one page, and the total.
	Search(ctx context.Context, keyword string, opts ListOptions) ([]*user.EmailOwner, int64, error)
	// UsersByEmails finds in one query the owners of these addresses, only
	// activated ones, compared case-insensitively; the map is keyed by the
	// lower-case address and leaves unknown addresses out.
	UsersByEmails(ctx context.Context, addrs []string) (map[string]*user.User, error)
}
