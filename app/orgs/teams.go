package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/ports"
)

// Teams are the use cases of an organisation's teams: creating, listing,
// editing and deleting them, and the caller's own teams. Opening a team
// from the path (OpenTeam) stays on Service.
type Teams struct{ *Service }

// Teams returns the team use cases.
func (s *Service) Teams() Teams { return Teams{s} }

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

// Create adds a team to the organisation.
func (s Teams) Create(ctx context.Context, a *Access, in TeamInput) (*org.Team, error) {
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

// List lists the organisation's teams; with a keyword, those whose
// name (or with includeDesc, description) contains it.
func (s Teams) List(ctx context.Context, a *Access, keyword string, includeDesc bool, opts ports.ListOptions) ([]*org.Team, int64, error) {
	return s.stores.Orgs.ListTeams(ctx, a.Org.ID, keyword, includeDesc, opts)
}

// Mine lists c's teams across organisations, with their organisations
// loaded in one query, keyed by id.
func (s Teams) Mine(ctx context.Context, c auth.Caller, opts ports.ListOptions) ([]*org.Team, map[int64]*org.Organization, int64, error) {
	teams, total, err := s.stores.Orgs.TeamsOfUser(ctx, c.UserID(), opts)
	if err != nil {
		return nil, nil, 0, err
	}
	orgs, err := s.orgsOf(ctx, teams)
	return teams, orgs, total, err
}

// orgsOf loads the organisations of teams in one query.
func (s Teams) orgsOf(ctx context.Context, teams []*org.Team) (map[int64]*org.Organization, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, t := range teams {
		if !seen[t.OrgID] {
			seen[t.OrgID] = true
			ids = append(ids, t.OrgID)
		}
	}
	list, err := s.stores.Orgs.GetMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*org.Organization, len(list))
	for _, o := range list {
		out[o.ID] = o
	}
	return out, nil
}

// EditTeamInput is Gitea's EditTeamOption: empty or nil fields keep their value.
type EditTeamInput struct {
	Name                    string
	Description             *string
	Permission              string
	Units                   []string
	UnitsMap                map[string]string
	IncludesAllRepositories *bool
	CanCreateOrgRepo        *bool
}

// Edit changes a team. The Owners team keeps its name, mode and units;
// only its description changes, as in Gitea.
func (s Teams) Edit(ctx context.Context, ta *TeamAccess, in EditTeamInput) (*org.Team, error) {
	t := *ta.Team
	if in.Description != nil {
		t.Description = *in.Description
	}
	if !t.IsOwnersTeam() {
		if in.Name != "" {
			if err := t.CheckRename(in.Name); err != nil {
				return nil, err
			}
			t.Name = in.Name
		}
		if in.IncludesAllRepositories != nil {
			t.IncludesAllRepositories = *in.IncludesAllRepositories
		}
		if in.CanCreateOrgRepo != nil {
			t.CanCreateOrgRepo = *in.CanCreateOrgRepo
		}
		if in.Permission != "" || len(in.UnitsMap) > 0 || len(in.Units) > 0 {
			perm := in.Permission
			if perm == "" && len(in.UnitsMap) == 0 {
				perm = t.Mode.String()
			}
			built, err := buildTeam(t.OrgID, TeamInput{Name: t.Name, Description: t.Description, Permission: perm,
				Units: in.Units, UnitsMap: in.UnitsMap})
			if err != nil {
				return nil, err
			}
			t.Mode, t.Units = built.Mode, built.Units
		}
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.Orgs.UpdateTeam(ctx, &t) })
	if errors.Is(err, errs.ErrConflict) {
		return nil, errs.Invalid("team already exists", "name")
	}
	return &t, err
}

// Delete removes a team; never the Owners team.
func (s Teams) Delete(ctx context.Context, ta *TeamAccess) error {
	if err := ta.Team.CheckDelete(); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.Orgs.DeleteTeam(ctx, ta.Team.ID) })
}
