package issues

import (
	"context"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// IssueView is an issue with everything Gitea's Issue JSON shows of it.
type IssueView struct {
	Issue *issue.Issue
	// Repo is the issue's repository, with its owner.
	Repo *repository.Repository
	// Poster is the author, or Ghost() when the account is gone.
	Poster *user.User
	// Labels are by name.
	Labels []*issue.Label
	// Milestone is nil when none.
	Milestone *issue.Milestone
	// Assignees are by user id; deleted accounts are left out.
	Assignees []*user.User
	// Attachments are the issue's own files (not its comments'), by id.
	Attachments []*issue.Attachment
	// Pull is the pull request of a pull request's issue; nil otherwise.
	Pull *pull.PullRequest
}

// Ghost is Gitea's stand-in for a deleted account.
func Ghost() *user.User {
	return &user.User{ID: -1, Name: "Ghost", LowerName: "ghost", Visibility: user.VisibilityPublic}
}

// Views builds the views of list with st in a fixed number of queries,
// whatever its length: one per kind of record (labels, assignees, own
// attachments, milestones, users; see ports.IssueStore.PageRecords). repos
// must hold the repositories of the issues (a missing one is an internal
// error). Other areas (pins, dependencies, webhooks) render issues through it.
func (s *Service) Views(ctx context.Context, st ports.Stores, repos []*repository.Repository, list []*issue.Issue) ([]*IssueView, error) {
	out, _, err := s.ViewsAndUsers(ctx, st, repos, list, nil, ports.IssuePageOptions{})
	return out, err
}

// ViewsAndUsers is Views for a page that shows more accounts than posters
// and assignees (pull requests: their mergers, the owners of their head
// repositories): those of opt.MoreUsers that exist come back in users, read
// in the same query; opt.NoAttachments leaves the attachments out. pulls
// are the page's pull requests by issue id when the caller has read them
// already (nil reads them).
func (s *Service) ViewsAndUsers(ctx context.Context, st ports.Stores, repos []*repository.Repository, list []*issue.Issue,
	pulls map[int64]*pull.PullRequest, opt ports.IssuePageOptions) (_ []*IssueView, users map[int64]*user.User, _ error) {
	out := make([]*IssueView, 0, len(list))
	if len(list) == 0 {
		return out, map[int64]*user.User{}, nil
	}
	repoByID := make(map[int64]*repository.Repository, len(repos))
	for _, r := range repos {
		repoByID[r.ID] = r
	}
	rec, err := st.Issues.PageRecords(ctx, list, opt)
	if err != nil {
		return nil, nil, err
	}
	if pulls == nil {
		if pulls, err = pullsOf(ctx, st, list); err != nil {
			return nil, nil, err
		}
	}
	for _, i := range list {
		r := repoByID[i.RepoID]
		if r == nil {
			return nil, nil, errs.NotFound("repository of issue does not exist")
		}
		v := &IssueView{Issue: i, Repo: r, Poster: rec.Users[i.PosterID], Labels: rec.Labels[i.ID],
			Milestone: rec.Milestones[i.MilestoneID], Attachments: rec.Attachments[i.ID], Pull: pulls[i.ID]}
		if v.Poster == nil {
			v.Poster = Ghost()
		}
		for _, id := range rec.Assignees[i.ID] {
			if u := rec.Users[id]; u != nil {
				v.Assignees = append(v.Assignees, u)
			}
		}
		out = append(out, v)
	}
	return out, rec.Users, nil
}

// pullsOf loads the pull requests of the pull request issues of list, in
// one query when there is any.
func pullsOf(ctx context.Context, st ports.Stores, list []*issue.Issue) (map[int64]*pull.PullRequest, error) {
	var ids []int64
	for _, i := range list {
		if i.IsPull {
			ids = append(ids, i.ID)
		}
	}
	if len(ids) == 0 || st.Pulls == nil {
		return nil, nil
	}
	return st.Pulls.ByIssueIDs(ctx, ids)
}

// view builds one issue's view after a write, from the committed rows.
func (s Issues) view(ctx context.Context, repo *repository.Repository, i *issue.Issue) (*IssueView, error) {
	vs, err := s.Views(ctx, s.stores, []*repository.Repository{repo}, []*issue.Issue{i})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// Filter is what both issue listings (GET R/issues and GET
// /repos/issues/search) filter by, read from the query in one place.
type Filter struct {
	// State is "open" (default), "closed" or "all".
	State string
	// Type is "issues", "pulls" or "" for both.
	Type string
	// Labels and Milestones are names (milestones, in one repository, also
	// ids); an issue must carry all the labels and be in one of the
	// milestones.
	Labels, Milestones []string
	Keyword            string
	// Since and Before bound the update time; zero is no bound.
	Since, Before time.Time
}

// SearchInput is the query of GET /repos/issues/search.
type SearchInput struct {
	Filter
	PriorityRepoID int64
	// Assigned, Created and Mentioned keep the caller's issues.
	Assigned, Created, Mentioned bool
	// Owner and Team narrow to an owner's repositories or (with Owner, an
	// organisation) a team's.
	Owner, Team string
	ports.ListOptions
}

// Search lists the issues and pull requests of every repository c may
// read, matching in, in one query (the repository visibility rule runs in
// SQL), and their total.
func (s Issues) Search(ctx context.Context, c auth.Caller, in SearchInput) ([]*IssueView, int64, error) {
	labels, err := filterNames("labels", in.Labels)
	if err != nil {
		return nil, 0, err
	}
	milestones, err := filterNames("milestones", in.Milestones)
	if err != nil {
		return nil, 0, err
	}
	q := ports.IssueQuery{State: stateFilter(in.State), Keyword: in.Keyword, LabelNames: labels,
		MilestoneNames: milestones, PriorityRepoID: in.PriorityRepoID, Since: in.Since, Before: in.Before,
		ListOptions: in.ListOptions, Viewer: &ports.IssueViewer{PublicOnly: c.Scopes().PublicOnly()}}
	if c.User != nil {
		q.Viewer.UserID, q.Viewer.IsAdmin, q.Viewer.Restricted = c.User.ID, c.User.IsAdmin, c.User.IsRestricted
		if in.Assigned {
			q.AssigneeID = c.User.ID
		}
		if in.Created {
			q.PosterID = c.User.ID
		}
		if in.Mentioned {
			q.MentionedID = c.User.ID
		}
	}
	switch in.Type {
	case "issues":
		q.IsPull = new(bool)
	case "pulls":
		t := true
		q.IsPull = &t
	}
	if in.Owner != "" {
		owner, err := s.stores.Users.GetByName(ctx, in.Owner)
		if err != nil {
			if errs.IgnoreNotFound(err) == nil {
				return nil, 0, errs.BadRequest("Owner not found")
			}
			return nil, 0, err
		}
		q.OwnerID = owner.ID
	}
	if in.Team != "" {
		if in.Owner == "" {
			return nil, 0, errs.BadRequest("Owner organisation is required for filtering on team")
		}
		team, err := s.stores.Orgs.GetTeamByName(ctx, q.OwnerID, in.Team)
		if err != nil {
			if errs.IgnoreNotFound(err) == nil {
				return nil, 0, errs.BadRequest("Team not found")
			}
			return nil, 0, err
		}
		q.TeamID = team.ID
	}
	list, total, err := s.stores.Issues.List(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	var repoIDs []int64
	for _, i := range list {
		repoIDs = append(repoIDs, i.RepoID)
	}
	repos, err := s.stores.Issues.Repositories(ctx, uniqueIDs(repoIDs))
	if err != nil {
		return nil, 0, err
	}
	views, err := s.Views(ctx, s.stores, repos, list)
	return views, total, err
}
