package http

import (
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

// PullRequest renders v with the pull request routes' own renderer, so a
// payload's pull request is the API's record of it, accounts shown as
// anybody sees them. The base and head repositories come rendered by this
// port (with the permissions the payload shows).
func (h *HookPayloads) PullRequest(v ports.HookPull) any {
	poster := v.Poster
	if poster == nil {
		poster = issues.Ghost()
	}
	p := v.Pull
	view := &pulls.View{
		IssueView: &issues.IssueView{Issue: v.Issue, Repo: v.Repo, Poster: poster, Labels: v.Labels,
			Milestone: v.Milestone, Assignees: v.Assignees, Pull: p},
		Pull: p, Head: v.Head, BaseCommitID: v.BaseCommitID, MergedBy: v.MergedBy,
		// As the pull request routes compute it (pulls.Service.views).
		Mergeable: !p.HasMerged && (p.Status == pull.StatusMergeable || p.Status == pull.StatusEmpty) &&
			!pull.IsWorkInProgress(v.Issue.Title),
		RequestedReviewers: v.RequestedReviewers, RequestedTeams: v.RequestedTeams,
	}
	if p.MergedByID != 0 && view.MergedBy == nil {
		view.MergedBy = issues.Ghost()
	}
	base, _ := v.BaseRepo.(*repoDTO)
	heads := map[int64]*repoDTO{}
	if d, ok := v.HeadRepo.(*repoDTO); ok && v.Head != nil {
		heads[v.Head.ID] = d
	}
	d := h.render.pullDTOsWith(auth.Caller{}, base, heads, []*pulls.View{view})[0]
	return &d
}
