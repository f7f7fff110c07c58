package orgs

import (
	"context"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// TeamRepos are the use cases of the repositories a team reaches, seen
// from the team.
type TeamRepos struct{ *Service }

// TeamRepos returns the use cases of a team's repositories.
func (s *Service) TeamRepos() TeamRepos { return TeamRepos{s} }

// repoViewer is what a repository listing for c may show (as app/repos reads it).
func repoViewer(c auth.Caller) ports.RepoViewer {
	if c.User == nil {
		return ports.RepoViewer{PublicOnly: true}
	}
	return ports.RepoViewer{UserID: c.User.ID, IsAdmin: c.User.IsAdmin, Restricted: c.User.IsRestricted}
}

// List lists one page of the repositories the team reaches that the
// caller may see.
func (s TeamRepos) List(ctx context.Context, ta *TeamAccess, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	return s.stores.Repos.Search(ctx, ports.RepoSearch{TeamID: ta.Team.ID, Sort: "alpha",
		Viewer: repoViewer(ta.Org.Caller), ListOptions: opts})
}

// Add gives the team one repository of its organisation; the caller
// must administer the repository, as in Gitea.
func (s TeamRepos) Add(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
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

// Check answers whether the team reaches the repository: nil or 404.
func (s TeamRepos) Check(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
	ok, err := s.teamHasRepo(ctx, ta.Team, r.Repo)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFound("repository is not in the team")
	}
	return nil
}

// Remove takes a repository from the team; the caller must
// administer the repository.
func (s TeamRepos) Remove(ctx context.Context, ta *TeamAccess, r *repos.Access) error {
	if err := checkTeamRepoChange(ta, r); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.RemoveTeamRepo(ctx, ta.Team.ID, r.Repo.ID)
	})
}
