package pulls

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Messages of refused pull requests, Gitea's words.
const (
	msgNoChanges    = "Invalid PullRequest: There are no changes between the head and the base"
	msgNotBranches  = "Invalid PullRequest: base and head must be branches"
	msgHeadNotFound = "head repository or branch does not exist"
)

// CreateInput is Gitea's CreatePullRequestOption.
type CreateInput struct {
	// Head is "branch", "owner:branch" or "owner/repo:branch"; Base a branch.
	Head, Base  string
	Title, Body string
	Assignee    string
	Assignees   []string
	Milestone   int64
	Labels      []int64
	Deadline    *time.Time
}

// headSide is a resolved head: its repository access and branch.
type headSide struct {
	access *repos.Access
	branch string
	commit string
}

// resolveHead reads "branch", "owner:branch" or "owner/repo:branch": the
// head repository is the base itself, the owner's fork of it, or its
// parent owned by owner (Gitea's parseCompareInfo).
func (s *Service) resolveHead(ctx context.Context, a *repos.Access, head string) (*repos.Access, string, error) {
	owner, branch, cross := strings.Cut(head, ":")
	if !cross {
		return a, head, nil
	}
	name := ""
	if o, n, ok := strings.Cut(owner, "/"); ok {
		owner, name = o, n
	}
	if branch == "" || owner == "" {
		return nil, "", errs.NotFound(msgHeadNotFound)
	}
	if strings.EqualFold(owner, a.Repo.Owner.Name) && (name == "" || strings.EqualFold(name, a.Repo.Name)) {
		return a, branch, nil
	}
	var candidate *repository.Repository
	if name != "" {
		r, err := s.stores.Repos.GetByFullName(ctx, owner, name)
		if err != nil {
			return nil, "", errs.NotFound(msgHeadNotFound)
		}
		candidate = r
	} else {
		r, err := s.forkOwnedBy(ctx, owner, a.Repo.ID)
		if errors.Is(err, errs.ErrNotFound) && a.Repo.ForkID != 0 {
			parent, perr := s.stores.Repos.GetByID(ctx, a.Repo.ForkID)
			if perr == nil && strings.EqualFold(parent.Owner.Name, owner) {
				r, err = parent, nil
			}
		}
		if err != nil {
			return nil, "", errs.NotFound(msgHeadNotFound)
		}
		candidate = r
	}
	// The head must be the base's fork, its parent, or a sibling fork.
	related := candidate.ForkID == a.Repo.ID || candidate.ID == a.Repo.ForkID ||
		(a.Repo.ForkID != 0 && candidate.ForkID == a.Repo.ForkID)
	if !related {
		return nil, "", errs.NotFound(msgHeadNotFound)
	}
	h, err := s.repos.OpenByID(ctx, a.Caller, candidate.ID)
	if err != nil {
		return nil, "", errs.NotFound(msgHeadNotFound)
	}
	return h, branch, nil
}

// forkOwnedBy finds the fork of repository id that owner owns, private or
// not: the search looks as the owner, who sees its own repositories (the
// caller's right to read the fork is checked afterwards).
func (s *Service) forkOwnedBy(ctx context.Context, owner string, id int64) (*repository.Repository, error) {
	u, err := s.stores.Users.GetByName(ctx, owner)
	if err != nil {
		return nil, err
	}
	list, _, err := s.stores.Repos.Search(ctx, ports.RepoSearch{OwnerID: u.ID, Exclusive: true, ForkOf: id,
		ListOptions: ports.ListOptions{Page: 1, Limit: 1}, Viewer: ports.RepoViewer{UserID: u.ID}})
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errs.NotFound(msgHeadNotFound)
	}
	return list[0], nil
}

// Create opens a pull request from in.Head into in.Base (the route has
// checked T and NA; the group's Pulls and RR(code)). The head's commits
// are copied to refs/pull/<index>/head, and the mergeability check is
// queued in the same transaction as the pull request.
func (s *Service) Create(ctx context.Context, a *repos.Access, in CreateInput) (*View, error) {
	if strings.TrimSpace(in.Head) == "" || strings.TrimSpace(in.Base) == "" {
		var fields []string
		if strings.TrimSpace(in.Head) == "" {
			fields = append(fields, "head")
		}
		if strings.TrimSpace(in.Base) == "" {
			fields = append(fields, "base")
		}
		return nil, errs.Invalid("Required", fields...)
	}
	if in.Head == in.Base {
		return nil, errs.Invalid(msgNoChanges, "head", "base")
	}
	h, branch, err := s.resolveHead(ctx, a, in.Head)
	if err != nil {
		return nil, err
	}
	if err := pull.CanOpen(a.Perm, permOf(h), a.Repo); err != nil {
		return nil, err
	}
	if h.Repo.ID == a.Repo.ID && branch == in.Base {
		return nil, errs.Invalid(msgNoChanges, "head", "base")
	}
	baseTip, err := s.git.Branch(ctx, pathOf(a.Repo), in.Base)
	if errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrInvalid) {
		return nil, errs.Invalid(msgNotBranches, "base")
	}
	if err != nil {
		return nil, err
	}
	headTip, err := s.git.Branch(ctx, pathOf(h.Repo), branch)
	if errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrInvalid) {
		return nil, errs.Invalid(msgNotBranches, "head")
	}
	if err != nil {
		return nil, err
	}
	if existing, err := s.stores.Pulls.FindUnmerged(ctx, a.Repo.ID, in.Base, h.Repo.ID, branch); err == nil {
		return nil, errs.Conflict("pull request already exists for these targets [id: " + itoa(existing.ID) +
			", issue_id: " + itoa(existing.Index) + ", head_repo_id: " + itoa(existing.HeadRepoID) +
			", base_repo_id: " + itoa(existing.BaseRepoID) + ", head_branch: " + existing.HeadBranch +
			", base_branch: " + existing.BaseBranch + "]")
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	// The head's objects must be in the base repository before anything
	// refers to them; a staging ref per head keeps them reachable.
	staged := stagingRef(h.Repo.ID, branch)
	if _, err := s.pulls.CopyRef(ctx, pathOf(h.Repo), "refs/heads/"+branch, pathOf(a.Repo), staged); err != nil {
		return nil, err
	}
	ahead, err := s.pulls.IsAncestor(ctx, pathOf(a.Repo), headTip.Commit.ID, baseTip.Commit.ID)
	if err != nil {
		return nil, err
	}
	if ahead {
		return nil, errs.Invalid(msgNoChanges, "head")
	}
	p := &pull.PullRequest{BaseRepoID: a.Repo.ID, HeadRepoID: h.Repo.ID, HeadBranch: branch, BaseBranch: in.Base,
		HeadCommitID: headTip.Commit.ID, Check: pull.Check{Status: pull.StatusChecking},
		AllowMaintainerEdit: a.Repo.Merge.DefaultAllowMaintainerEdit}
	iv, err := s.issues.Issues().Create(ctx, a, issues.CreateInput{Title: in.Title, Body: in.Body,
		Assignee: in.Assignee, Assignees: in.Assignees, Milestone: in.Milestone, Labels: in.Labels,
		Deadline: in.Deadline, IsPull: true,
		WithIssue: func(ctx context.Context, tx ports.Stores, i *issue.Issue) error {
			p.IssueID, p.Index = i.ID, i.Index
			if err := tx.Pulls.Create(ctx, p); err != nil {
				return err
			}
			return enqueueCheck(ctx, tx, p.ID)
		}})
	if err != nil {
		return nil, err
	}
	// Point refs/pull/<index>/head at the head now; the queued check does
	// it again, so a crash right here loses nothing.
	if _, err := s.pulls.CopyRef(ctx, pathOf(a.Repo), staged, pathOf(a.Repo), p.HeadRef()); err != nil {
		s.log.Warn("pointing the new pull request's head ref", "repo", a.Repo.ID, "index", p.Index, "err", err)
	}
	s.jobs.Notify()
	return s.view(ctx, s.stores, a.Repo, iv.Issue)
}

// stagingRef keeps a head's objects reachable in the base repository
// while its pull request is being created.
func stagingRef(headRepoID int64, branch string) string {
	return "refs/pull-staging/" + itoa(headRepoID) + "/" + branch
}

// Get returns one pull request.
func (s *Service) Get(ctx context.Context, a *repos.Access, index int64) (*View, error) {
	i, _, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, s.stores, a.Repo, i)
}

// ListInput is Gitea's pull request list filter.
type ListInput struct {
	State, Sort string
	Milestone   int64
	Labels      []int64
	// Poster is a user name; an unknown one is a 400, as Gitea answers.
	Poster     string
	BaseBranch string
	ports.ListOptions
}

// listSorts maps Gitea's pull request sorts to the issue listing's.
var listSorts = map[string]string{
	"": "latest", "oldest": "oldest", "recentupdate": "recentupdate", "leastupdate": "leastupdate",
	"mostcomment": "mostcomment", "leastcomment": "leastcomment", "priority": "priority",
	"recentclose": "recentupdate",
}

// List returns one page of the repository's pull requests and the total,
// in a fixed number of statements.
func (s *Service) List(ctx context.Context, a *repos.Access, in ListInput) ([]*View, int64, error) {
	t := true
	q := ports.IssueQuery{RepoIDs: []int64{a.Repo.ID}, IsPull: &t, State: in.State, LabelIDs: in.Labels,
		BaseBranch: in.BaseBranch, ListOptions: in.ListOptions}
	switch in.State {
	case "", "open", "closed", "all":
	default:
		return nil, 0, errs.Invalid("state must be open, closed or all", "state")
	}
	sort, ok := listSorts[in.Sort]
	if !ok {
		return nil, 0, errs.Invalid("unknown sort", "sort")
	}
	q.Sort = sort
	if in.Milestone > 0 {
		q.MilestoneIDs = []int64{in.Milestone}
	}
	if in.Poster != "" {
		u, err := s.stores.Users.GetByName(ctx, in.Poster)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, 0, errs.BadRequest("user redirect does not exist [name: " + in.Poster + "]")
		}
		if err != nil {
			return nil, 0, err
		}
		q.PosterID = u.ID
	}
	list, total, err := s.stores.Issues.List(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	vs, err := s.views(ctx, s.stores, a.Repo, list)
	return vs, total, err
}

// Pinned returns the repository's pinned pull requests, in pin order.
func (s *Service) Pinned(ctx context.Context, a *repos.Access) ([]*View, error) {
	list, err := s.issues.Pins().List(ctx, a, true)
	if err != nil {
		return nil, err
	}
	return s.views(ctx, s.stores, a.Repo, list)
}

// ByBaseHead finds the open pull request from head ("branch",
// "owner:branch" or "owner/repo:branch") into base.
func (s *Service) ByBaseHead(ctx context.Context, a *repos.Access, base, head string) (*View, error) {
	h, branch, err := s.resolveHead(ctx, a, head)
	if err != nil {
		return nil, errPullNotFound
	}
	p, err := s.stores.Pulls.FindUnmerged(ctx, a.Repo.ID, base, h.Repo.ID, branch)
	if err != nil {
		return nil, err
	}
	i, err := s.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, s.stores, a.Repo, i)
}

// ByMergeCommit finds the pull request whose merge produced commit sha
// (Gitea's R/commits/{sha}/pull).
func (s *Service) ByMergeCommit(ctx context.Context, a *repos.Access, sha string) (*View, error) {
	rev, err := s.git.Resolve(ctx, pathOf(a.Repo), sha)
	if err != nil {
		return nil, errPullNotFound
	}
	p, err := s.stores.Pulls.ByMergeCommit(ctx, a.Repo.ID, rev.CommitID)
	if err != nil {
		return nil, err
	}
	i, err := s.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return nil, err
	}
	if !i.IsPull {
		return nil, errPullNotFound
	}
	return s.view(ctx, s.stores, a.Repo, i)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
