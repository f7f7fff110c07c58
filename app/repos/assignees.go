package repos

import (
	"context"
	"sort"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Assignees are the use cases of who may be assigned a repository's issues.
type Assignees struct{ *Service }

// Assignees returns the assignee use cases.
func (s *Service) Assignees() Assignees { return Assignees{s} }

// List lists who may be assigned issues in a: the personal owner and
// collaborators with write access, active accounts only, ordered by name as
// Gitea's GetRepoAssignees does.
func (s Assignees) List(ctx context.Context, a *Access) ([]*user.User, error) {
	all, err := s.assigneeCandidates(ctx, a)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, u := range all {
		if u.IsActive {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LowerName < out[j].LowerName })
	return out, nil
}

// assigneeCandidates gathers the personal owner and the collaborators who may write.
func (s Assignees) assigneeCandidates(ctx context.Context, a *Access) ([]*user.User, error) {
	var out []*user.User
	if a.Repo.Owner.Kind == user.KindIndividual {
		owner, err := s.stores.Users.GetByID(ctx, a.Repo.Owner.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, owner)
	}
	const page = 50
	for p := 1; ; p++ {
		list, total, err := s.stores.Collaborators.List(ctx, a.Repo.ID, ports.ListOptions{Page: p, Limit: page})
		if err != nil {
			return nil, err
		}
		for _, c := range list {
			if c.Mode >= permission.ModeWrite {
				out = append(out, c.User)
			}
		}
		if int64(p*page) >= total {
			return out, nil
		}
	}
}
