package pulls

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ReviewRequests are the use cases of asking users and teams to review a
// pull request, and of withdrawing the request.
type ReviewRequests struct{ *Service }

// ReviewRequests returns the review request use cases.
func (s *Service) ReviewRequests() ReviewRequests { return ReviewRequests{s} }

// maxReviewRequests bounds the reviewers and teams one call names.
const maxReviewRequests = 50

// ReviewRequestInput is Gitea's PullReviewRequestOptions: users by name or
// e-mail address, teams of the repository's organisation by name.
type ReviewRequestInput struct {
	Reviewers     []string
	TeamReviewers []string
}

// Change asks (add) or stops asking the named users and teams to review
// pull request index, as Gitea's review request routes: each request is a
// review of state ReviewRequest with a review_request timeline entry, and
// asking a user is a pull_request_review_request event. An unknown user
// or team is a 404; a refused request a 422 (a 403 for asking again on a
// closed pull request). It returns the requests it added.
func (s ReviewRequests) Change(ctx context.Context, a *repos.Access, index int64, in ReviewRequestInput, add bool) (*ReviewView, error) {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if len(in.Reviewers)+len(in.TeamReviewers) > maxReviewRequests {
		return nil, errs.Invalid("too many reviewers", "reviewers")
	}
	reviewers, err := s.resolveReviewers(ctx, in.Reviewers)
	if err != nil {
		return nil, err
	}
	var teams []*org.Team
	if a.Repo.Owner.Kind == user.KindOrganization {
		if teams, err = s.resolveTeams(ctx, a.Repo.Owner.ID, in.TeamReviewers); err != nil {
			return nil, err
		}
	}
	doer := a.Caller.UserID()
	mayChange, err := s.mayChangeRequests(ctx, a, i, doer)
	if err != nil {
		return nil, err
	}
	v := &ReviewView{Issue: i}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for _, u := range reviewers {
			r, err := s.changeUser(ctx, tx, a, i, p, u, doer, mayChange, add)
			if err != nil {
				return err
			}
			if r != nil {
				v.Reviews = append(v.Reviews, r)
			}
		}
		if len(teams) == 0 {
			return nil
		}
		var reachable []*org.Team
		if a.Repo.Private && add {
			if reachable, err = tx.Orgs.RepoTeams(ctx, a.Repo.ID); err != nil {
				return err
			}
		}
		for _, t := range teams {
			reaches := false
			for _, rt := range reachable {
				reaches = reaches || rt.ID == t.ID
			}
			if err := pull.CanRequestTeamReview(add, a.Repo.Private, reaches, mayChange); err != nil {
				return err
			}
			r, err := s.changeTeam(ctx, tx, a, i, p, t, doer, add)
			if err != nil {
				return err
			}
			if r != nil {
				v.Reviews = append(v.Reviews, r)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.Total = int64(len(v.Reviews))
	return v, s.loadReviewFacts(ctx, s.stores, v)
}

// resolveReviewers finds the named accounts: by e-mail address when the
// name holds an @, else by name.
func (s ReviewRequests) resolveReviewers(ctx context.Context, names []string) ([]*user.User, error) {
	var out []*user.User
	seen := map[int64]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		var u *user.User
		var err error
		if strings.Contains(name, "@") {
			var e *user.Email
			if e, err = s.stores.Emails.GetByEmail(ctx, name); err == nil {
				u, err = s.stores.Users.GetByID(ctx, e.UserID)
			}
		} else {
			u, err = s.stores.Users.GetByName(ctx, name)
		}
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.NotFound("User '" + name + "' not exist")
		}
		if err != nil {
			return nil, err
		}
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
	}
	return out, nil
}

// resolveTeams finds the named teams of the organisation.
func (s ReviewRequests) resolveTeams(ctx context.Context, orgID int64, names []string) ([]*org.Team, error) {
	var out []*org.Team
	seen := map[int64]bool{}
	for _, name := range names {
		t, err := s.stores.Orgs.GetTeamByName(ctx, orgID, strings.TrimSpace(name))
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.NotFound("Team '" + name + "' not exist")
		}
		if err != nil {
			return nil, err
		}
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// mayChangeRequests is Gitea's CanDoerChangeReviewRequests: the poster, or
// someone the repository names (its owner, a collaborator, a member of a
// team that reads its pull requests), in a repository not archived.
func (s ReviewRequests) mayChangeRequests(ctx context.Context, a *repos.Access, i *issue.Issue, doer int64) (bool, error) {
	if doer == 0 {
		return false, nil
	}
	named := doer == a.Repo.Owner.ID
	if !named && doer != i.PosterID {
		rel, err := s.stores.Repos.Relations(ctx, a.Repo.Facts(), doer)
		if err != nil {
			return false, err
		}
		named = rel.IsOwner || rel.IsOrgOwner || rel.CollaboratorMode > permission.ModeNone ||
			rel.TeamUnits[permission.UnitPulls] >= permission.ModeRead
	}
	return pull.CanChangeReviewRequests(a.Repo.Archived, doer == i.PosterID, named), nil
}

// changeUser asks u to review (or stops asking), inside tx.
func (s ReviewRequests) changeUser(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue,
	p *pull.PullRequest, u *user.User, doer int64, mayChange, add bool) (*pull.Review, error) {
	perm, err := s.repos.PermissionOf(ctx, u, a.Repo)
	if err != nil {
		return nil, err
	}
	last, err := tx.PullReviews.Latest(ctx, i.ID, u.ID)
	if errors.Is(err, errs.ErrNotFound) {
		last, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := pull.CanRequestReview(pull.ReviewRequestFacts{Add: add, ReviewerIsOrg: u.Kind == user.KindOrganization,
		ReviewerReadsPulls: perm.CanRead(permission.UnitPulls), ReviewerIsPoster: u.ID == i.PosterID && i.OriginalAuthorID == 0,
		DoerMayChange: mayChange, DoerIsPoster: doer == i.PosterID && i.OriginalAuthorID == 0, LastReview: last,
		DoerID: doer}); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	official, err := s.officialReviewer(ctx, a, p, u.ID, perm)
	if err != nil {
		return nil, err
	}
	if !add {
		if last == nil || last.State != pull.ReviewRequest {
			return nil, nil
		}
		if err := tx.PullReviews.Delete(ctx, last.ID); err != nil {
			return nil, err
		}
		if official {
			if err := restoreOfficial(ctx, tx, i.ID, u.ID); err != nil {
				return nil, err
			}
		}
		if err := tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentReviewRequest, IssueID: i.ID, RepoID: i.RepoID,
			PosterID: doer, AssigneeID: u.ID, RemovedAssignee: true, CreatedAt: now, UpdatedAt: now}); err != nil {
			return nil, err
		}
		return nil, s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventPullReviewRequest,
			Action: "review_request_removed", Repo: a.Repo, Issue: i, SenderID: doer, ReviewerID: u.ID})
	}
	if last != nil && last.State == pull.ReviewRequest {
		return nil, nil // asked already
	}
	if err := pull.CanRequestOn(p, i.IsClosed, last); err != nil {
		return nil, err
	}
	if official {
		if err := tx.PullReviews.ClearOfficial(ctx, i.ID, u.ID); err != nil {
			return nil, err
		}
	}
	r := &pull.Review{IssueID: i.ID, ReviewerID: u.ID, State: pull.ReviewRequest, Official: official,
		CreatedAt: now, UpdatedAt: now}
	if err := tx.PullReviews.Create(ctx, r); err != nil {
		return nil, err
	}
	if err := tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentReviewRequest, IssueID: i.ID, RepoID: i.RepoID,
		PosterID: doer, AssigneeID: u.ID, ReviewID: r.ID, CreatedAt: now, UpdatedAt: now}); err != nil {
		return nil, err
	}
	return r, s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventPullReviewRequest,
		Action: "review_requested", Repo: a.Repo, Issue: i, SenderID: doer, ReviewerID: u.ID})
}

// changeTeam asks team t to review (or stops asking), inside tx. Gitea
// tells the team's members one by one: each member but the poster is a
// pull_request_review_request event of its own (asking only).
func (s ReviewRequests) changeTeam(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue,
	p *pull.PullRequest, t *org.Team, doer int64, add bool) (*pull.Review, error) {
	at := s.clock.Now()
	last, err := tx.PullReviews.TeamRequest(ctx, i.ID, t.ID)
	if errors.Is(err, errs.ErrNotFound) {
		last, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !add {
		if last == nil {
			return nil, nil
		}
		if err := tx.PullReviews.Delete(ctx, last.ID); err != nil {
			return nil, err
		}
		return nil, tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentReviewRequest, IssueID: i.ID,
			RepoID: i.RepoID, PosterID: doer, AssigneeTeamID: t.ID, RemovedAssignee: true, CreatedAt: at, UpdatedAt: at})
	}
	if last != nil {
		return nil, nil // asked already
	}
	// Without a branch rule a team's request is official when its asker's
	// verdicts would be (Gitea's IsOfficialReviewerTeam, then IsOfficialReviewer).
	official, err := s.officialReviewer(ctx, a, p, doer, a.Perm)
	if err != nil {
		return nil, err
	}
	r := &pull.Review{IssueID: i.ID, ReviewerTeamID: t.ID, State: pull.ReviewRequest, Official: official,
		CreatedAt: at, UpdatedAt: at}
	if err := tx.PullReviews.Create(ctx, r); err != nil {
		return nil, err
	}
	if err := tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentReviewRequest, IssueID: i.ID, RepoID: i.RepoID,
		PosterID: doer, AssigneeTeamID: t.ID, ReviewID: r.ID, CreatedAt: at, UpdatedAt: at}); err != nil {
		return nil, err
	}
	const page = 50
	for n := 1; ; n++ {
		members, total, err := tx.Orgs.TeamMembers(ctx, t.ID, ports.ListOptions{Page: n, Limit: page})
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			if m.ID == i.PosterID {
				continue
			}
			if err := s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventPullReviewRequest,
				Action: "review_requested", Repo: a.Repo, Issue: i, SenderID: doer, ReviewerID: m.ID}); err != nil {
				return nil, err
			}
		}
		if int64(n*page) >= total {
			return r, nil
		}
	}
}
