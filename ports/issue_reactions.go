package ports

import (
	"context"

	"github.com/depothq/depot/domain/issue"
)

// ReactionStore persists reactions to issues and comments.
type ReactionStore interface {
	// Add records r; errs.ErrConflict when the user already reacted so.
	Add(ctx context.Context, r *issue.Reaction) error
	// Get finds the user's reaction of that type to the issue (commentID 0)
	// or comment.
	Get(ctx context.Context, issueID, commentID, userID int64, typ string) (*issue.Reaction, error)
	// Remove deletes the user's reaction of that type; removing an absent
	// one is not an error.
	Remove(ctx context.Context, issueID, commentID, userID int64, typ string) error
	// List returns the reactions of the issue (commentID 0) or comment, oldest first.
	List(ctx context.Context, issueID, commentID int64, opts ListOptions) ([]*issue.Reaction, int64, error)
}
