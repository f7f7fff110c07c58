package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/user"
)

// WebSessionStore persists browsers' sessions by the hash of their token.
// A session is never changed: signing in replaces it with a new one.
type WebSessionStore interface {
	Create(ctx context.Context, s *user.WebSession) error
	// GetByHash finds a session, expired or not; errs.ErrNotFound when absent.
	GetByHash(ctx context.Context, tokenHash string) (*user.WebSession, error)
	// Delete removes a session; absent is not an error.
	Delete(ctx context.Context, id int64) error
	// DeleteExpired removes the sessions expired at now.
	DeleteExpired(ctx context.Context, now time.Time) error
}
