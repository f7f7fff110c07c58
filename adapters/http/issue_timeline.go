package http

import (
	"context"
	"time"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
)

// issueTimeline serves the timeline of an issue or pull request: its
// comments and events (catalogue 4.6).
type issueTimeline struct{ *kernel }

// issueTimelineRoutes are the rows of issueTimeline.
func (s *kernel) issueTimelineRoutes() []route {
	h := issueTimeline{s}
	return []route{
		{"GET", R + "/issues/{index}/timeline", scopes(catIssue), "IssuesOrPulls", h.list},
	}
}

// list answers GET R/issues/{index}/timeline.
func (s issueTimeline) list(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.Timeline().List(ctx, q.repo, index, f)
	}, func(a *repos.Access, v *issues.CommentView) any { return s.toTimelineDTOs(a, v) })
}

// timelineDTO is Gitea's TimelineComment: a comment or an event, its type
// by name, with the records the event names embedded.
type timelineDTO struct {
	ID              int64           `json:"id"`
	Type            string          `json:"type"`
	HTMLURL         string          `json:"html_url"`
	PRURL           string          `json:"pull_request_url"`
	IssueURL        string          `json:"issue_url"`
	User            *userDTO        `json:"user"`
	Body            string          `json:"body"`
	Created         time.Time       `json:"created_at"`
	Updated         time.Time       `json:"updated_at"`
	OldProjectID    int64           `json:"old_project_id"`
	ProjectID       int64           `json:"project_id"`
	OldMilestone    *milestoneDTO   `json:"old_milestone"`
	Milestone       *milestoneDTO   `json:"milestone"`
	TrackedTime     *trackedTimeDTO `json:"tracked_time"`
	OldTitle        string          `json:"old_title"`
	NewTitle        string          `json:"new_title"`
	OldRef          string          `json:"old_ref"`
	NewRef          string          `json:"new_ref"`
	RefIssue        *issueDTO       `json:"ref_issue"`
	RefComment      *commentDTO     `json:"ref_comment"`
	RefAction       string          `json:"ref_action"`
	RefCommitSHA    string          `json:"ref_commit_sha"`
	ReviewID        int64           `json:"review_id"`
	Label           *labelDTO       `json:"label"`
	Assignee        *userDTO        `json:"assignee"`
	AssigneeTeam    any             `json:"assignee_team"`
	RemovedAssignee bool            `json:"removed_assignee"`
	ResolveDoer     *userDTO        `json:"resolve_doer"`
	DependentIssue  *issueDTO       `json:"dependent_issue"`
}

// toTimelineDTOs renders a timeline page of an issue of a's repository.
func (s *kernel) toTimelineDTOs(a *repos.Access, v *issues.CommentView) []timelineDTO {
	out := make([]timelineDTO, 0, len(v.Comments))
	for _, c := range v.Comments {
		out = append(out, s.toTimelineDTO(a, v, c))
	}
	return out
}

func (s *kernel) toTimelineDTO(a *repos.Access, v *issues.CommentView, c *issue.Comment) timelineDTO {
	html, pr, iss := s.commentURLs(a.Repo, v.Issues[c.IssueID], c.ID)
	body := c.Body
	if body == "" && !c.Type.HasContent() {
		// Events keep their detail (label added "1", deadlines, lock
		// reason, durations) where Gitea keeps it: in the body.
		body = issue.EventText(c.Type, c.Content)
	}
	d := timelineDTO{ID: c.ID, Type: c.Type.String(), HTMLURL: html, PRURL: pr, IssueURL: iss,
		User: s.commentUser(a.Caller, v.Users, c.PosterID), Body: body,
		Created: c.CreatedAt.UTC(), Updated: c.UpdatedAt.UTC(),
		OldTitle: c.OldTitle, NewTitle: c.NewTitle, OldRef: c.OldRef, NewRef: c.NewRef,
		RemovedAssignee: c.RemovedAssignee, ReviewID: c.ReviewID}
	if t, ok := v.Teams[c.AssigneeTeamID]; ok {
		td := s.toTeam(t, nil)
		d.AssigneeTeam = &td
	}
	if m, ok := v.Milestones[c.OldMilestoneID]; ok {
		d.OldMilestone = toMilestoneDTO(m)
	}
	if m, ok := v.Milestones[c.MilestoneID]; ok {
		d.Milestone = toMilestoneDTO(m)
	}
	if l, ok := v.Labels[c.LabelID]; ok {
		api := s.repoAPIURL(a.Repo)
		if l.OrgID != 0 {
			api = s.orgAPIURL(a.Repo.Owner.Name)
		}
		ld := toLabelDTO(l, api)
		d.Label = &ld
	}
	if c.AssigneeID != 0 {
		d.Assignee = s.commentUser(a.Caller, v.Users, c.AssigneeID)
	}
	if c.RefIssueID != 0 {
		d.RefIssue = s.timelineIssue(a, v, c.RefIssueID)
		if rc, ok := v.RefComments[c.RefCommentID]; ok {
			rd := s.toCommentDTO(a.Caller, v.Repos[rc.RepoID], v, rc)
			d.RefComment = &rd
		}
	}
	if c.DependentIssueID != 0 {
		d.DependentIssue = s.timelineIssue(a, v, c.DependentIssueID)
	}
	if t, ok := v.Times[c.TimeID]; ok {
		d.TrackedTime = s.timelineTime(a, v, t)
	}
	return d
}

// timelineTime renders the tracked time a time event records, as the time
// routes do: with its user's name ("Ghost" once the account is gone) and
// its issue.
func (s *kernel) timelineTime(a *repos.Access, v *issues.CommentView, t *issue.TrackedTime) *trackedTimeDTO {
	name := issues.Ghost().Name
	if u, ok := v.Users[t.UserID]; ok {
		name = u.Name
	}
	return &trackedTimeDTO{ID: t.ID, Created: t.CreatedAt.UTC(), Time: t.Seconds, UserID: t.UserID,
		UserName: name, IssueID: t.IssueID, Issue: s.timelineIssue(a, v, t.IssueID)}
}

// timelineIssue renders an issue a timeline event points at, as the issue
// routes do; nil when the caller may not see it.
func (s *kernel) timelineIssue(a *repos.Access, v *issues.CommentView, id int64) *issueDTO {
	iv, ok := v.IssueViews[id]
	if !ok {
		return nil
	}
	d := s.issueDTO(a.Caller, iv)
	return &d
}
