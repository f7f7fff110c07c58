package orgs

import (
	"context"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TeamMembers are the use cases of a team's members.
type TeamMembers struct{ *Service }

// TeamMembers returns the team membership use cases.
func (s *Service) TeamMembers() TeamMembers { return TeamMembers{s} }

// List lists one page of the team's members.
func (s TeamMembers) List(ctx context.Context, ta *TeamAccess, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Orgs.TeamMembers(ctx, ta.Team.ID, opts)
}

// Add puts u in the team (and so in the organisation).
func (s TeamMembers) Add(ctx context.Context, ta *TeamAccess, u *user.User) error {
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

// Remove takes u out of the team; the Owners team keeps its last member.
func (s TeamMembers) Remove(ctx context.Context, ta *TeamAccess, u *user.User) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.RemoveTeamMember(ctx, ta.Team.ID, u.ID)
	})
}

// Check answers whether u is in the team: nil or errs.ErrNotFound.
func (s TeamMembers) Check(ctx context.Context, ta *TeamAccess, u *user.User) error {
	in, err := s.stores.Orgs.IsTeamMember(ctx, ta.Team.ID, u.ID)
	if err != nil {
		return err
	}
	if !in {
		return errs.NotFound("user is not a member of the team")
	}
	return nil
}
