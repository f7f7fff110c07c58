package http

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
)

// issueAttachments serves the attachments of issues and of comments
// (catalogue 4.6): one handler set, told the parent by the row. The
// download by UUID (serveAttachment) is outside the API.
type issueAttachments struct{ *kernel }

// commentAttachmentRoutes are the rows of issueAttachments under
// R/issues/comments/{id}; every row carries IssuesOrPulls (404 when the
// tracker is off or unreadable) and Attachments (404 while attachments are
// disabled).
func (s *kernel) commentAttachmentRoutes() []route {
	h := issueAttachments{s}
	return []route{
		{"GET", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", h.list(commentParent)},
		{"POST", R + "/issues/comments/{id}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.create(commentParent)},
		{"GET", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", h.get(commentParent)},
		{"PATCH", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.edit(commentParent)},
		{"DELETE", R + "/issues/comments/{id}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.delete(commentParent)},
	}
}

// issueAttachmentRoutes are the rows of issueAttachments under
// R/issues/{index}.
func (s *kernel) issueAttachmentRoutes() []route {
	h := issueAttachments{s}
	return []route{
		{"GET", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,Attachments", h.list(issueParent)},
		{"POST", R + "/issues/{index}/assets", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.create(issueParent)},
		{"GET", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,Attachments", h.get(issueParent)},
		{"PATCH", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.edit(issueParent)},
		{"DELETE", R + "/issues/{index}/assets/{attachment_id}", scopes(catIssue), "IssuesOrPulls,T,NA,Attachments", h.delete(issueParent)},
	}
}

func attachmentID(q *request) (int64, error) {
	return commentPathID(q, "attachment_id", "attachment does not exist")
}

// parentAndID reads the parent, then {attachment_id}, in that order, so
// that an unknown parent answers first.
func parentAndID(q *request, p parentReader) (issues.Parent, int64, error) {
	parent, err := p(q)
	if err != nil {
		return parent, 0, err
	}
	id, err := attachmentID(q)
	return parent, id, err
}

// list answers GET <parent>/assets.
func (s issueAttachments) list(p parentReader) handler {
	return func(q *request) error {
		parent, err := p(q)
		if err != nil {
			return err
		}
		list, err := s.issues.Attachments().List(q.r.Context(), q.repo, parent)
		if err != nil {
			return err
		}
		q.json(http.StatusOK, s.toAttachmentDTOs(list))
		return nil
	}
}

// get answers GET <parent>/assets/{attachment_id}.
func (s issueAttachments) get(p parentReader) handler {
	return func(q *request) error {
		parent, id, err := parentAndID(q, p)
		if err != nil {
			return err
		}
		a, err := s.issues.Attachments().Get(q.r.Context(), q.repo, parent, id)
		if err != nil {
			return err
		}
		q.json(http.StatusOK, s.toAttachmentDTO(a))
		return nil
	}
}

// create answers POST <parent>/assets with 201: a multipart form whose
// file field is "attachment", named by the query's "name" or the file's
// name.
func (s issueAttachments) create(p parentReader) handler {
	return func(q *request) error {
		parent, err := p(q)
		if err != nil {
			return err
		}
		a, err := s.issues.Attachments().Attach(q.r.Context(), q.repo, parent, readUpload(q))
		if err != nil {
			return err
		}
		q.json(http.StatusCreated, s.toAttachmentDTO(a))
		return nil
	}
}

// attachmentEditBody is Gitea's EditAttachmentOptions.
type attachmentEditBody struct {
	Name string `json:"name"`
}

// edit answers PATCH <parent>/assets/{attachment_id} with 201, Gitea's
// status for it.
func (s issueAttachments) edit(p parentReader) handler {
	return func(q *request) error {
		parent, id, err := parentAndID(q, p)
		if err != nil {
			return err
		}
		var b attachmentEditBody
		if err := decodeJSON(q.r, &b); err != nil {
			return err
		}
		a, err := s.issues.Attachments().Rename(q.r.Context(), q.repo, parent, id, b.Name)
		if err != nil {
			return err
		}
		q.json(http.StatusCreated, s.toAttachmentDTO(a))
		return nil
	}
}

// delete answers DELETE <parent>/assets/{attachment_id} with 204.
func (s issueAttachments) delete(p parentReader) handler {
	return func(q *request) error {
		parent, id, err := parentAndID(q, p)
		if err != nil {
			return err
		}
		return noContent(q, s.issues.Attachments().Delete(q.r.Context(), q.repo, parent, id))
	}
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
			return sniffedUpload(name, part)
		}
	}
}

// sniffedUpload streams body as the upload name, its type sniffed from
// its first bytes.
func sniffedUpload(name string, body io.Reader) (issues.Upload, error) {
	br := bufio.NewReaderSize(uploadReader{body}, uploadSniffLen)
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
func (s *kernel) serveAttachment(w http.ResponseWriter, r *http.Request) {
	uuid := strings.TrimPrefix(r.URL.Path, "/attachments/")
	caller, err := s.downloadCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	actor := caller.Actor()
	// A release asset's address is the same; its token scope is the repository's.
	if as, f, ok, err := s.content.ReleaseAssets().DownloadByUUID(r.Context(), caller, uuid); ok {
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		sendReleaseAsset(s, w, r, as, f)
		return
	}
	if err := permission.CheckScope(actor, false, catIssue); err != nil {
		s.writeError(w, r, err)
		return
	}
	att, f, err := s.issues.Attachments().Download(r.Context(), caller, uuid)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	s.sendAttachment(w, r, att.Name, att.SHA256, att.CreatedAt, f)
}

// downloadCaller is who asks for a download outside the API: signed in
// (or not) as the API accepts, with a usable account where the site
// requires one to read.
func (s *kernel) downloadCaller(r *http.Request) (auth.Caller, error) {
	caller, err := s.auth.Authenticate(r.Context(), s.credentials(r))
	if err != nil {
		return auth.Caller{}, err
	}
	actor := caller.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.baseURL+"/user/settings/account"); err != nil {
		return auth.Caller{}, err
	}
	if err := permission.CheckSignInRequired(actor, s.settings.RequireSignInView); err != nil {
		return auth.Caller{}, err
	}
	return caller, nil
}

// sendAttachment sends a stored file: its type sniffed from its bytes,
// never taken from its name or the uploader; types a browser would run
// go as downloads. A file with a checksum (sha256, hex) carries it as its
// strong ETag — so If-None-Match and resumed ranges (If-Range) are judged
// by the bytes — and as Repr-Digest (RFC 9530), for clients to verify.
func (s *kernel) sendAttachment(w http.ResponseWriter, r *http.Request, name, sha256 string, created time.Time, f io.ReadSeeker) {
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
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=300")
	if sum, err := hex.DecodeString(sha256); err == nil && len(sum) == 32 {
		h.Set("ETag", `"`+sha256+`"`)
		h.Set("Repr-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum)+":")
	}
	http.ServeContent(w, r, "", created, f)
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
