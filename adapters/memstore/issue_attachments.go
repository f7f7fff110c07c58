package memstore

import (
	"context"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.AttachmentStore = (*AttachmentStore)(nil)

// AttachmentStore is the in-memory ports.AttachmentStore (the rows; the
// bytes live in a ports.AttachmentBlobs).
type AttachmentStore struct{ d *DB }

var errAttachmentNotFound = errs.NotFound("attachment does not exist")

func (s *AttachmentStore) Create(ctx context.Context, a *issue.Attachment) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	for _, o := range st.attachments {
		if o.UUID == a.UUID {
			return errs.Conflict("attachment already exists")
		}
	}
	if _, ok := st.issues[a.IssueID]; !ok {
		return errIssueNotFound
	}
	row := *a
	row.CreatedAt = dbTime(row.CreatedAt)
	row.ID = st.next("attachments")
	st.attachments[row.ID] = row
	a.ID = row.ID
	return nil
}

func (s *AttachmentStore) GetByID(ctx context.Context, id int64) (*issue.Attachment, error) {
	defer s.d.lock(ctx)()
	a, ok := s.d.s.attachments[id]
	if !ok {
		return nil, errAttachmentNotFound
	}
	return &a, nil
}

func (s *AttachmentStore) GetByUUID(ctx context.Context, uuid string) (*issue.Attachment, error) {
	defer s.d.lock(ctx)()
	for _, a := range s.d.s.attachments {
		if a.UUID == uuid {
			return &a, nil
		}
	}
	return nil, errAttachmentNotFound
}

func (s *AttachmentStore) CountDownload(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	a, ok := s.d.s.attachments[id]
	if !ok {
		return errAttachmentNotFound
	}
	a.DownloadCount++
	s.d.s.attachments[id] = a
	return nil
}

func (s *AttachmentStore) ListByIssue(ctx context.Context, issueID, commentID int64) ([]*issue.Attachment, error) {
	defer s.d.lock(ctx)()
	out := []*issue.Attachment{}
	for _, id := range sortedKeys(s.d.s.attachments) {
		if a := s.d.s.attachments[id]; a.IssueID == issueID && a.CommentID == commentID {
			out = append(out, &a)
		}
	}
	return out, nil
}

func (s *AttachmentStore) OfComments(ctx context.Context, commentIDs []int64) (map[int64][]*issue.Attachment, error) {
	defer s.d.lock(ctx)()
	want := map[int64]bool{}
	for _, id := range commentIDs {
		want[id] = true
	}
	out := map[int64][]*issue.Attachment{}
	for _, id := range sortedKeys(s.d.s.attachments) {
		if a := s.d.s.attachments[id]; a.CommentID != 0 && want[a.CommentID] {
			out[a.CommentID] = append(out[a.CommentID], &a)
		}
	}
	return out, nil
}

func (s *AttachmentStore) Update(ctx context.Context, a *issue.Attachment) error {
	defer s.d.lock(ctx)()
	row, ok := s.d.s.attachments[a.ID]
	if !ok {
		return errAttachmentNotFound
	}
	row.Name = a.Name
	s.d.s.attachments[a.ID] = row
	return nil
}

func (s *AttachmentStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.attachments[id]; !ok {
		return errAttachmentNotFound
	}
	delete(s.d.s.attachments, id)
	return nil
}
