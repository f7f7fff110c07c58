package transport

import (
	"context"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// checkProtectedTags refuses a push that creates, moves or deletes a tag
// its pusher may not change, naming the tag in Gitea's words (git shows
// them on the client's remote: lines). A deploy key pushes as the
// repository's owner and is judged as the owner.
func (s *Service) checkProtectedTags(ctx context.Context, r *repository.Repository, pusher *user.User,
	changes []repository.RefChange) error {
	var tags []string
	for _, c := range changes {
		if name, ok := strings.CutPrefix(c.Ref, "refs/tags/"); ok {
			tags = append(tags, name)
		}
	}
	refused, err := s.repos.TagProtections().RefusedTag(ctx, r, pusher.ID, tags...)
	if err != nil {
		return err
	}
	if refused != "" {
		return errs.Forbidden(protection.TagProtectedMessage(refused))
	}
	return nil
}
