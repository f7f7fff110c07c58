package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// attachmentDTO is Gitea's Attachment.
type attachmentDTO struct {
	ID            int64     `json:"id"`
	Name          string    `json:"name"`
	Size          int64     `json:"size"`
	DownloadCount int64     `json:"download_count"`
	Created       time.Time `json:"created_at"`
	UUID          string    `json:"uuid"`
	DownloadURL   string    `json:"browser_download_url"`
}

// toAttachmentDTO answers a; its download address is Gitea's, outside the
// API (see serveAttachment).
func (s *kernel) toAttachmentDTO(a *issue.Attachment) attachmentDTO {
	return attachmentDTO{ID: a.ID, Name: a.Name, Size: a.Size, DownloadCount: a.DownloadCount,
		Created: a.CreatedAt.UTC(), UUID: a.UUID, DownloadURL: s.baseURL + "/attachments/" + a.UUID}
}

func (s *kernel) toAttachmentDTOs(list []*issue.Attachment) []attachmentDTO {
	out := make([]attachmentDTO, len(list))
	for i, a := range list {
		out[i] = s.toAttachmentDTO(a)
	}
	return out
}

// commentDTO is Gitea's Comment.
type commentDTO struct {
	ID               int64           `json:"id"`
	HTMLURL          string          `json:"html_url"`
	PRURL            string          `json:"pull_request_url"`
	IssueURL         string          `json:"issue_url"`
	User             *userDTO        `json:"user"`
	OriginalAuthor   string          `json:"original_author"`
	OriginalAuthorID int64           `json:"original_author_id"`
	Body             string          `json:"body"`
	Assets           []attachmentDTO `json:"assets"`
	Created          time.Time       `json:"created_at"`
	Updated          time.Time       `json:"updated_at"`
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

// repoWebURL is the web address of r.
func (s *kernel) repoWebURL(r *repository.Repository) string {
	return s.baseURL + "/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
}

// issueWebURL is the web address of i in r: under /pulls/ for a pull request.
func (s *kernel) issueWebURL(r *repository.Repository, i *issue.Issue) string {
	kind := "/issues/"
	if i.IsPull {
		kind = "/pulls/"
	}
	return s.repoWebURL(r) + kind + itoa(i.Index)
}

// commentUser renders user id from the batch, or Gitea's ghost for an
// account that is gone.
func (s *kernel) commentUser(c auth.Caller, users map[int64]*user.User, id int64) *userDTO {
	if u, ok := users[id]; ok {
		d := s.toUser(c, u)
		return &d
	}
	d := s.toUser(c, issues.Ghost())
	return &d
}

// commentURLs are a comment's html_url, pull_request_url and issue_url, as
// Gitea's Comment methods make them (issue_url is empty on a pull request,
// pull_request_url on an issue).
func (s *kernel) commentURLs(r *repository.Repository, i *issue.Issue, id int64) (html, pr, iss string) {
	if r == nil || i == nil {
		return "", "", ""
	}
	web := s.issueWebURL(r, i)
	if i.IsPull {
		pr = web
	} else {
		iss = web
	}
	return web + "#issuecomment-" + itoa(id), pr, iss
}

// toCommentDTO renders comment c of the view; r is its repository.
func (s *kernel) toCommentDTO(caller auth.Caller, r *repository.Repository, v *issues.CommentView, c *issue.Comment) commentDTO {
	html, pr, iss := s.commentURLs(r, v.Issues[c.IssueID], c.ID)
	return commentDTO{ID: c.ID, HTMLURL: html, PRURL: pr, IssueURL: iss,
		User: s.commentUser(caller, v.Users, c.PosterID), OriginalAuthor: c.OriginalAuthor,
		OriginalAuthorID: c.OriginalAuthorID, Body: c.Body,
		Assets: s.toAttachmentDTOs(v.Attachments[c.ID]), Created: c.CreatedAt.UTC(), Updated: c.UpdatedAt.UTC()}
}

// toCommentDTOs renders the comments of a's repository in the view.
func (s *kernel) toCommentDTOs(a *repos.Access, v *issues.CommentView) []commentDTO {
	out := make([]commentDTO, len(v.Comments))
	for i, c := range v.Comments {
		out[i] = s.toCommentDTO(a.Caller, a.Repo, v, c)
	}
	return out
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
		RemovedAssignee: c.RemovedAssignee}
	if m, ok := v.Milestones[c.OldMilestoneID]; ok {
		d.OldMilestone = toMilestoneDTO(m)
	}
	if m, ok := v.Milestones[c.MilestoneID]; ok {
		d.Milestone = toMilestoneDTO(m)
	}
	if l, ok := v.Labels[c.LabelID]; ok {
		api := s.repoAPIURL(a)
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

// reactionDTO is Gitea's Reaction.
type reactionDTO struct {
	User     *userDTO  `json:"user"`
	Reaction string    `json:"content"`
	Created  time.Time `json:"created_at"`
}

func (s *kernel) toReactionDTO(c auth.Caller, users map[int64]*user.User, r *issue.Reaction) reactionDTO {
	return reactionDTO{User: s.commentUser(c, users, r.UserID), Reaction: r.Type, Created: r.CreatedAt.UTC()}
}
