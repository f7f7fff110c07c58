package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Forks are the use cases of forks.
type Forks struct{ *Service }

// Forks returns the fork use cases.
func (s *Service) Forks() Forks { return Forks{s} }

// ForkInput is Gitea's CreateForkOption.
type ForkInput struct {
	// Organization is the owner of the fork; empty for the caller.
	Organization string
	// Name of the fork; empty for the parent's name.
	Name string
}

// Create clones a into a new repository of the caller (or of an organisation
// it may create repositories in). The Git clone shares objects by hard links
// where the file system allows.
func (s Forks) Create(ctx context.Context, a *Access, in ForkInput) (*repository.Repository, error) {
	parent := a.Repo
	owner, err := s.targetOwner(ctx, a.Caller, in.Organization, "organization", errForkForOtherUser)
	if err != nil {
		return nil, err
	}
	name := in.Name
	if name == "" {
		name = parent.Name
	}
	if err := repository.ValidateName("Name", name); err != nil {
		return nil, err
	}
	if owner.ID == parent.Owner.ID {
		return nil, errs.Conflict("cannot fork a repository into its own owner")
	}
	existing, _, err := s.stores.Repos.Search(ctx, ports.RepoSearch{
		ForkOf: parent.ID, OwnerID: owner.ID, Exclusive: true,
		Viewer: ports.RepoViewer{IsAdmin: true}, ListOptions: ports.ListOptions{Page: 1, Limit: 1},
	})
	if err != nil {
		return nil, err
	}
	if len(existing) > 0 {
		return nil, errs.Conflict("repository is already forked by user [uname: " + owner.Name + ", repo path: " + existing[0].FullName() + ", fork path: " + parent.FullName() + "]")
	}
	if err := s.checkRepoLimit(ctx, owner); err != nil {
		return nil, errs.Conflict(errs.Message(err))
	}
	now := s.clock.Now()
	r := &repository.Repository{
		Owner: repository.Owner{ID: owner.ID, Name: owner.Name, Kind: owner.Kind, Visibility: owner.Visibility},
		Name:  name, LowerName: strings.ToLower(name), Description: parent.Description, Website: parent.Website,
		// A fork of a private organisation's repository stays private, as
		// in Gitea: it would otherwise publish what the organisation hides.
		Private: parent.Private || parent.Owner.Visibility == user.VisibilityPrivate, Empty: parent.Empty, ForkID: parent.ID, DefaultBranch: parent.DefaultBranch,
		ObjectFormat: parent.ObjectFormat, Units: append([]permission.Unit(nil), parent.Units...),
		Tracker: parent.Tracker, Merge: parent.Merge, Created: now, Updated: now,
	}
	err = s.withNewDirectory(ctx, r, func() error {
		if err := s.git.Fork(ctx, pathOf(parent), pathOf(r)); err != nil {
			return err
		}
		if size, err := s.git.Size(ctx, pathOf(r)); err == nil {
			r.Size = size
		}
		if err := s.insert(ctx, r, a.Caller.UserID()); err != nil {
			return err
		}
		return s.stores.Repos.RecountSocial(ctx, parent.ID)
	})
	if errors.Is(err, ErrNameTaken) {
		return nil, errs.Conflict("repository with the same name already exists")
	}
	if err != nil {
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}

// List lists the forks of a that c may see.
func (s Forks) List(ctx context.Context, a *Access, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	return s.stores.Repos.Search(ctx, ports.RepoSearch{ForkOf: a.Repo.ID, Sort: "id", Viewer: viewer(a.Caller), ListOptions: opts})
}

// errForkForOtherUser refuses a fork into another user's account.
var errForkForOtherUser = errs.Forbidden("you may only create repositories for yourself or an organization you belong to")
