package http

import (
	"bufio"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// commentRoutes are the comment, timeline, reaction and attachment rows of
// the catalogue (4.6; the comment rows of core 4.5). Every row carries
// IssuesOrPulls (404 when the tracker is off or unreadable), and the
// attachment rows Attachments (404 while attachments are disabled). The rows
// come before the issue routes in the table so that R/issues/comments is not
// read as an issue index.
func (s *Server) commentRoutes() []route {
	return []route{
		{"GET", R + "/issues/comments", scopes(catIssue), "IssuesOrPulls", s.listRepoComments},
		{"GET", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls", s.getComment},
		{"PATCH", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,NA,T", s.editComment},
		{"DELETE", R + "/issues/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.deleteComment},
		{"GET", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls", s.listCommentReactions},
		{"POST", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.postCommentReaction},
		{"DELETE", R + "/issues/comments/{id}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.deleteCommentReaction},
		{"GET", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", s.listCommentAssets},
		{"POST", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.createCommentAsset},
		{"GET", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", s.getCommentAsset},
		{"PATCH", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.editCommentAsset},
		{"DELETE", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.deleteCommentAsset},
		{"GET", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls", s.listIssueComments},
		{"POST", R + "/issues/{index}/comments", scopes(catIssue), "IssuesOrPulls,T,NA", s.createComment},
		{"PATCH", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.editComment},
		{"DELETE", R + "/issues/{index}/comments/{id}", scopes(catIssue), "IssuesOrPulls,T", s.deleteComment},
		{"GET", R + "/issues/{index}/timeline", scopes(catIssue), "IssuesOrPulls", s.listTimeline},
		{"GET", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls", s.listIssueReactions},
		{"POST", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.postIssueReaction},
		{"DELETE", R + "/issues/{index}/reactions", scopes(catIssue), "IssuesOrPulls,T", s.deleteIssueReaction},
		{"GET", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", s.listIssueAssets},
		{"POST", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.createIssueAsset},
		{"GET", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", s.getIssueAsset},
		{"PATCH", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.editIssueAsset},
		{"DELETE", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", s.deleteIssueAsset},
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

func attachmentID(q *request) (int64, error) {
	return commentPathID(q, "attachment_id", "attachment does not exist")
}

// commentFilter reads since, before (RFC 3339; 400 when malformed), page
// and limit.
func (s *Server) commentFilter(q *request) (issues.CommentFilter, error) {
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
func (s *Server) listRepoComments(q *request) error {
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.ListRepoComments(ctx, q.repo, f)
	}, s.commentsJSON)
}

// listIssueComments answers GET R/issues/{index}/comments.
func (s *Server) listIssueComments(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.ListComments(ctx, q.repo, index, f)
	}, s.commentsJSON)
}

// listTimeline answers GET R/issues/{index}/timeline.
func (s *Server) listTimeline(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	return s.commentPage(q, func(ctx context.Context, f issues.CommentFilter) (*issues.CommentView, error) {
		return s.issues.Timeline(ctx, q.repo, index, f)
	}, func(a *repos.Access, v *issues.CommentView) any { return s.toTimelineDTOs(a, v) })
}

// commentsJSON renders a page of comments.
func (s *Server) commentsJSON(a *repos.Access, v *issues.CommentView) any {
	return s.toCommentDTOs(a, v)
}

// commentPage answers a comment or timeline listing: the filter read from
// the query, the page fetched, rendered and sent with its paging headers.
func (s *Server) commentPage(q *request, fetch func(context.Context, issues.CommentFilter) (*issues.CommentView, error),
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
func (s *Server) getComment(q *request) error {
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
func (s *Server) writeComment(q *request, status int, v *issues.CommentView) error {
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
func (s *Server) createComment(q *request) error {
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
func (s *Server) editComment(q *request) error {
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
func (s *Server) deleteComment(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	_, err = s.issues.DeleteComment(q.r.Context(), q.repo, id)
	return noContent(q, err)
}

// reactionBody is Gitea's EditReactionOption.
type reactionBody struct {
	Reaction string `json:"content"`
}

func decodeReaction(q *request) (string, error) {
	var b reactionBody
	if err := decodeJSON(q.r, &b); err != nil {
		return "", err
	}
	return b.Reaction, nil
}

// writeReactions answers a page of reactions.
func (s *Server) writeReactions(q *request, opts ports.ListOptions, v *issues.ReactionView) {
	out := make([]reactionDTO, len(v.Reactions))
	for i, r := range v.Reactions {
		out[i] = s.toReactionDTO(q.caller, v.Users, r)
	}
	s.setPaging(q.w, q.r, opts, v.Total)
	q.json(http.StatusOK, out)
}

// listIssueReactions answers GET R/issues/{index}/reactions.
func (s *Server) listIssueReactions(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v, err := s.issues.IssueReactions(q.r.Context(), q.repo, index, opts)
	if err != nil {
		return err
	}
	s.writeReactions(q, opts, v)
	return nil
}

// listCommentReactions answers GET R/issues/comments/{id}/reactions.
func (s *Server) listCommentReactions(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v, err := s.issues.CommentReactions(q.r.Context(), q.repo, id, opts)
	if err != nil {
		return err
	}
	s.writeReactions(q, opts, v)
	return nil
}

// postIssueReaction answers POST R/issues/{index}/reactions: 201 for a new
// reaction, 200 with the existing one.
func (s *Server) postIssueReaction(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	r, created, err := s.issues.ReactToIssue(q.r.Context(), q.repo, index, typ)
	return s.writeReaction(q, r, created, err)
}

// postCommentReaction answers POST R/issues/comments/{id}/reactions.
func (s *Server) postCommentReaction(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	r, created, err := s.issues.ReactToComment(q.r.Context(), q.repo, id, typ)
	return s.writeReaction(q, r, created, err)
}

func (s *Server) writeReaction(q *request, r *issue.Reaction, created bool, err error) error {
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	users := map[int64]*user.User{}
	if q.caller.User != nil {
		users[q.caller.User.ID] = q.caller.User
	}
	q.json(status, s.toReactionDTO(q.caller, users, r))
	return nil
}

// deleteIssueReaction answers DELETE R/issues/{index}/reactions with 200
// (Gitea's status), whether or not the caller had reacted so.
func (s *Server) deleteIssueReaction(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	if err := s.issues.UnreactToIssue(q.r.Context(), q.repo, index, typ); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// deleteCommentReaction answers DELETE R/issues/comments/{id}/reactions with 200.
func (s *Server) deleteCommentReaction(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	typ, err := decodeReaction(q)
	if err != nil {
		return err
	}
	if err := s.issues.UnreactToComment(q.r.Context(), q.repo, id, typ); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// listIssueAssets answers GET R/issues/{index}/assets.
func (s *Server) listIssueAssets(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	list, err := s.issues.IssueAttachments(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAttachmentDTOs(list))
	return nil
}

// listCommentAssets answers GET R/issues/comments/{id}/assets.
func (s *Server) listCommentAssets(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	list, err := s.issues.CommentAttachments(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAttachmentDTOs(list))
	return nil
}

// getIssueAsset answers GET R/issues/{index}/assets/{attachment_id}.
func (s *Server) getIssueAsset(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	a, err := s.issues.IssueAttachment(q.r.Context(), q.repo, index, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAttachmentDTO(a))
	return nil
}

// getCommentAsset answers GET R/issues/comments/{id}/assets/{attachment_id}.
func (s *Server) getCommentAsset(q *request) error {
	cid, err := commentID(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	a, err := s.issues.CommentAttachment(q.r.Context(), q.repo, cid, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAttachmentDTO(a))
	return nil
}

// createIssueAsset answers POST R/issues/{index}/assets with 201: a
// multipart form whose file field is "attachment", named by the query's
// "name" or the file's name.
func (s *Server) createIssueAsset(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	a, err := s.issues.AttachToIssue(q.r.Context(), q.repo, index, readUpload(q))
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAttachmentDTO(a))
	return nil
}

// createCommentAsset answers POST R/issues/comments/{id}/assets with 201.
func (s *Server) createCommentAsset(q *request) error {
	id, err := commentID(q)
	if err != nil {
		return err
	}
	a, err := s.issues.AttachToComment(q.r.Context(), q.repo, id, readUpload(q))
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAttachmentDTO(a))
	return nil
}

// attachmentEditBody is Gitea's EditAttachmentOptions.
type attachmentEditBody struct {
	Name string `json:"name"`
}

// editIssueAsset answers PATCH R/issues/{index}/assets/{attachment_id}
// with 201, Gitea's status for it.
func (s *Server) editIssueAsset(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	var b attachmentEditBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, err := s.issues.RenameIssueAttachment(q.r.Context(), q.repo, index, id, b.Name)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAttachmentDTO(a))
	return nil
}

// editCommentAsset answers PATCH R/issues/comments/{id}/assets/{attachment_id} with 201.
func (s *Server) editCommentAsset(q *request) error {
	cid, err := commentID(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	var b attachmentEditBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, err := s.issues.RenameCommentAttachment(q.r.Context(), q.repo, cid, id, b.Name)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAttachmentDTO(a))
	return nil
}

// deleteIssueAsset answers DELETE R/issues/{index}/assets/{attachment_id} with 204.
func (s *Server) deleteIssueAsset(q *request) error {
	index, err := issueIndex(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.DeleteIssueAttachment(q.r.Context(), q.repo, index, id))
}

// deleteCommentAsset answers DELETE R/issues/comments/{id}/assets/{attachment_id} with 204.
func (s *Server) deleteCommentAsset(q *request) error {
	cid, err := commentID(q)
	if err != nil {
		return err
	}
	id, err := attachmentID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.issues.DeleteCommentAttachment(q.r.Context(), q.repo, cid, id))
}

// uploadSniffLen is how much of an upload decides its type, as
// http.DetectContentType reads.
const uploadSniffLen = 512

// readUpload streams the "attachment" file of a multipart body: nothing is
// buffered beyond its first bytes, which give the sniffed type. A body past
// the server's limit is a 413.
func readUpload(q *request) issues.UploadSource {
	return func() (issues.Upload, error) {
		mr, err := q.r.MultipartReader()
		if err != nil {
			return issues.Upload{}, errs.BadRequest(`request must be multipart/form-data with the file in field "attachment"`)
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return issues.Upload{}, errs.Invalid("Required", "attachment")
			}
			if err != nil {
				return issues.Upload{}, uploadError(err)
			}
			if part.FormName() != "attachment" {
				continue
			}
			name := part.FileName()
			if n := q.r.URL.Query().Get("name"); n != "" {
				name = n
			}
			br := bufio.NewReaderSize(uploadReader{part}, uploadSniffLen)
			head, err := br.Peek(uploadSniffLen)
			if err != nil && !errors.Is(err, io.EOF) {
				return issues.Upload{}, uploadError(err)
			}
			sniffed := ""
			if len(head) > 1 { // as Gitea, one byte tells nothing
				sniffed = http.DetectContentType(head)
			}
			return issues.Upload{Name: name, Sniffed: sniffed, Content: br}, nil
		}
	}
}

// uploadReader turns the body limit's error into a 413 while the store
// reads the upload.
type uploadReader struct{ r io.Reader }

func (u uploadReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = uploadError(err)
	}
	return n, err
}

// uploadError categorises a failure reading a multipart body.
func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return errs.TooLarge("request body too large")
	}
	if errors.Is(err, errs.ErrTooLarge) {
		return err
	}
	return errs.BadRequest("reading the upload failed: malformed multipart body")
}

// serveAttachment answers GET <base>/attachments/<uuid>, the download
// address of an attachment, outside the API: to whoever may read its issue
// (others get 404), with its type sniffed from its bytes, never taken from
// its name or the uploader. Types a browser would run (HTML, SVG, …) are
// sent as plain downloads.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	uuid := strings.TrimPrefix(r.URL.Path, "/attachments/")
	caller, err := s.auth.Authenticate(r.Context(), credentials(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	actor := caller.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.baseURL+"/user/settings/account"); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := permission.CheckSignInRequired(actor, s.settings.RequireSignInView); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := permission.CheckScope(actor, false, catIssue); err != nil {
		s.writeError(w, r, err)
		return
	}
	att, f, err := s.issues.OpenAttachment(r.Context(), caller, uuid)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	head := make([]byte, uploadSniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		s.writeError(w, r, err)
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctype, disposition := attachmentType(http.DetectContentType(head[:n]))
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": att.Name}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=300")
	http.ServeContent(w, r, "", att.CreatedAt, f)
}

// attachmentType is how an attachment of a sniffed type is sent: images
// (but SVG), audio, video, PDF and plain text inline with their type,
// anything else as an octet-stream download.
func attachmentType(sniffed string) (ctype, disposition string) {
	mt, _, _ := mime.ParseMediaType(sniffed)
	switch {
	case mt == "image/svg+xml":
	case strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "audio/"), strings.HasPrefix(mt, "video/"),
		mt == "application/pdf":
		return mt, "inline"
	case mt == "text/plain":
		return "text/plain; charset=utf-8", "inline"
	}
	return "application/octet-stream", "attachment"
}
