package content

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
)

// Gitea's refusals of the tag routes for a protected tag (422).
const (
	msgTagCreateProtected = "user not allowed to create protected tag"
	msgTagDeleteProtected = "user not allowed to delete protected tag"
)

// checkTagProtection refuses, with msg, a caller whom the repository's tag
// protection rules do not allow to create or delete tag. Gitea tells of a
// tag that exists (create: 409) or does not (delete: 404) before it
// consults the rules; the refusal's path looks that up so the allowed path
// pays nothing for it.
func (s Tags) checkTagProtection(ctx context.Context, a *repos.Access, tag, msg string) error {
	refused, err := s.repos.TagProtections().RefusedTag(ctx, a.Repo, a.Caller.UserID(), tag)
	if err != nil || refused == "" {
		return err
	}
	_, err = s.git.Tag(ctx, pathOf(a.Repo), tag)
	switch {
	case err == nil && msg == msgTagCreateProtected:
		return errs.Conflict("tag already exists [name: " + tag + "]")
	case errors.Is(err, errs.ErrNotFound) && msg == msgTagDeleteProtected:
		return errs.NotFound("tag doesn't exist: " + tag)
	case err != nil && !errors.Is(err, errs.ErrNotFound):
		return err
	}
	return refUnprocessable(msg)
}
