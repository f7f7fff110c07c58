package http

import (
	"context"
	"net/http"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// issueComments serves the comments of issues and pull requests
// (catalogue 4.6; the comment rows of core 4.5).
type issueComments struct{ *kernel }

// repoCommentRoutes are the rows of issueComments under R/issues/comments.
// Every row carries IssuesOrPulls (404 when the tracker is off or
// unreadable). The rows under R/issues/comments (these, and the reaction
// and attachment rows of comments) come before the R/issues/{index} rows in
// the table so that R/issues/comments is not read as an issue index.
func (s *kernel) repoCommentRoutes() []route {
	h := issueComments{s}
	return []route{
		{"GET", R + "/issues/comments", scopes(catIssue), "IssuesOrPulls", h.listRepoComments},
		{"GET", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls", h.getComment},
		{"PATCH", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,NA,T", h.editComment},
		{"DELETE", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", h.deleteComment},
	}
}

// issueCommentRoutes are the rows of issueComments under R/issues/{index}.
func (s *kernel) issueCommentRoutes() []route {
	h := issueComments{s}
	return []route{
		{"GET", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls", h.listIssueComments},
		{"POST", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls,T,NA,NotBlocked", h.createComment},
		{"PATCH", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", h.editComment},
		{"DELETE", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", h.deleteComment},
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
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	f.Before, err = queryTime(q, "before")
	return f, err
}

// listRepoComments answers GET R/issues/comments.
func (s issueComments) listRepoComments(q *request) error {
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.Comments().ListRepo(ctx, q.repo, f)
	}, s.commentsJSON)
}

// listIssueComments answers GET R/issues/{index}/comments.
func (s issueComments) listIssueComments(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.Comments().List(ctx, q.repo, index, f)
	}, s.commentsJSON)
}

// commentsJSON renders a page of comments.
func (s issueComments) commentsJSON(a *repos.Access, v *issues.CommentView) any {
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
	body := render(q.repo, v)
	if list, ok := body.([]commentDTO); ok {
		writeEncodedJSON(q, http.StatusOK, list, func(b []byte) ([]byte, error) { return appendCommentsJSON(b, list) })
		return nil
	}
	q.json(http.StatusOK, body)
	return nil
}

// getComment answers GET R/issues/comments/{id}; a timeline event is
// answered 204, as Gitea does.
func (s issueComments) getComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	v, err := s.issues.Comments().Get(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	if v != nil && len(v.Comments) == 1 {
		q.lastModified(v.Comments[0].UpdatedAt)
	}
	return s.writeComment(q, http.StatusOK, v)
}

// writeComment answers the one comment of v, or 204 for an event.
func (s issueComments) writeComment(q *request, status int, v *issues.CommentView) error {
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
func (s issueComments) createComment(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	var b commentBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.issues.Comments().Create(q.r.Context(), q.repo, index, b.Body)
	if err != nil {
		return err
	}
	return s.writeComment(q, http.StatusCreated, v)
}

// editComment answers PATCH R/issues/comments/{id} (and its deprecated
// form under an issue, whose index is ignored as in Gitea).
func (s issueComments) editComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	var b commentBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.issues.Comments().Edit(q.r.Context(), q.repo, id, b.Body)
	if err != nil {
		return err
	}
	return s.writeComment(q, http.StatusOK, v)
}

// deleteComment answers DELETE R/issues/comments/{id} (and its deprecated
// form) with 204.
func (s issueComments) deleteComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	_, err = s.issues.Comments().Delete(q.r.Context(), q.repo, id)
	return noContent(q, err)
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

// toCommentDTO renders comment c of the view; r is its repository.
func (s *kernel) toCommentDTO(caller auth.Caller, r *repository.Repository, v *issues.CommentView, c *issue.Comment) commentDTO {
	return s.commentDTOBy(r, v, c, s.commentUser(caller, v.Users, c.PosterID))
}

// commentDTOBy renders comment c of the view with its author u.
func (s *kernel) commentDTOBy(r *repository.Repository, v *issues.CommentView, c *issue.Comment, u *userDTO) commentDTO {
	html, pr, iss := s.commentURLs(r, v.Issues[c.IssueID], c.ID)
	return commentDTO{ID: c.ID, HTMLURL: html, PRURL: pr, IssueURL: iss, User: u,
		OriginalAuthor: c.OriginalAuthor, OriginalAuthorID: c.OriginalAuthorID, Body: c.Body,
		Assets: s.toAttachmentDTOs(v.Attachments[c.ID]), Created: c.CreatedAt.UTC(), Updated: c.UpdatedAt.UTC()}
}

// toCommentDTOs renders the comments of a's repository in the view. Each
// author is rendered once and shared by pointer, which the encoder writes
// once and copies after (appendCommentsJSON).
func (s *kernel) toCommentDTOs(a *repos.Access, v *issues.CommentView) []commentDTO {
	out := make([]commentDTO, len(v.Comments))
	authors := make(map[int64]*userDTO, len(v.Users)+1)
	for i, c := range v.Comments {
		u, ok := authors[c.PosterID]
		if !ok {
			u = s.commentUser(a.Caller, v.Users, c.PosterID)
			authors[c.PosterID] = u
		}
		out[i] = s.commentDTOBy(a.Repo, v, c, u)
	}
	return out
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
