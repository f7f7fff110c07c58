package issues

import (
	"context"
	"errors"
	"io"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// errAttachmentNotFound answers an absent attachment and one of another
// issue, comment or repository alike.
var errAttachmentNotFound = errs.NotFound("attachment does not exist")

// Upload is one uploaded file as the adapter read it: the name the client
// gave (the form's file name or the "name" parameter), the MIME type sniffed
// from its first bytes ("" when nothing could be), and the bytes, read
// once by the store.
type Upload struct {
	Name    string
	Sniffed string
	Content io.Reader
}

// StoredUpload is an upload checked and written to the blob store.
type StoredUpload struct {
	UUID, Name string
	Size       int64
	// SHA256 is the bytes' checksum (hex), computed as they streamed.
	SHA256 string
	// Release lets the start-up sweep of another process see the blob;
	// until then it counts as being written. Call it once the row that
	// names the blob is committed, or after removing the blob.
	Release func()
}

// StoreUpload opens an upload, checks its name and type against rules,
// then streams its bytes to blobs under a new UUID (at most rules.MaxBytes,
// 413 past it). Issue attachments and release assets store uploads this
// way; the caller then writes its row, removes the blob if that fails,
// and releases it.
func StoreUpload(ctx context.Context, blobs ports.AttachmentBlobs, rules issue.AttachmentRules, open UploadSource) (StoredUpload, error) {
	up, err := open()
	if err != nil {
		return StoredUpload{}, err
	}
	name, err := issue.CleanAttachmentName(up.Name)
	if err != nil {
		return StoredUpload{}, err
	}
	if err := rules.CheckType(name, up.Sniffed); err != nil {
		return StoredUpload{}, err
	}
	uuid, err := blobs.NewUUID()
	if err != nil {
		return StoredUpload{}, err
	}
	size, sum, release, err := blobs.Put(ctx, uuid, up.Content, rules.MaxBytes)
	if err != nil {
		return StoredUpload{}, err
	}
	return StoredUpload{UUID: uuid, Name: name, Size: size, SHA256: sum, Release: release}, nil
}

// UploadSource opens the upload. It is called only once the caller may
// attach, so that a refused request is answered before its body is read.
type UploadSource func() (Upload, error)

// Attachments is the attachment service: the same operations on the files
// of an issue and of a comment, told apart only by their parent.
type Attachments struct{ *Service }

// Attachments returns the attachment service over this issue service.
func (s *Service) Attachments() Attachments { return Attachments{s} }

// Rules returns the site's attachment settings.
func (s Attachments) Rules() issue.AttachmentRules { return issue.AttachmentRulesOf(s.settings) }

// attachmentHolder is a parent resolved once: the issue and comment (0 for
// the issue itself) its attachments carry, and whether the caller may
// add, rename or delete them.
type attachmentHolder struct {
	issue     *issue.Issue
	commentID int64
	mayChange func() error
}

// open resolves parent p for the caller: an issue's files may be changed
// by its poster, writers and administrators; a comment's by its poster or
// an administrator, if they also write the issues.
func (s Attachments) open(ctx context.Context, a *repos.Access, p Parent) (attachmentHolder, error) {
	i, c, err := s.openParent(ctx, a, p)
	if err != nil {
		return attachmentHolder{}, err
	}
	if c == nil {
		return attachmentHolder{issue: i, mayChange: func() error {
			return issue.CanAttachToIssue(i, a.Caller.UserID(), canWrite(a, i))
		}}, nil
	}
	return attachmentHolder{issue: i, commentID: c.ID, mayChange: func() error {
		return s.mayAttachToComment(a, c, i)
	}}, nil
}

// openToChange resolves p and checks that the caller may change its files.
func (s Attachments) openToChange(ctx context.Context, a *repos.Access, p Parent) (attachmentHolder, error) {
	h, err := s.open(ctx, a, p)
	if err != nil {
		return attachmentHolder{}, err
	}
	if err := h.mayChange(); err != nil {
		return attachmentHolder{}, err
	}
	return h, nil
}

// List returns the attachments of p (of an issue itself, not of its
// comments), oldest first.
func (s Attachments) List(ctx context.Context, a *repos.Access, p Parent) ([]*issue.Attachment, error) {
	h, err := s.open(ctx, a, p)
	if err != nil {
		return nil, err
	}
	return s.stores.Attachments.ListByIssue(ctx, h.issue.ID, h.commentID)
}

// Get returns attachment id of p.
func (s Attachments) Get(ctx context.Context, a *repos.Access, p Parent, id int64) (*issue.Attachment, error) {
	h, err := s.open(ctx, a, p)
	if err != nil {
		return nil, err
	}
	return s.attachmentOf(ctx, h.issue.ID, h.commentID, id)
}

// Attach stores an upload as an attachment of p.
func (s Attachments) Attach(ctx context.Context, a *repos.Access, p Parent, open UploadSource) (*issue.Attachment, error) {
	h, err := s.openToChange(ctx, a, p)
	if err != nil {
		return nil, err
	}
	return s.attach(ctx, a, h.issue, h.commentID, open)
}

// Rename renames attachment id of p (an empty name keeps it); the new name
// must still be of an allowed type.
func (s Attachments) Rename(ctx context.Context, a *repos.Access, p Parent, id int64, name string) (*issue.Attachment, error) {
	h, err := s.openToChange(ctx, a, p)
	if err != nil {
		return nil, err
	}
	return s.rename(ctx, h.issue.ID, h.commentID, id, name)
}

// Delete deletes attachment id of p, row and file.
func (s Attachments) Delete(ctx context.Context, a *repos.Access, p Parent, id int64) error {
	h, err := s.openToChange(ctx, a, p)
	if err != nil {
		return err
	}
	return s.detach(ctx, h.issue.ID, h.commentID, id)
}

// Download finds the attachment with this download UUID for caller c
// and opens its bytes: 404 unless c may read its issue. The download is
// counted.
func (s Attachments) Download(ctx context.Context, c auth.Caller, uuid string) (*issue.Attachment, io.ReadSeekCloser, error) {
	if err := s.Rules().CheckEnabled(); err != nil {
		return nil, nil, err
	}
	att, err := s.stores.Attachments.GetByUUID(ctx, uuid)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errAttachmentNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	a, err := s.repos.OpenByID(ctx, c, att.RepoID)
	if isMissingRepo(err) {
		return nil, nil, errAttachmentNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if err := permission.CheckPublicOnly(c.Actor(), []token.Category{token.CategoryIssue}, permission.PublicTarget{RepoPrivate: a.Repo.Private}); err != nil {
		return nil, nil, errAttachmentNotFound
	}
	i, err := s.stores.Issues.GetByID(ctx, att.IssueID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errAttachmentNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if CheckTracker(a) != nil || !canRead(a, i) {
		return nil, nil, errAttachmentNotFound
	}
	f, err := s.blobs.Open(ctx, att.UUID)
	if err != nil {
		return nil, nil, err
	}
	if err := s.stores.Attachments.CountDownload(ctx, att.ID); err != nil {
		s.log.Warn("counting an attachment download failed", "attachment", att.ID, "err", err)
	}
	return att, f, nil
}

func (s Attachments) mayAttachToComment(a *repos.Access, c *issue.Comment, i *issue.Issue) error {
	admin := a.Perm.IsAdmin() || a.Caller.IsAdmin()
	return issue.CanAttachToComment(c, a.Caller.UserID(), admin, canWrite(a, i))
}

// attachmentOf finds attachment id of the issue (commentID 0) or comment.
func (s Attachments) attachmentOf(ctx context.Context, issueID, commentID, id int64) (*issue.Attachment, error) {
	if id <= 0 {
		return nil, errAttachmentNotFound
	}
	att, err := s.stores.Attachments.GetByID(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errAttachmentNotFound
	}
	if err != nil {
		return nil, err
	}
	if att.IssueID != issueID || att.CommentID != commentID {
		return nil, errAttachmentNotFound
	}
	return att, nil
}

// attach checks and stores the upload: the name and type first, then the
// bytes (at most the site's size, 413 past it) under a new UUID, then the
// row; a failed insert removes the file again.
func (s Attachments) attach(ctx context.Context, a *repos.Access, i *issue.Issue, commentID int64, open UploadSource) (*issue.Attachment, error) {
	stored, err := StoreUpload(ctx, s.blobs, s.Rules(), open)
	if err != nil {
		return nil, err
	}
	defer stored.Release()
	uuid := stored.UUID
	att := &issue.Attachment{UUID: uuid, RepoID: a.Repo.ID, IssueID: i.ID, CommentID: commentID,
		UploaderID: a.Caller.UserID(), Name: stored.Name, Size: stored.Size, SHA256: stored.SHA256, CreatedAt: s.timestamp()}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Attachments.Create(ctx, att)
	})
	if err != nil {
		s.removeFiles(ctx, []*issue.Attachment{att})
		return nil, err
	}
	return att, nil
}

// rename gives attachment id a new name of an allowed type (by extension,
// as Gitea checks a rename).
func (s Attachments) rename(ctx context.Context, issueID, commentID, id int64, name string) (*issue.Attachment, error) {
	att, err := s.attachmentOf(ctx, issueID, commentID, id)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return att, nil
	}
	clean, err := issue.CleanAttachmentName(name)
	if err != nil {
		return nil, err
	}
	if err := s.Rules().CheckType(clean, ""); err != nil {
		return nil, err
	}
	att.Name = clean
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Attachments.Update(ctx, att)
	})
	if err != nil {
		return nil, err
	}
	return att, nil
}

// detach deletes attachment id: the row in a transaction, the file after.
func (s Attachments) detach(ctx context.Context, issueID, commentID, id int64) error {
	att, err := s.attachmentOf(ctx, issueID, commentID, id)
	if err != nil {
		return err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Attachments.Delete(ctx, att.ID)
	})
	if err != nil {
		return err
	}
	s.removeFiles(ctx, []*issue.Attachment{att})
	return nil
}
