package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Tags are the use cases of a repository's tags.
type Tags struct{ *Service }

// Tags returns the tag use cases.
func (s *Service) Tags() Tags { return Tags{s} }

// CreateTagInput is Gitea's CreateTagOption.
type CreateTagInput struct {
	Name string
	// Message makes the tag annotated, signed by the caller, when non-empty.
	Message string
	// Target is a branch, tag or commit; empty means the default branch.
	Target string
}

// List returns one page of tags in Gitea's order and their count.
func (s Tags) List(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]ports.GitTag, int64, error) {
	return s.git.ListTags(ctx, pathOf(a.Repo), opts)
}

// Get returns one tag by name.
func (s Tags) Get(ctx context.Context, a *repos.Access, name string) (ports.GitTag, error) {
	t, err := s.git.Tag(ctx, pathOf(a.Repo), name)
	if errors.Is(err, errs.ErrNotFound) {
		return ports.GitTag{}, errs.NotFound("tag doesn't exist: " + name)
	}
	return t, err
}

// Create creates a tag at a branch, tag or commit (the default branch
// when none is named): annotated and signed by the caller when there is a
// message, lightweight otherwise.
func (s Tags) Create(ctx context.Context, a *repos.Access, in CreateTagInput) (ports.GitTag, error) {
	if err := refNameValid("TagName", in.Name); err != nil {
		return ports.GitTag{}, err
	}
	target := in.Target
	if target == "" {
		target = a.Repo.DefaultBranch
	}
	p := pathOf(a.Repo)
	rev, err := s.git.Resolve(ctx, p, target)
	if errors.Is(err, errs.ErrNotFound) {
		return ports.GitTag{}, errs.NotFound("target not found: " + target)
	}
	if err != nil {
		return ports.GitTag{}, err
	}
	if err := s.checkTagProtection(ctx, a, in.Name, msgTagCreateProtected); err != nil {
		return ports.GitTag{}, err
	}
	nt := ports.GitNewTag{Name: in.Name, CommitID: rev.CommitID, Message: in.Message}
	if in.Message != "" {
		nt.Tagger = s.tagger(a.Caller.User)
	}
	t, err := s.git.CreateTag(ctx, p, nt)
	if err != nil {
		var c *ports.RefConflictError
		if errors.As(err, &c) {
			if c.Kind == ports.RefNameClash {
				return ports.GitTag{}, errs.Conflict("tag " + in.Name + " clashes with " + strings.TrimPrefix(c.Name, "refs/"))
			}
			return ports.GitTag{}, errs.Conflict("tag already exists [name: " + in.Name + "]")
		}
		return ports.GitTag{}, err
	}
	// A create event for the new tag is sent here once webhooks exist.
	return t, nil
}

// tagger is u's Git identity (see gitIdentity) as a tagger, dated now.
func (s Tags) tagger(u *user.User) ports.GitSignature {
	if u == nil {
		return ports.GitSignature{}
	}
	id := s.gitIdentity(u)
	return ports.GitSignature{Name: id.Name, Email: id.Email, When: s.clock.Now()}
}

// Delete deletes a tag; a tag under a release stays (409), as in Gitea.
func (s Tags) Delete(ctx context.Context, a *repos.Access, name string) error {
	if used, err := s.tagHasRelease(ctx, a.Repo.ID, name); err != nil {
		return err
	} else if used {
		return errs.Conflict("a tag attached to a release cannot be deleted directly")
	}
	if err := s.checkTagProtection(ctx, a, name, msgTagDeleteProtected); err != nil {
		return err
	}
	if _, err := s.git.DeleteTag(ctx, pathOf(a.Repo), name); err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errs.NotFound("tag doesn't exist: " + name)
		}
		return err
	}
	// A delete event for the tag is sent here once webhooks exist.
	return nil
}
