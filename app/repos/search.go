package repos

import (
	"context"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// sorts are the accepted values of the sort parameter.
var sorts = map[string]string{
	"": "", "alpha": "alpha", "created": "created", "updated": "updated", "size": "size",
	"git_size": "size", "id": "id", "stars": "stars", "forks": "forks", "newest": "created",
	"oldest": "created", "recentupdate": "updated", "leastupdate": "updated",
}

// SearchQuery is a repository search (Gitea's GET /repos/search parameters).
type SearchQuery struct {
	Keyword            string
	IncludeDescription bool
	TopicOnly          bool
	UID                int64
	Exclusive          bool
	// IncludePrivate is Gitea's "private" parameter (default true).
	IncludePrivate bool
	// IsPrivate, Template and Archived filter when set.
	IsPrivate, Template, Archived *bool
	// Mode is fork, source, mirror or collaborative; "" for all.
	Mode        string
	Sort, Order string
	StarredBy   int64
	ports.ListOptions
}

// Search lists the repositories c may see that match q.
func (s *Service) Search(ctx context.Context, c auth.Caller, q SearchQuery) ([]*repository.Repository, int64, error) {
	sort, ok := sorts[q.Sort]
	if !ok {
		return nil, 0, errs.Invalid("invalid sort: "+q.Sort, "sort")
	}
	if sort == "" {
		sort = "alpha" // Gitea's default order
	}
	desc := false
	switch q.Order {
	case "", "asc":
		desc = q.Sort == "newest" || q.Sort == "recentupdate"
	case "desc":
		desc = true
	default:
		return nil, 0, errs.Invalid("invalid order: "+q.Order, "order")
	}
	rs := ports.RepoSearch{
		Keyword: q.Keyword, IncludeDescription: q.IncludeDescription, TopicOnly: q.TopicOnly,
		OwnerID: q.UID, Exclusive: q.Exclusive, ExcludePrivate: !q.IncludePrivate,
		IsPrivate: q.IsPrivate, Template: q.Template, Archived: q.Archived,
		StarredBy: q.StarredBy, Sort: sort, Desc: desc, Viewer: viewer(c), ListOptions: q.ListOptions,
	}
	if !q.IncludePrivate && !rs.Viewer.Restricted {
		// Gitea's private=false is the public listing, as an anonymous caller
		// sees it: no private repositories and none of non-public owners.
		// Restricted users keep their narrower view.
		rs.Viewer.PublicOnly = true
	}
	yes, no := true, false
	switch q.Mode {
	case "":
	case "fork":
		rs.Fork = &yes
	case "source":
		rs.Fork, rs.Mirror = &no, &no
	case "mirror":
		rs.Mirror = &yes
	case "collaborative":
		// As in Gitea: no mirrors, and collaborations of the uid user only
		// when there is one to restrict to.
		rs.Mirror = &no
		rs.Collaborative = q.UID != 0
	default:
		return nil, 0, errs.Invalid("invalid mode: "+q.Mode, "mode")
	}
	return s.stores.Repos.Search(ctx, rs)
}

// ListOwned lists owner's repositories that c may see: GET
// /users/{username}/repos in creation order, and /user/repos for the
// caller's own, which also includes those it collaborates on, by name (as
// Gitea orders each).
func (s *Service) ListOwned(ctx context.Context, c auth.Caller, owner *user.User, withCollaborations bool, opts ports.ListOptions) ([]*repository.Repository, int64, error) {
	sort := "id"
	if withCollaborations {
		sort = "alpha"
	}
	return s.stores.Repos.Search(ctx, ports.RepoSearch{
		OwnerID: owner.ID, Exclusive: !withCollaborations, Sort: sort, Viewer: viewer(c), ListOptions: opts,
	})
}

// Parent returns the fork parent of r as c may see it, nil when r is no fork
// or c may not see its parent.
func (s *Service) Parent(ctx context.Context, c auth.Caller, r *repository.Repository) (*Access, error) {
	if r.ForkID == 0 {
		return nil, nil
	}
	a, err := s.OpenByID(ctx, c, r.ForkID)
	if err != nil {
		if errs.IgnoreNotFound(err) == nil {
			return nil, nil
		}
		return nil, err
	}
	return a, nil
}

// PermissionsFor computes c's permission in each of list, for listings that
// show a permissions object per repository, with one relations query for
// the whole page.
func (s *Service) PermissionsFor(ctx context.Context, c auth.Caller, list []*repository.Repository) ([]*Access, error) {
	a := c.Actor()
	facts := make([]permission.Repo, len(list))
	for i, r := range list {
		facts[i] = r.Facts()
	}
	var rels map[int64]permission.Relations
	if a.Kind == permission.ActorUser && !a.IsSiteAdmin {
		var err error
		if rels, err = s.stores.Repos.RelationsMany(ctx, facts, a.UserID); err != nil {
			return nil, err
		}
	}
	out := make([]*Access, len(list))
	for i, r := range list {
		out[i] = &Access{Repo: r, Perm: permission.Compute(a, facts[i], rels[r.ID]), Caller: c}
	}
	return out, nil
}

// Owners loads the owning accounts of list in one query, keyed by id; the
// caller's own account is taken as it is.
func (s *Service) Owners(ctx context.Context, c auth.Caller, list []*repository.Repository) (map[int64]*user.User, error) {
	out := make(map[int64]*user.User, len(list))
	var ids []int64
	for _, r := range list {
		if _, ok := out[r.Owner.ID]; ok {
			continue
		}
		if c.User != nil && c.User.ID == r.Owner.ID {
			out[r.Owner.ID] = c.User
			continue
		}
		out[r.Owner.ID] = nil
		ids = append(ids, r.Owner.ID)
	}
	if len(ids) == 0 {
		return out, nil
	}
	users, err := s.stores.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}

// UsersByID loads accounts by id in one query, keyed by id.
func (s *Service) UsersByID(ctx context.Context, ids ...int64) (map[int64]*user.User, error) {
	list, err := s.stores.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*user.User, len(list))
	for _, u := range list {
		out[u.ID] = u
	}
	return out, nil
}
