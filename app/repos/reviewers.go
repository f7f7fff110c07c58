package repos

import (
	"context"
	"sort"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Reviewers are the use cases of who may be asked to review a
// repository's pull requests.
type Reviewers struct{ *Service }

// Reviewers returns the reviewer use cases.
func (s *Service) Reviewers() Reviewers { return Reviewers{s} }

// List lists who may be asked to review in a, as Gitea's GetReviewers
// (with no poster to leave out): the collaborators, and in an
// organisation's repository the members of its teams that read the pull
// requests, active accounts only, by name; then a personal owner who is
// not among them.
func (s Reviewers) List(ctx context.Context, a *Access) ([]*user.User, error) {
	seen := map[int64]bool{}
	var out []*user.User
	addUser := func(u *user.User) {
		if u != nil && !seen[u.ID] && u.IsActive {
			seen[u.ID] = true
			out = append(out, u)
		}
	}
	const page = 50
	for p := 1; ; p++ {
		list, total, err := s.stores.Collaborators.List(ctx, a.Repo.ID, ports.ListOptions{Page: p, Limit: page})
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			if c.Mode >= permission.ModeRead {
				addUser(c.User)
			}
		}
		if int64(p*page) >= total {
			break
		}
	}
	if a.Repo.Owner.Kind == user.KindOrganization {
		teams, err := s.stores.Orgs.RepoTeams(ctx, a.Repo.ID)
		if err != nil {
			return nil, err
		}
		for _, t := range teams {
			if t.Units[permission.UnitPulls] < permission.ModeRead && t.Mode < permission.ModeAdmin {
				continue
			}
			for p := 1; ; p++ {
				members, total, err := s.stores.Orgs.TeamMembers(ctx, t.ID, ports.ListOptions{Page: p, Limit: page})
				if err != nil {
					return nil, err
				}
				for _, m := range members {
					addUser(m)
				}
				if int64(p*page) >= total {
					break
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LowerName < out[j].LowerName })
	if a.Repo.Owner.Kind == user.KindIndividual && !seen[a.Repo.Owner.ID] {
		owner, err := s.stores.Users.GetByID(ctx, a.Repo.Owner.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, owner)
	}
	return out, nil
}
