package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/token"
)

// AccessTokenStore persists personal access tokens.
type AccessTokenStore interface {
	Create(ctx context.Context, t *token.AccessToken) error
	// ListByUser returns one page ordered by id, and the total.
	ListByUser(ctx context.Context, userID int64, opts ListOptions) ([]*token.AccessToken, int64, error)
	// FindByLastEight returns every token whose secret ends with lastEight.
	FindByLastEight(ctx context.Context, lastEight string) ([]*token.AccessToken, error)
	GetByID(ctx context.Context, userID, id int64) (*token.AccessToken, error)
	GetByName(ctx context.Context, userID int64, name string) (*token.AccessToken, error)
	Delete(ctx context.Context, id int64) error
	// TouchLastUsed records last-use times in one batch.
	TouchLastUsed(ctx context.Context, used map[int64]time.Time) error
}
