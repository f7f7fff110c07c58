package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// CreateInput is Gitea's CreateOrgOption.
type CreateInput struct {
	Name string
	org.Profile
}

// Create makes an organisation owned by owner, on behalf of c (c is owner,
// or a site admin creating for a user).
func (s *Service) Create(ctx context.Context, c auth.Caller, owner *user.User, in CreateInput) (*org.Organization, error) {
	if !org.CanCreate(c.User) {
		return nil, errs.Forbidden("user is not allowed to create organizations")
	}
	if owner.Kind != user.KindIndividual {
		return nil, errs.Invalid("an organization cannot own an organization", "username")
	}
	if err := org.ValidateName("UserName", in.Name); err != nil {
		return nil, err
	}
	if in.Visibility == "" {
		in.Visibility = user.VisibilityPublic
	}
	if err := in.Profile.Validate(); err != nil {
		return nil, err
	}
	o := org.New(in.Name, in.Profile)
	now := s.clock.Now()
	o.Created, o.Updated = now, now
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		// A name freed by a rename becomes plain again once taken.
		if err := tx.Users.DeleteRedirect(ctx, o.LowerName); err != nil && !errors.Is(err, errs.ErrNotFound) {
			return err
		}
		return tx.Orgs.Create(ctx, o, owner.ID)
	})
	if errors.Is(err, errs.ErrConflict) {
		return nil, errs.Invalid("user already exists", "UserName")
	}
	return o, err
}

// EditInput is Gitea's EditOrgOption: nil fields keep their value.
type EditInput struct {
	FullName, Email, Description, Website, Location *string
	Visibility                                      *user.Visibility
	RepoAdminChangeTeamAccess                       *bool
}

// Edit changes the profile of a.Org.
func (s *Service) Edit(ctx context.Context, a *Access, in EditInput) (*org.Organization, error) {
	var out *org.Organization
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		o, err := tx.Orgs.Get(ctx, a.Org.ID)
		if err != nil {
			return err
		}
		p := o.Profile()
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = strings.TrimSpace(*v)
			}
		}
		set(&p.FullName, in.FullName)
		set(&p.Email, in.Email)
		set(&p.Description, in.Description)
		set(&p.Website, in.Website)
		set(&p.Location, in.Location)
		if in.Visibility != nil {
			p.Visibility = *in.Visibility
		}
		if in.RepoAdminChangeTeamAccess != nil {
			p.RepoAdminChangeTeamAccess = *in.RepoAdminChangeTeamAccess
		}
		if err := p.Validate(); err != nil {
			return err
		}
		p.Apply(o)
		o.Updated = s.clock.Now()
		if err := tx.Orgs.Update(ctx, o); err != nil {
			return err
		}
		out = o
		return nil
	})
	return out, err
}

// Delete removes the organisation; Gitea's 422 while it owns repositories.
func (s *Service) Delete(ctx context.Context, a *Access) error {
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.Delete(ctx, a.Org.ID)
	})
	if errors.Is(err, errs.ErrConflict) {
		return errs.Invalid("organization still has ownership of repositories", "org")
	}
	return err
}

// Rename renames the organisation (with a redirect from the old name and its
// repositories moved on disk), as an account rename does.
func (s *Service) Rename(ctx context.Context, a *Access, newName string) error {
	return s.users.Admin().Rename(ctx, a.Org.Name, newName)
}

// List lists the organisations c may see: public ones to everybody, limited
// ones to signed-in callers, private ones to their members and admins; a
// restricted account only those it belongs to, a public-only token only
// public ones.
func (s *Service) List(ctx context.Context, c auth.Caller, keyword string, opts ports.ListOptions) ([]*org.Organization, int64, error) {
	q := ports.OrgSearch{Keyword: keyword, ListOptions: opts}
	narrow(c, &q)
	return s.stores.Orgs.Search(ctx, q)
}

// ListAll lists every organisation, for administrators.
func (s *Service) ListAll(ctx context.Context, opts ports.ListOptions) ([]*org.Organization, int64, error) {
	return s.stores.Orgs.Search(ctx, ports.OrgSearch{ListOptions: opts})
}

// ListOf lists the organisations u belongs to as c may see them (Gitea's
// listUserOrgs): all of them to u and to site admins; to others only the
// memberships u shows publicly, of organisations c may see. A public-only
// token sees public organisations only, even its owner's own.
func (s *Service) ListOf(ctx context.Context, c auth.Caller, u *user.User, opts ports.ListOptions) ([]*org.Organization, int64, error) {
	q := ports.OrgSearch{MemberID: u.ID, ListOptions: opts}
	switch {
	case c.IsAdmin() || c.UserID() == u.ID:
		if users.Viewer(c).PublicOnly {
			q.Visibilities = []user.Visibility{user.VisibilityPublic}
		}
	default:
		q.PublicMembershipOnly = true
		narrow(c, &q)
	}
	return s.stores.Orgs.Search(ctx, q)
}

// Permissions is Gitea's OrganizationPermissions of one user.
type Permissions struct {
	IsOwner, IsAdmin, CanWrite, CanRead, CanCreateRepository bool
}

// PermissionsOf computes u's permissions in a.Org (a is opened by the caller).
func (s *Service) PermissionsOf(ctx context.Context, a *Access, u *user.User) (Permissions, error) {
	m, err := s.stores.Orgs.Membership(ctx, a.Org.ID, u.ID)
	if err != nil {
		return Permissions{}, err
	}
	if m.IsOwner {
		return Permissions{IsOwner: true, IsAdmin: true, CanWrite: true, CanRead: true, CanCreateRepository: true}, nil
	}
	// As Gitea's GetOrgUserMaxAuthorizeLevel: the highest mode of the
	// user's teams decides, so an outsider reads nothing.
	return Permissions{
		IsAdmin:             m.MaxMode >= permission.ModeAdmin,
		CanWrite:            m.MaxMode >= permission.ModeWrite,
		CanRead:             m.MaxMode >= permission.ModeRead,
		CanCreateRepository: m.CanCreateRepo,
	}, nil
}

// CreateRepo makes a repository owned by the organisation: its owners and
// members of a team allowed to create repositories may (site admins too).
func (s *Service) CreateRepo(ctx context.Context, a *Access, in repos.CreateInput) (*repository.Repository, error) {
	if !a.Membership.IsOwner && !a.Membership.CanCreateRepo && !a.Caller.IsAdmin() {
		return nil, errs.Forbidden("Given user is not allowed to create repository in organization.")
	}
	return s.repos.Create(ctx, a.Caller, &a.Org.User, in)
}
