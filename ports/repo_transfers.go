package ports

import (
	"context"

	"github.com/depothq/depot/domain/repository"
)

// TransferStore persists pending repository transfers, at most one per repository.
type TransferStore interface {
	// Create records an offer, replacing any earlier one.
	Create(ctx context.Context, t *repository.Transfer) error
	Get(ctx context.Context, repoID int64) (*repository.Transfer, error)
	Delete(ctx context.Context, repoID int64) error
}
