package http

import (
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Issue renders v with the issue routes' own renderer, so a payload's issue
// is the API's record of it. Accounts show as anybody sees them, as in the
// payloads' other records; a poster that is gone shows as Gitea's ghost.
func (h *HookPayloads) Issue(v ports.HookIssue) any {
	poster := v.Poster
	if poster == nil {
		poster = issues.Ghost()
	}
	d := h.render.issueDTO(auth.Caller{}, &issues.IssueView{Issue: v.Issue, Repo: v.Repo, Poster: poster,
		Labels: v.Labels, Milestone: v.Milestone, Assignees: v.Assignees})
	return &d
}

// Comment renders c with the comment routes' own renderer.
func (h *HookPayloads) Comment(c ports.HookComment) any {
	view := &issues.CommentView{Issues: map[int64]*issue.Issue{c.Comment.IssueID: c.Issue},
		Users: map[int64]*user.User{}, Attachments: map[int64][]*issue.Attachment{c.Comment.ID: c.Attachments}}
	if c.Poster != nil {
		view.Users[c.Poster.ID] = c.Poster
	}
	d := h.render.toCommentDTO(auth.Caller{}, c.Repo, view, c.Comment)
	return &d
}
