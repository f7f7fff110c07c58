// Package pulls holds the use cases of pull requests: opening, listing,
// editing, checking mergeability in the background, comparing, merging and
// updating. A pull request is an issue (app/issues keeps that part) plus
// what domain/pull models; the rules of who may do what live there.
package pulls

import (
	"context"
	"errors"
	"log/slog"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Service runs the pull request use cases.
type Service struct {
	stores   ports.Stores
	tx       ports.Transactor
	clock    ports.Clock
	events   ports.Events
	git      ports.GitContent
	storage  ports.GitStorage
	pulls    ports.GitPulls
	content  *content.Service
	issues   *issues.Service
	repos    *repos.Service
	jobs     *jobs.Runner
	settings site.Settings
	// stamps say whether the database changed since a page was listed (list_stamps.go).
	stamps ports.ChangeStamps
	log    *slog.Logger
	// onChecked runs after a check is recorded (automatic merges).
	onChecked func(ctx context.Context, pullID int64)
}

// NewService builds the pull request use cases and registers their
// background jobs.
func NewService(stores ports.Stores, tx ports.Transactor, clock ports.Clock, events ports.Events,
	git ports.GitContent, storage ports.GitStorage, gp ports.GitPulls, cs *content.Service, is *issues.Service,
	rs *repos.Service, ts *transport.Service, runner *jobs.Runner, settings site.Settings, stamps ports.ChangeStamps,
	log *slog.Logger) *Service {
	s := &Service{stores: stores, tx: tx, clock: clock, events: events, git: git, storage: storage, pulls: gp,
		content: cs, issues: is, repos: rs, jobs: runner, settings: settings, stamps: stamps, log: log}
	s.registerJobs(runner)
	s.registerAutoMerge(runner)
	s.registerOutdateJobs(runner)
	is.UsePullRules(reopenRule{s})
	ts.OnPush(s.recordPush)
	rs.OnBranchRuleChange(s.recheckPullsIntoRule)
	cs.OnStatus(s.recordStatus)
	return s
}

// errPullNotFound answers an absent pull request.
var errPullNotFound = errs.NotFound("pull request does not exist")

// pathOf is where a repository's Git data lives.
func pathOf(r *repository.Repository) ports.RepoPath {
	return ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
}

// Open finds the pull request with this index in a's repository (the
// route's Pulls code has checked that the caller reads pull requests).
func (s *Service) Open(ctx context.Context, a *repos.Access, index int64) (*issue.Issue, *pull.PullRequest, error) {
	if index <= 0 {
		return nil, nil, errPullNotFound
	}
	i, err := s.stores.Issues.GetByIndex(ctx, a.Repo.ID, index)
	if errors.Is(err, errs.ErrNotFound) || (err == nil && !i.IsPull) {
		return nil, nil, errPullNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	p, err := s.stores.Pulls.GetByIssueID(ctx, i.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errPullNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	return i, p, nil
}

// View is a pull request with everything Gitea's PullRequest JSON shows.
type View struct {
	*issues.IssueView
	Pull *pull.PullRequest
	// Head is the head repository (with its owner); nil once deleted.
	Head *repository.Repository
	// BaseOwner and HeadOwner are the accounts owning the base and head
	// repositories, read with the page's other accounts; nil when gone
	// (HeadOwner also when Head is nil).
	BaseOwner, HeadOwner *user.User
	// BaseCommitID is the base branch's tip ("" when the branch is gone).
	BaseCommitID string
	// MergedBy is who merged it; nil while unmerged.
	MergedBy *user.User
	// Mergeable is what the API calls mergeable: checked and mergeable
	// (or empty), and not a draft.
	Mergeable bool
	// RequestedReviewers and RequestedTeams are who is asked to review and
	// has not answered yet, in the order they were asked.
	RequestedReviewers []*user.User
	RequestedTeams     []*org.Team
}

// views renders a page of pull request issues in a fixed number of
// statements whatever its length: the pull requests, the fork heads, then
// the issue views (without attachments) with every account the page shows (posters, assignees,
// mergers, the owners of the base and head repositories) in one read. The
// base branches' tips come from Git in one look at a warm repository
// handle.
func (s *Service) views(ctx context.Context, st ports.Stores, base *repository.Repository, list []*issue.Issue) ([]*View, error) {
	if len(list) == 0 {
		return []*View{}, nil
	}
	issueIDs := make([]int64, 0, len(list))
	for _, i := range list {
		if i.IsPull {
			issueIDs = append(issueIDs, i.ID)
		}
	}
	prs, err := st.Pulls.ByIssueIDs(ctx, issueIDs)
	if err != nil {
		return nil, err
	}
	var headIDs []int64
	var baseBranches []string
	moreUsers := []int64{base.Owner.ID}
	seen := map[string]bool{}
	for _, p := range prs {
		if p.HeadRepoID != 0 && p.HeadRepoID != base.ID {
			headIDs = append(headIDs, p.HeadRepoID)
		}
		if p.MergedByID != 0 {
			moreUsers = append(moreUsers, p.MergedByID)
		}
		if !seen[p.BaseBranch] {
			seen[p.BaseBranch] = true
			baseBranches = append(baseBranches, p.BaseBranch)
		}
	}
	heads := map[int64]*repository.Repository{base.ID: base}
	if len(headIDs) > 0 {
		found, err := st.Repos.GetByIDs(ctx, headIDs)
		if err != nil {
			return nil, err
		}
		for id, r := range found {
			heads[id] = r
			moreUsers = append(moreUsers, r.Owner.ID)
		}
	}
	// A pull request's JSON shows no attachments.
	ivs, users, err := s.issues.ViewsAndUsers(ctx, st, []*repository.Repository{base}, list, prs,
		ports.IssuePageOptions{MoreUsers: moreUsers, NoAttachments: true})
	if err != nil {
		return nil, err
	}
	tips, err := s.git.BranchTips(ctx, pathOf(base), baseBranches)
	if err != nil && !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	requests, err := s.reviewRequestsOf(ctx, st, ivs)
	if err != nil {
		return nil, err
	}
	out := make([]*View, 0, len(ivs))
	for _, iv := range ivs {
		p := iv.Pull
		if p == nil {
			return nil, errs.NotFound("pull request of issue does not exist")
		}
		v := &View{IssueView: iv, Pull: p, Head: heads[p.HeadRepoID], BaseOwner: users[base.Owner.ID],
			BaseCommitID: tips[p.BaseBranch]}
		if v.Head != nil {
			v.HeadOwner = users[v.Head.Owner.ID]
		}
		if p.MergedByID != 0 {
			v.MergedBy = users[p.MergedByID]
			if v.MergedBy == nil {
				v.MergedBy = issues.Ghost()
			}
		}
		v.RequestedReviewers, v.RequestedTeams = requests.of(iv.Issue.ID)
		v.Mergeable = !p.HasMerged && (p.Status == pull.StatusMergeable || p.Status == pull.StatusEmpty) &&
			!pull.IsWorkInProgress(iv.Issue.Title)
		out = append(out, v)
	}
	return out, nil
}

// view renders one pull request.
func (s *Service) view(ctx context.Context, st ports.Stores, base *repository.Repository, i *issue.Issue) (*View, error) {
	vs, err := s.views(ctx, st, base, []*issue.Issue{i})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// headAccess opens the head repository of a pull request as caller c: nil
// when it was deleted.
func (s *Service) headAccess(ctx context.Context, c auth.Caller, a *repos.Access, p *pull.PullRequest) (*repos.Access, error) {
	if p.HeadRepoID == a.Repo.ID {
		return a, nil
	}
	if p.HeadRepoID == 0 {
		return nil, nil
	}
	h, err := s.repos.OpenByID(ctx, c, p.HeadRepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return &repos.Access{Caller: c}, nil
	}
	return h, err
}

// permOf is an access's permission, or none for a repository the caller
// cannot see.
func permOf(a *repos.Access) permission.Permission {
	if a == nil || a.Repo == nil {
		return permission.Permission{}
	}
	return a.Perm
}

// pageRequests are the standing review requests of a page of pull
// requests, with their users and teams.
type pageRequests struct {
	byIssue map[int64][]*pull.Review
	users   map[int64]*user.User
	teams   map[int64]*org.Team
}

// of returns the users and teams asked to review issue id.
func (r pageRequests) of(id int64) ([]*user.User, []*org.Team) {
	var us []*user.User
	var ts []*org.Team
	for _, req := range r.byIssue[id] {
		if u := r.users[req.ReviewerID]; u != nil {
			us = append(us, u)
		}
		if t := r.teams[req.ReviewerTeamID]; t != nil {
			ts = append(ts, t)
		}
	}
	return us, ts
}

// reviewRequestsOf loads the standing review requests of a page of pull
// requests in three queries (requests, users, teams), whatever its length.
func (s *Service) reviewRequestsOf(ctx context.Context, st ports.Stores, ivs []*issues.IssueView) (pageRequests, error) {
	out := pageRequests{byIssue: map[int64][]*pull.Review{}}
	ids := make([]int64, 0, len(ivs))
	for _, iv := range ivs {
		ids = append(ids, iv.Issue.ID)
	}
	all, err := st.PullReviews.All(ctx, ids)
	if err != nil {
		return out, err
	}
	var userIDs, teamIDs []int64
	for id, list := range all {
		for _, r := range list {
			if r.State == pull.ReviewRequest {
				out.byIssue[id] = append(out.byIssue[id], r)
				userIDs = append(userIDs, r.ReviewerID)
				teamIDs = append(teamIDs, r.ReviewerTeamID)
			}
		}
	}
	if out.users, err = s.usersByID(ctx, st, userIDs); err != nil {
		return out, err
	}
	out.teams, err = st.PullReviews.Teams(ctx, positiveUnique(teamIDs))
	return out, err
}
