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

// UploadSource opens the upload. It is called only once the caller may
// attach, so that a refused request is answered before its body is read.
type UploadSource func() (Upload, error)

// AttachmentRules returns the site's attachment settings.
func (s *Service) AttachmentRules() issue.AttachmentRules { return issue.AttachmentRulesOf(s.settings) }

// IssueAttachments returns the attachments of issue index itself (not of
// its comments), oldest first.
func (s *Service) IssueAttachments(ctx context.Context, a *repos.Access, index int64) ([]*issue.Attachment, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.stores.Attachments.ListByIssue(ctx, i.ID, 0)
}

// CommentAttachments returns the attachments of comment id, oldest first.
func (s *Service) CommentAttachments(ctx context.Context, a *repos.Access, id int64) ([]*issue.Attachment, error) {
	c, _, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, err
	}
	return s.stores.Attachments.ListByIssue(ctx, c.IssueID, c.ID)
}

// IssueAttachment returns attachment id of issue index itself.
func (s *Service) IssueAttachment(ctx context.Context, a *repos.Access, index, id int64) (*issue.Attachment, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return s.attachmentOf(ctx, i.ID, 0, id)
}

// CommentAttachment returns attachment id of comment commentID.
func (s *Service) CommentAttachment(ctx context.Context, a *repos.Access, commentID, id int64) (*issue.Attachment, error) {
	c, _, err := s.openComment(ctx, s.stores, a, commentID)
	if err != nil {
		return nil, err
	}
	return s.attachmentOf(ctx, c.IssueID, c.ID, id)
}

// AttachToIssue stores an upload as an attachment of issue index; its
// poster, writers and administrators may.
func (s *Service) AttachToIssue(ctx context.Context, a *repos.Access, index int64, open UploadSource) (*issue.Attachment, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if err := issue.CanAttachToIssue(i, a.Caller.UserID(), canWrite(a, i)); err != nil {
		return nil, err
	}
	return s.attach(ctx, a, i, 0, open)
}

// AttachToComment stores an upload as an attachment of comment id; its
// poster or an administrator may, if they also write the issues.
func (s *Service) AttachToComment(ctx context.Context, a *repos.Access, id int64, open UploadSource) (*issue.Attachment, error) {
	c, i, err := s.openComment(ctx, s.stores, a, id)
	if err != nil {
		return nil, err
	}
	if err := s.mayAttachToComment(a, c, i); err != nil {
		return nil, err
	}
	return s.attach(ctx, a, i, c.ID, open)
}

// RenameIssueAttachment renames attachment id of issue index (an empty
// name keeps it); the new name must still be of an allowed type.
func (s *Service) RenameIssueAttachment(ctx context.Context, a *repos.Access, index, id int64, name string) (*issue.Attachment, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if err := issue.CanAttachToIssue(i, a.Caller.UserID(), canWrite(a, i)); err != nil {
		return nil, err
	}
	return s.rename(ctx, i.ID, 0, id, name)
}

// RenameCommentAttachment renames attachment id of comment commentID.
func (s *Service) RenameCommentAttachment(ctx context.Context, a *repos.Access, commentID, id int64, name string) (*issue.Attachment, error) {
	c, i, err := s.openComment(ctx, s.stores, a, commentID)
	if err != nil {
		return nil, err
	}
	if err := s.mayAttachToComment(a, c, i); err != nil {
		return nil, err
	}
	return s.rename(ctx, c.IssueID, c.ID, id, name)
}

// DeleteIssueAttachment deletes attachment id of issue index, row and file.
func (s *Service) DeleteIssueAttachment(ctx context.Context, a *repos.Access, index, id int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	if err := issue.CanAttachToIssue(i, a.Caller.UserID(), canWrite(a, i)); err != nil {
		return err
	}
	return s.detach(ctx, i.ID, 0, id)
}

// DeleteCommentAttachment deletes attachment id of comment commentID.
func (s *Service) DeleteCommentAttachment(ctx context.Context, a *repos.Access, commentID, id int64) error {
	c, i, err := s.openComment(ctx, s.stores, a, commentID)
	if err != nil {
		return err
	}
	if err := s.mayAttachToComment(a, c, i); err != nil {
		return err
	}
	return s.detach(ctx, c.IssueID, c.ID, id)
}

// OpenAttachment finds the attachment with this download UUID for caller c
// and opens its bytes: 404 unless c may read its issue. The download is
// counted.
func (s *Service) OpenAttachment(ctx context.Context, c auth.Caller, uuid string) (*issue.Attachment, io.ReadSeekCloser, error) {
	if err := s.AttachmentRules().CheckEnabled(); err != nil {
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

func (s *Service) mayAttachToComment(a *repos.Access, c *issue.Comment, i *issue.Issue) error {
	admin := a.Perm.IsAdmin() || a.Caller.IsAdmin()
	return issue.CanAttachToComment(c, a.Caller.UserID(), admin, canWrite(a, i))
}

// attachmentOf finds attachment id of the issue (commentID 0) or comment.
func (s *Service) attachmentOf(ctx context.Context, issueID, commentID, id int64) (*issue.Attachment, error) {
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
func (s *Service) attach(ctx context.Context, a *repos.Access, i *issue.Issue, commentID int64, open UploadSource) (*issue.Attachment, error) {
	up, err := open()
	if err != nil {
		return nil, err
	}
	name, err := issue.CleanAttachmentName(up.Name)
	if err != nil {
		return nil, err
	}
	rules := s.AttachmentRules()
	if err := rules.CheckType(name, up.Sniffed); err != nil {
		return nil, err
	}
	uuid, err := s.blobs.NewUUID()
	if err != nil {
		return nil, err
	}
	size, err := s.blobs.Put(ctx, uuid, up.Content, rules.MaxBytes)
	if err != nil {
		return nil, err
	}
	att := &issue.Attachment{UUID: uuid, RepoID: a.Repo.ID, IssueID: i.ID, CommentID: commentID,
		UploaderID: a.Caller.UserID(), Name: name, Size: size, CreatedAt: s.cmNow()}
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
func (s *Service) rename(ctx context.Context, issueID, commentID, id int64, name string) (*issue.Attachment, error) {
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
	if err := s.AttachmentRules().CheckType(clean, ""); err != nil {
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
func (s *Service) detach(ctx context.Context, issueID, commentID, id int64) error {
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
