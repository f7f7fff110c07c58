package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// SeveredTies counts what a block undid between two accounts.
type SeveredTies struct {
	Stars, Watches, Collaborations, Transfers int64
	// Assignments are the issue assignments removed.
	Assignments int64
}

// BlockStore persists blocks of users by users and organisations. A pair
// is blocked at most once (errs.ErrConflict); a block of or by a deleted
// account goes with it.
type BlockStore interface {
	// Block records b and sets b.ID.
	Block(ctx context.Context, b *user.Block) error
	// Unblock lifts blockerID's block of blockeeID; errs.ErrNotFound when none.
	Unblock(ctx context.Context, blockerID, blockeeID int64) error
	// IsBlocked reports whether blockerID blocks blockeeID.
	IsBlocked(ctx context.Context, blockerID, blockeeID int64) (bool, error)
	// IsBlockedByAny reports, in one query, whether any of blockerIDs blocks blockeeID.
	IsBlockedByAny(ctx context.Context, blockeeID int64, blockerIDs []int64) (bool, error)
	// IsBlockedEither reports whether a blocks b or b blocks a.
	IsBlockedEither(ctx context.Context, a, b int64) (bool, error)
	// List returns one page of the accounts blockerID blocks, the earliest
	// block first, and the total.
	List(ctx context.Context, blockerID int64, opts ListOptions) ([]*user.User, int64, error)
	// SeverTies undoes, both ways, what ties a and b as a block requires:
	// each one's stars and watches of the other's repositories, each one's
	// collaborations on the other's repositories, and pending transfers of
	// one's repositories to the other. Repository and user counters are
	// recounted in the same transaction. Run it inside the caller's.
	SeverTies(ctx context.Context, a, b int64) (SeveredTies, error)
}
