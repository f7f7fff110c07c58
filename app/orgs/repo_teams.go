package orgs

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// RepoTeams are the use cases of the teams that reach a repository, seen
// from the repository.
type RepoTeams struct{ *Service }

// RepoTeams returns the use cases of a repository's teams.
func (s *Service) RepoTeams() RepoTeams { return RepoTeams{s} }

// ErrNoOrg refuses team routes on a repository no organisation owns; the
// HTTP adapter answers it with Gitea's 405.
var ErrNoOrg = errors.New("repo is not owned by an organization")

// List lists the teams that reach repository a.
func (s RepoTeams) List(ctx context.Context, a *repos.Access) ([]*org.Team, *org.Organization, error) {
	o, err := s.repoOrg(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	teams, err := s.stores.Orgs.RepoTeams(ctx, a.Repo.ID)
	return teams, o, err
}

func (s RepoTeams) repoOrg(ctx context.Context, a *repos.Access) (*org.Organization, error) {
	if a.Repo.Owner.Kind != user.KindOrganization {
		return nil, ErrNoOrg
	}
	return s.stores.Orgs.Get(ctx, a.Repo.Owner.ID)
}

// Get finds team name of the repository's organisation and whether it
// reaches the repository.
func (s RepoTeams) Get(ctx context.Context, a *repos.Access, name string) (*org.Team, *org.Organization, bool, error) {
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

// Set gives (or takes) the repository to (from) team name. Only the
// repository's owners may, unless the organisation lets repository admins
// change team access (the route's RA already holds).
func (s RepoTeams) Set(ctx context.Context, a *repos.Access, name string, give bool) error {
	t, o, has, err := s.Get(ctx, a, name)
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
