package issues

// PLACEHOLDER: written by a helper (comments and timeline).

import (
	"context"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// recordReferences adds the timeline references that text (the body of
// issue from, or of its comment commentID when non-zero) makes to other
// issues ("#12", "owner/repo#3"), inside tx. Mentions ("@user") are found
// too, for notifications later.
func (s *Service) recordReferences(ctx context.Context, tx ports.Stores, repo *repository.Repository,
	from *issue.Issue, commentID int64, text string, doerID int64) error {
	return nil
}
