package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// errTeamNotFound is the answer for an absent team and for one in an
// organisation the caller may not see.
var errTeamNotFound = errs.NotFound("team does not exist")

// TeamAccess is a team as one caller reaches it: the team, its organisation
// (with the caller's membership) and whether the caller is in the team.
type TeamAccess struct {
	Team     *org.Team
	Org      *Access
	IsMember bool
}

// OpenTeam resolves team id for caller c: 404 when absent or when c may not
// see its organisation.
func (s *Service) OpenTeam(ctx context.Context, c auth.Caller, id int64) (*TeamAccess, error) {
	t, err := s.stores.Orgs.GetTeam(ctx, id)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errTeamNotFound
		}
		return nil, err
	}
	o, err := s.stores.Orgs.Get(ctx, t.OrgID)
	if err != nil {
		return nil, err
	}
	m, err := s.stores.Orgs.Membership(ctx, o.ID, c.UserID())
	if err != nil {
		return nil, err
	}
	if !org.CanSee(viewer(c, m), o.Visibility) {
		return nil, errTeamNotFound
	}
	in := false
	if c.Signed() {
		if in, err = s.stores.Orgs.IsTeamMember(ctx, t.ID, c.UserID()); err != nil {
			return nil, err
		}
	}
	return &TeamAccess{Team: t, Org: &Access{Org: o, Membership: m, Caller: c}, IsMember: in}, nil
}

// TeamInput is Gitea's CreateTeamOption.
type TeamInput struct {
	Name, Description       string
	Permission              string
	Units                   []string
	UnitsMap                map[string]string
	IncludesAllRepositories bool
	CanCreateOrgRepo        bool
}

// buildTeam turns the input into a team, as Gitea reads it: an admin team
// administers every unit; otherwise units_map gives each unit its mode (and
// the team's mode is the lowest of them), the deprecated units list gives
// the listed units the team's mode, and neither gives every unit that mode.
func buildTeam(orgID int64, in TeamInput) (*org.Team, error) {
	mode, ok := org.ParseMode(in.Permission)
	if in.Permission == "" {
		mode, ok = permission.ModeNone, len(in.UnitsMap) > 0
	}
	if !ok || mode == permission.ModeOwner {
		return nil, errs.Invalid("must be one of read, write, admin", "permission")
	}
	t := &org.Team{OrgID: orgID, Name: in.Name, LowerName: strings.ToLower(in.Name), Description: in.Description,
		Mode: mode, IncludesAllRepositories: in.IncludesAllRepositories, CanCreateOrgRepo: in.CanCreateOrgRepo,
		Units: map[permission.Unit]permission.AccessMode{}}
	switch {
	case mode >= permission.ModeAdmin:
		for _, u := range permission.AllUnits() {
			t.Units[u] = permission.ModeAdmin
		}
	case len(in.UnitsMap) > 0:
		lowest := permission.ModeAdmin
		for name, ms := range in.UnitsMap {
			u, err := permission.ParseUnit(name)
			if err != nil {
				return nil, errs.Invalid("unknown unit "+name, "units_map")
			}
			m, ok := org.ParseMode(ms)
			if !ok || m == permission.ModeOwner {
				return nil, errs.Invalid("must be one of none, read, write, admin", "units_map")
			}
			t.Units[u] = m
			lowest = min(lowest, m)
		}
		t.Mode = lowest
	case len(in.Units) > 0:
		for _, name := range in.Units {
			u, err := permission.ParseUnit(name)
			if err != nil {
				return nil, errs.Invalid("unknown unit "+name, "units")
			}
			t.Units[u] = mode
		}
	default:
		for _, u := range permission.AllUnits() {
			t.Units[u] = mode
		}
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// CreateTeam adds a team to the organisation.
func (s *Service) CreateTeam(ctx context.Context, a *Access, in TeamInput) (*org.Team, error) {
	t, err := buildTeam(a.Org.ID, in)
	if err != nil {
		return nil, err
	}
	if t.Name == org.OwnersTeamName {
		return nil, errs.Invalid("team already exists", "name")
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.Orgs.CreateTeam(ctx, t) })
	if errors.Is(err, errs.ErrConflict) {
		return nil, errs.Invalid("team already exists", "name")
	}
	return t, err
}

// AddTeamMember puts u in the team (and so in the organisation).
func (s *Service) AddTeamMember(ctx context.Context, ta *TeamAccess, u *user.User) error {
	if u.Kind != user.KindIndividual {
		return errs.NotFound("user does not exist")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		// Gitea's 403: whom the organisation blocks may not join its teams.
		if err := s.users.CheckNotBlocked(ctx, u, ta.Team.OrgID); err != nil {
			return err
		}
		return tx.Orgs.AddTeamMember(ctx, ta.Team.ID, u.ID)
	})
}

// RemoveTeamMember takes u out of the team; the Owners team keeps its last member.
func (s *Service) RemoveTeamMember(ctx context.Context, ta *TeamAccess, u *user.User) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.RemoveTeamMember(ctx, ta.Team.ID, u.ID)
	})
}

// CheckTeamMember answers whether u is in the team: nil or errs.ErrNotFound.
func (s *Service) CheckTeamMember(ctx context.Context, ta *TeamAccess, u *user.User) error {
	in, err := s.stores.Orgs.IsTeamMember(ctx, ta.Team.ID, u.ID)
	if err != nil {
		return err
	}
	if !in {
		return errs.NotFound("user is not a member of the team")
	}
	return nil
}

// AddTeamRepo gives the team one repository of its organisation; the caller
// must administer the repository, as in Gitea.
func (s *Service) AddTeamRepo(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
	if err := checkTeamRepoChange(ta, r); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.AddTeamRepo(ctx, ta.Team.ID, r.Repo.ID)
	})
}

// checkTeamRepoChange lets a team's repositories change: the repository
// must be the team's organisation's, and the caller must administer it.
func checkTeamRepoChange(ta *TeamAccess, r *repos.Access) error {
	if r.Repo.Owner.ID != ta.Team.OrgID {
		return errs.NotFound("repository does not exist")
	}
	if !r.Perm.IsAdmin() && !ta.Org.Caller.IsAdmin() {
		return errs.Forbidden("user is nonexistent or does not have admin access")
	}
	return nil
}
