package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ListTeams lists the organisation's teams; with a keyword, those whose
// name (or with includeDesc, description) contains it.
func (s *Service) ListTeams(ctx context.Context, a *Access, keyword string, includeDesc bool, opts ports.ListOptions) ([]*org.Team, int64, error) {
	return s.stores.Orgs.ListTeams(ctx, a.Org.ID, keyword, includeDesc, opts)
}

// MyTeams lists c's teams across organisations, with their organisations
// loaded in one query, keyed by id.
func (s *Service) MyTeams(ctx context.Context, c auth.Caller, opts ports.ListOptions) ([]*org.Team, map[int64]*org.Organization, int64, error) {
	teams, total, err := s.stores.Orgs.TeamsOfUser(ctx, c.UserID(), opts)
	if err != nil {
		return nil, nil, 0, err
	}
	orgs, err := s.orgsOf(ctx, teams)
	return teams, orgs, total, err
}

// orgsOf loads the organisations of teams in one query.
func (s *Service) orgsOf(ctx context.Context, teams []*org.Team) (map[int64]*org.Organization, error) {
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

// EditTeam changes a team. The Owners team keeps its name, mode and units;
// only its description changes, as in Gitea.
func (s *Service) EditTeam(ctx context.Context, ta *TeamAccess, in EditTeamInput) (*org.Team, error) {
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

// DeleteTeam removes a team; never the Owners team.
func (s *Service) DeleteTeam(ctx context.Context, ta *TeamAccess) error {
	if err := ta.Team.CheckDelete(); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.Orgs.DeleteTeam(ctx, ta.Team.ID) })
}

// TeamMembers lists one page of the team's members.
func (s *Service) TeamMembers(ctx context.Context, ta *TeamAccess, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Orgs.TeamMembers(ctx, ta.Team.ID, opts)
}

// repoViewer is what a repository listing for c may show (as app/repos reads it).
func repoViewer(c auth.Caller) ports.RepoViewer {
	if c.User == nil {
		return ports.RepoViewer{PublicOnly: true}
	}
	return ports.RepoViewer{UserID: c.User.ID, IsAdmin: c.User.IsAdmin, Restricted: c.User.IsRestricted}
}

// TeamRepos lists one page of the repositories the team reaches that the
// caller may see.
func (s *Service) TeamRepos(ctx context.Context, ta *TeamAccess, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	return s.stores.Repos.Search(ctx, ports.RepoSearch{TeamID: ta.Team.ID, Sort: "alpha",
		Viewer: repoViewer(ta.Org.Caller), ListOptions: opts})
}

// teamHasRepo reports whether the team reaches the repository.
func (s *Service) teamHasRepo(ctx context.Context, t *org.Team, r *repository.Repository) (bool, error) {
	if r.Owner.ID != t.OrgID {
		return false, nil
	}
	if t.IncludesAllRepositories {
		return true, nil
	}
	teams, err := s.stores.Orgs.RepoTeams(ctx, r.ID)
	if err != nil {
		return false, err
	}
	for _, x := range teams {
		if x.ID == t.ID {
			return true, nil
		}
	}
	return false, nil
}

// CheckTeamRepo answers whether the team reaches the repository: nil or 404.
func (s *Service) CheckTeamRepo(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
	ok, err := s.teamHasRepo(ctx, ta.Team, r.Repo)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFound("repository is not in the team")
	}
	return nil
}

// RemoveTeamRepo takes a repository from the team; the caller must
// administer the repository.
func (s *Service) RemoveTeamRepo(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
	if err := checkTeamRepoChange(ta, r); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.RemoveTeamRepo(ctx, ta.Team.ID, r.Repo.ID)
	})
}

// ErrNoOrg refuses team routes on a repository no organisation owns; the
// HTTP adapter answers it with Gitea's 405.
var ErrNoOrg = errors.New("repo is not owned by an organization")

// RepoTeams lists the teams that reach repository a.
func (s *Service) RepoTeams(ctx context.Context, a *repos.Access) ([]*org.Team, *org.Organization, error) {
	o, err := s.repoOrg(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	teams, err := s.stores.Orgs.RepoTeams(ctx, a.Repo.ID)
	return teams, o, err
}

func (s *Service) repoOrg(ctx context.Context, a *repos.Access) (*org.Organization, error) {
	if a.Repo.Owner.Kind != user.KindOrganization {
		return nil, ErrNoOrg
	}
	return s.stores.Orgs.Get(ctx, a.Repo.Owner.ID)
}

// RepoTeam finds team name of the repository's organisation and whether it
// reaches the repository.
func (s *Service) RepoTeam(ctx context.Context, a *repos.Access, name string) (*org.Team, *org.Organization, bool, error) {
	o, err := s.repoOrg(ctx, a)
	if err != nil {
		return nil, nil, false, err
	}
	t, err := s.stores.Orgs.GetTeamByName(ctx, o.ID, strings.TrimSpace(name))
	if err != nil {
		return nil, nil, false, err
	}
	has, err := s.teamHasRepo(ctx, t, a.Repo)
	return t, o, has, err
}

// SetRepoTeam gives (or takes) the repository to (from) team name. Only the
// repository's owners may, unless the organisation lets repository admins
// change team access (the route's RA already holds).
func (s *Service) SetRepoTeam(ctx context.Context, a *repos.Access, name string, give bool) error {
	t, o, has, err := s.RepoTeam(ctx, a, name)
	if err != nil {
		return err
	}
	if !o.RepoAdminChangeTeamAccess && !a.Perm.IsOwner() && !a.Caller.IsAdmin() {
		return errs.Forbidden("user is nonexistent or does not have admin access")
	}
	switch {
	case give && has:
		return errs.Invalid("team '"+t.Name+"' is already added to repo", "team")
	case !give && !has:
		return errs.Invalid("team '"+t.Name+"' was not added to repo", "team")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if give {
			return tx.Orgs.AddTeamRepo(ctx, t.ID, a.Repo.ID)
		}
		return tx.Orgs.RemoveTeamRepo(ctx, t.ID, a.Repo.ID)
	})
}
