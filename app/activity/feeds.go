package activity

import (
	"context"
	"strconv"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Feeds answers the four activity feeds and the heatmap.
type Feeds struct {
	stores ports.Stores
	clock  ports.Clock
}

// NewFeeds builds the feeds' use cases.
func NewFeeds(stores ports.Stores, clock ports.Clock) *Feeds {
	return &Feeds{stores: stores, clock: clock}
}

// Filter is a feed's query: Gitea's `date` (YYYY-MM-DD, empty for all),
// `only-performed-by` and the page.
type Filter struct {
	Date            string
	OnlyPerformedBy bool
	ports.ListOptions
}

// ParseFilter reads date and only-performed-by; bad values are 400.
func ParseFilter(date, onlyPerformedBy string, page ports.ListOptions) (Filter, error) {
	f := Filter{Date: date, ListOptions: page}
	if date != "" {
		if _, err := time.Parse(time.DateOnly, date); err != nil {
			return Filter{}, errs.BadRequest("date: must be YYYY-MM-DD")
		}
	}
	if onlyPerformedBy != "" {
		b, err := strconv.ParseBool(onlyPerformedBy)
		if err != nil {
			return Filter{}, errs.BadRequest("only-performed-by: must be true or false")
		}
		f.OnlyPerformedBy = b
	}
	return f, nil
}

// Page is one page of a feed with the accounts and repositories its
// records name, each loaded in one query.
type Page struct {
	List  []*activity.Activity
	Total int64
	Users map[int64]*user.User
	Repos map[int64]*repository.Repository
}

func viewer(c auth.Caller) activity.Viewer {
	v := users.Viewer(c)
	return activity.Viewer{ID: v.ID, IsAdmin: v.IsAdmin, PublicOnly: v.PublicOnly}
}

// apply narrows q by f: the day of `date` (UTC), and the actor.
func (f Filter) apply(q *ports.ActivityQuery, actor int64) {
	if f.Date != "" {
		day, _ := time.Parse(time.DateOnly, f.Date)
		q.From, q.To = day, day.AddDate(0, 0, 1)
	}
	if f.OnlyPerformedBy {
		q.ActUserID = actor
	}
	q.ListOptions = f.ListOptions
}

// User answers what u did and what happened in u's repositories, as c may see it.
func (s *Feeds) User(ctx context.Context, c auth.Caller, u *user.User, f Filter) (*Page, error) {
	hidden, publicOnly := activity.UserFeedVisibility(viewer(c), u.ID, u.HideActivity)
	if hidden {
		return &Page{}, nil
	}
	q := ports.ActivityQuery{UserID: u.ID, PublicOnly: publicOnly}
	f.apply(&q, u.ID)
	return s.page(ctx, q)
}

// Repo answers what happened in the repository the caller reads.
func (s *Feeds) Repo(ctx context.Context, a *repos.Access, f Filter) (*Page, error) {
	q := ports.ActivityQuery{RepoID: a.Repo.ID}
	f.apply(&q, 0)
	return s.page(ctx, q)
}

// Org answers what happened in the organisation's repositories: the public
// ones, and all of them for its owners and administrators.
func (s *Feeds) Org(ctx context.Context, a *orgs.Access, f Filter) (*Page, error) {
	q := ports.ActivityQuery{OwnerID: a.Org.ID, PublicOnly: activity.GroupFeedVisibility(viewer(a.Caller), a.Membership.IsOwner)}
	f.apply(&q, 0)
	return s.page(ctx, q)
}

// Team answers what happened in the team's repositories: all of them for
// its members and administrators, the public ones for others.
func (s *Feeds) Team(ctx context.Context, t *orgs.TeamAccess, f Filter) (*Page, error) {
	readsAll := t.IsMember || t.Org.Membership.IsOwner
	q := ports.ActivityQuery{TeamID: t.Team.ID, PublicOnly: activity.GroupFeedVisibility(viewer(t.Org.Caller), readsAll)}
	f.apply(&q, 0)
	return s.page(ctx, q)
}

func (s *Feeds) page(ctx context.Context, q ports.ActivityQuery) (*Page, error) {
	list, total, err := s.stores.Activities.List(ctx, q)
	if err != nil {
		return nil, err
	}
	p := &Page{List: list, Total: total, Users: map[int64]*user.User{}}
	if len(list) == 0 {
		p.Repos = map[int64]*repository.Repository{}
		return p, nil
	}
	var userIDs, repoIDs []int64
	for _, a := range list {
		userIDs = append(userIDs, a.ActUserID)
		repoIDs = append(repoIDs, a.RepoID)
	}
	us, err := s.stores.Users.GetByIDs(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	for _, u := range us {
		p.Users[u.ID] = u
	}
	for _, id := range userIDs {
		if id == user.ActionsUserID {
			p.Users[id] = user.NewActionsUser() // no account of its own
			break
		}
	}
	if p.Repos, err = s.stores.Repos.GetByIDs(ctx, repoIDs); err != nil {
		return nil, err
	}
	return p, nil
}

// Heatmap counts what u did over the last year in 15-minute buckets, as c
// may see it; empty when u keeps its activity private from c.
func (s *Feeds) Heatmap(ctx context.Context, c auth.Caller, u *user.User) ([]activity.HeatmapBucket, error) {
	hidden, publicOnly := activity.UserFeedVisibility(viewer(c), u.ID, u.HideActivity)
	if hidden {
		return []activity.HeatmapBucket{}, nil
	}
	return s.stores.Activities.Heatmap(ctx, u.ID, s.clock.Now().AddDate(-1, 0, 0), publicOnly)
}
