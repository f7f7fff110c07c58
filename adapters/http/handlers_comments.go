package http

import (
	"context"
	"net/http"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
)

// commentRoutes are the comment, timeline, reaction and attachment rows of
// the catalogue (4.6; the comment rows of core 4.5). Every row carries
// IssuesOrPulls (404 when the tracker is off or unreadable), and the
// attachment rows Attachments (404 while attachments are disabled). The rows
// come before the issue routes in the table so that R/issues/comments is not
// read as an issue index.
func (s *kernel) commentRoutes() []route {
	return []route{
		{"GET", R + "/issues/comments", scopes(catIssue), "IssuesOrPulls", s.listRepoComments},
		{"GET", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls", s.getComment},
		{"PATCH", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,NA,T", s.editComment},
		{"DELETE", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.deleteComment},
		{"GET", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls", s.listCommentReactions},
		{"POST", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.postCommentReaction},
		{"DELETE", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.deleteCommentReaction},
		{"GET", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", s.listAssets(commentAssets)},
		{"POST", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.createAsset(commentAssets)},
		{"GET", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", s.getAsset(commentAssets)},
		{"PATCH", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.editAsset(commentAssets)},
		{"DELETE", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.deleteAsset(commentAssets)},
		{"GET", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls", s.listIssueComments},
		{"POST", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls,T,NA,NotBlocked", s.createComment},
		{"PATCH", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.editComment},
		{"DELETE", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.deleteComment},
		{"GET", R + "/issues/{index}/timeline", scopes(catIssue), "IssuesOrPulls", s.listTimeline},
		{"GET", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls", s.listIssueReactions},
		{"POST", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.postIssueReaction},
		{"DELETE", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.deleteIssueReaction},
		{"GET", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", s.listAssets(issueAssets)},
		{"POST", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.createAsset(issueAssets)},
		{"GET", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", s.getAsset(issueAssets)},
		{"PATCH", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.editAsset(issueAssets)},
		{"DELETE", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.deleteAsset(issueAssets)},
	}
}

// commentPathID reads a positive path integer; anything else names nothing
// (404 with msg), as Gitea's zero id finds nothing.
func commentPathID(q *request, name, msg string) (int64, error) {
	n, err := parsePositive(q.var_(name))
	if err != nil {
		return 0, errs.NotFound(msg)
	}
	return n, nil
}

func commentID(q *request) (int64, error) { return commentPathID(q, "id", "comment does not exist") }

// commentFilter reads since, before (RFC 3339; 400 when malformed), page
// and limit.
func (s *kernel) commentFilter(q *request) (issues.CommentFilter, error) {
	var f issues.CommentFilter
	opts, err := s.listOptions(q.r)
	if err != nil {
		return f, err
	}
	f.ListOptions = opts
	if f.Since, err = issueQueryTime(q, "since"); err != nil {
		return f, err
	}
	f.Before, err = issueQueryTime(q, "before")
	return f, err
}

// listRepoComments answers GET R/issues/comments.
func (s *kernel) listRepoComments(q *request) error {
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.ListRepoComments(ctx, q.repo, f)
	}, s.commentsJSON)
}

// listIssueComments answers GET R/issues/{index}/comments.
func (s *kernel) listIssueComments(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.ListComments(ctx, q.repo, index, f)
	}, s.commentsJSON)
}

// listTimeline answers GET R/issues/{index}/timeline.
func (s *kernel) listTimeline(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.Timeline(ctx, q.repo, index, f)
	}, func(a *repos.Access, v *issues.CommentView) any { return s.toTimelineDTOs(a, v) })
}

// commentsJSON renders a page of comments.
func (s *kernel) commentsJSON(a *repos.Access, v *issues.CommentView) any {
	return s.toCommentDTOs(a, v)
}

// commentPage answers a comment or timeline listing: the filter read from
// the query, the page fetched, rendered and sent with its paging headers.
func (s *kernel) commentPage(q *request, fetch func(context.Context, issues.CommentFilter) (*issues.CommentView, error),
	render func(*repos.Access, *issues.CommentView) any) error {
	f, err := s.commentFilter(q)
	if err != nil {
		return err
	}
	v, err := fetch(q.r.Context(), f)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, f.ListOptions, v.Total)
	q.json(http.StatusOK, render(q.repo, v))
	return nil
}

// getComment answers GET R/issues/comments/{id}; a timeline event is
// answered 204, as Gitea does.
func (s *kernel) getComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	v, err := s.issues.GetComment(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	return s.writeComment(q, http.StatusOK, v)
}

// writeComment answers the one comment of v, or 204 for an event.
func (s *kernel) writeComment(q *request, status int, v *issues.CommentView) error {
	if v == nil || len(v.Comments) == 0 || !v.Comments[0].Type.HasContent() {
		q.w.WriteHeader(http.StatusNoContent)
		return nil
	}
	q.json(status, s.toCommentDTO(q.caller, q.repo.Repo, v, v.Comments[0]))
	return nil
}

// commentBody is Gitea's CreateIssueCommentOption and EditIssueCommentOption.
type commentBody struct {
	Body string `json:"body"`
}

// createComment answers POST R/issues/{index}/comments with 201.
func (s *kernel) createComment(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b commentBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.issues.CreateComment(q.r.Context(), q.repo, index, b.Body)
	if err != nil {
		return err
	}
	return s.writeComment(q, http.StatusCreated, v)
}

// editComment answers PATCH R/issues/comments/{id} (and its deprecated
// form under an issue, whose index is ignored as in Gitea).
func (s *kernel) editComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	var b commentBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.issues.EditComment(q.r.Context(), q.repo, id, b.Body)
	if err != nil {
		return err
	}
	return s.writeComment(q, http.StatusOK, v)
}

// deleteComment answers DELETE R/issues/comments/{id} (and its deprecated
// form) with 204.
func (s *kernel) deleteComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	_, err = s.issues.DeleteComment(q.r.Context(), q.repo, id)
	return noContent(q, err)
}
