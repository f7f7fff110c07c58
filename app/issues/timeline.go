package issues

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// Timeline is the use case of an issue's timeline: its comments and
// events with what they name.
type Timeline struct{ *Service }

// Timeline returns the timeline use case.
func (s *Service) Timeline() Timeline { return Timeline{s} }

// List returns one page of issue index's comments and events, oldest
// first, with what they name loaded in batches. As in Gitea, code comments
// are left out, and so are references from issues the caller may not read
// (the page is then shorter than asked).
func (s Timeline) List(ctx context.Context, a *repos.Access, index int64, f CommentFilter) (*CommentView, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.Comments.List(ctx, ports.CommentQuery{IssueID: i.ID,
		Since: f.Since, Before: f.Before, ListOptions: f.ListOptions})
	if err != nil {
		return nil, err
	}
	v := &CommentView{Total: total, Issues: map[int64]*issue.Issue{i.ID: i},
		Repos: map[int64]*repository.Repository{a.Repo.ID: a.Repo}}
	var refIssues, users, labels, milestones, refComments, times, teams []int64
	for _, c := range list {
		if c.Type == issue.CommentCode {
			continue
		}
		v.Comments = append(v.Comments, c)
		users = append(users, c.PosterID, c.AssigneeID)
		labels = append(labels, c.LabelID)
		milestones = append(milestones, c.OldMilestoneID, c.MilestoneID)
		refIssues = append(refIssues, c.RefIssueID, c.DependentIssueID)
		refComments = append(refComments, c.RefCommentID)
		times = append(times, c.TimeID)
		if c.AssigneeTeamID > 0 {
			teams = append(teams, c.AssigneeTeamID)
		}
	}
	st := s.stores
	if err := s.addIssues(ctx, st, v, refIssues); err != nil {
		return nil, err
	}
	if err := s.hideUnreadableRefs(ctx, a, i, v); err != nil {
		return nil, err
	}
	if err := s.addTimes(ctx, st, v, times); err != nil {
		return nil, err
	}
	var others []*issue.Issue
	var otherRepos []*repository.Repository
	for id, other := range v.Issues {
		if id != i.ID {
			others = append(others, other)
			otherRepos = append(otherRepos, v.Repos[other.RepoID])
		}
	}
	if len(v.Times) > 0 {
		// A tracked time embeds its issue, which is this one.
		others, otherRepos = append(others, i), append(otherRepos, a.Repo)
	}
	views, err := s.Views(ctx, st, otherRepos, others)
	if err != nil {
		return nil, err
	}
	v.IssueViews = make(map[int64]*IssueView, len(views))
	for _, iv := range views {
		v.IssueViews[iv.Issue.ID] = iv
	}
	v.RefComments = map[int64]*issue.Comment{}
	if ids := missingIDs(refComments, v.RefComments); len(ids) > 0 {
		found, err := st.Comments.GetByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, c := range found {
			v.RefComments[c.ID] = c
			users = append(users, c.PosterID)
		}
	}
	for _, t := range v.Times {
		users = append(users, t.UserID)
	}
	if err := s.addUsers(ctx, st, v, users); err != nil {
		return nil, err
	}
	v.Teams = map[int64]*org.Team{}
	if len(teams) > 0 {
		// Review requests name teams; the review store finds them in one query.
		if v.Teams, err = st.PullReviews.Teams(ctx, missingIDs(teams, v.Teams)); err != nil {
			return nil, err
		}
	}
	v.Labels = map[int64]*issue.Label{}
	if ids := missingIDs(labels, v.Labels); len(ids) > 0 {
		found, err := st.Labels.GetByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, l := range found {
			v.Labels[l.ID] = l
		}
	}
	v.Milestones = map[int64]*issue.Milestone{}
	if ids := missingIDs(milestones, v.Milestones); len(ids) > 0 {
		found, err := st.Milestones.GetByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, m := range found {
			v.Milestones[m.ID] = m
		}
	}
	return v, nil
}

// hideUnreadableRefs drops from v the references (and dependencies) whose
// other issue the caller may not read, opening each other repository once,
// and keeps in v.Repos the repositories of the issues it shows.
func (s Timeline) hideUnreadableRefs(ctx context.Context, a *repos.Access, i *issue.Issue, v *CommentView) error {
	access := map[int64]*repos.Access{a.Repo.ID: a}
	readable := func(id int64) (bool, error) {
		other, ok := v.Issues[id]
		if !ok {
			return false, nil
		}
		oa, seen := access[other.RepoID]
		if !seen {
			var err error
			oa, err = s.repos.OpenByID(ctx, a.Caller, other.RepoID)
			if err != nil && !isMissingRepo(err) {
				return false, err
			}
			// A public-only token sees nothing of private repositories.
			if oa != nil && permission.CheckPublicOnly(a.Caller.Actor(), []token.Category{token.CategoryIssue},
				permission.PublicTarget{RepoPrivate: oa.Repo.Private}) != nil {
				oa = nil
			}
			access[other.RepoID] = oa
			if oa != nil {
				v.Repos[other.RepoID] = oa.Repo
			}
		}
		return oa != nil && canRead(oa, other), nil
	}
	kept := v.Comments[:0]
	for _, c := range v.Comments {
		for _, id := range []int64{c.RefIssueID, c.DependentIssueID} {
			if id == 0 {
				continue
			}
			ok, err := readable(id)
			if err != nil {
				return err
			}
			if !ok {
				// A dependency on an unreadable issue still shows, without it.
				if c.Type.IsRef() {
					c = nil
				}
				break
			}
		}
		if c != nil {
			kept = append(kept, c)
		}
	}
	v.Comments = kept
	// Issues the caller may not read must not reach the answer.
	for id, other := range v.Issues {
		if id == i.ID {
			continue
		}
		if ok, err := readable(id); err != nil {
			return err
		} else if !ok {
			delete(v.Issues, other.ID)
		}
	}
	return nil
}

// addTimes loads the tracked times the page's time events record, in one
// query. A time deleted since is absent, and its event shows without it.
func (s Timeline) addTimes(ctx context.Context, st ports.Stores, v *CommentView, ids []int64) error {
	v.Times = map[int64]*issue.TrackedTime{}
	ids = missingIDs(ids, v.Times)
	if len(ids) == 0 {
		return nil
	}
	found, err := st.TrackedTimes.GetByIDs(ctx, ids)
	if err != nil {
		return err
	}
	for _, t := range found {
		v.Times[t.ID] = t
	}
	return nil
}
