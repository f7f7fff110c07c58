package packages

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// The container registry's blobs: uploads under way (chunked, monolithic,
// mounted from another image) and the stored blobs they become.

// uploadID makes an upload id bound to its owner: "<owner id>-<random>".
func uploadID(owner *user.User) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strconv.FormatInt(owner.ID, 10) + "-" + hex.EncodeToString(b[:]), nil
}

// ownUpload checks that id is an upload of owner's.
func ownUpload(owner *user.User, id string) error {
	if !strings.HasPrefix(id, strconv.FormatInt(owner.ID, 10)+"-") {
		return ErrBlobUploadUnknown
	}
	return nil
}

// StartUpload opens an empty upload for a blob of owner's and returns its
// id; uploads left unfinished for a day are dropped meanwhile.
func (s *Containers) StartUpload(ctx context.Context, owner *user.User) (string, error) {
	if _, err := s.uploads.RemoveBefore(ctx, s.now().Add(-uploadTTL)); err != nil {
		return "", err
	}
	id, err := uploadID(owner)
	if err != nil {
		return "", err
	}
	return id, s.uploads.Create(ctx, id)
}

// UploadSize is how many bytes an upload has received.
func (s *Containers) UploadSize(ctx context.Context, owner *user.User, id string) (int64, error) {
	if err := ownUpload(owner, id); err != nil {
		return 0, err
	}
	n, err := s.uploads.Size(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return 0, ErrBlobUploadUnknown
	}
	return n, err
}

// AppendUpload streams a chunk onto an upload and returns its new size.
func (s *Containers) AppendUpload(ctx context.Context, owner *user.User, id string, r io.Reader) (int64, error) {
	if err := ownUpload(owner, id); err != nil {
		return 0, err
	}
	n, err := s.uploads.Append(ctx, id, r, s.maxBytes)
	if errors.Is(err, errs.ErrNotFound) {
		return 0, ErrBlobUploadUnknown
	}
	return n, err
}

// CancelUpload drops an upload.
func (s *Containers) CancelUpload(ctx context.Context, owner *user.User, id string) error {
	if _, err := s.UploadSize(ctx, owner, id); err != nil {
		return err
	}
	return s.uploads.Remove(ctx, id)
}

// CommitUpload completes an upload with its last chunk (rest, possibly
// empty) and makes it the blob digest of the image: the bytes are streamed
// into the blob store, hashed on the way, and recorded only when they
// match digest (ErrDigestInvalid otherwise, and the upload is gone).
func (s *Containers) CommitUpload(ctx context.Context, owner *user.User, image, id, digest string, rest io.Reader) error {
	if _, err := s.UploadSize(ctx, owner, id); err != nil {
		return err
	}
	defer func() { _ = s.uploads.Remove(context.WithoutCancel(ctx), id) }()
	head, err := s.uploads.Open(ctx, id)
	if err != nil {
		return err
	}
	defer head.Close()
	return s.PutBlob(ctx, owner, image, digest, io.MultiReader(head, rest))
}

// PutBlob streams body into the blob store and records it as the image's
// blob digest when the bytes match it (ErrDigestInvalid otherwise).
func (s *Containers) PutBlob(ctx context.Context, owner *user.User, image, digest string, body io.Reader) error {
	if !packages.ValidDigest(digest) {
		return ErrDigestInvalid
	}
	blob, release, err := s.blobs.Put(ctx, body, s.maxBytes)
	if err != nil {
		return err
	}
	defer release()
	if blob.SHA256 != packages.DigestHex(digest) {
		release()
		if err := s.dropBlobs(context.WithoutCancel(ctx), []string{blob.SHA256}); err != nil {
			return err
		}
		return ErrDigestInvalid
	}
	return s.stores.Containers.AddBlob(ctx, owner.ID, image, blob, s.now())
}

// Mount makes the blob digest of the image from ("owner/image", which the
// caller must be able to read; "" looks in owner's own images) a blob of
// owner's image too, without copying it. ok is false when there is no such
// blob to mount, and the client uploads it instead.
func (s *Containers) Mount(ctx context.Context, c auth.Caller, owner *user.User, image, digest, from string) (bool, error) {
	if !packages.ValidDigest(digest) {
		return false, nil
	}
	blob, err := s.mountSource(ctx, c, owner, packages.DigestHex(digest), from)
	if errors.Is(err, errs.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, s.stores.Containers.AddBlob(ctx, owner.ID, image, *blob, s.now())
}

// mountSource finds the blob sum in the image from names, or in owner's
// images when from is ""; errs.ErrNotFound when it is not there or the
// caller may not read it.
func (s *Containers) mountSource(ctx context.Context, c auth.Caller, owner *user.User, sum, from string) (*packages.Blob, error) {
	if from == "" {
		return s.stores.Containers.FindBlob(ctx, owner.ID, sum)
	}
	fromOwner, fromImage, found := strings.Cut(from, "/")
	if !found || !packages.ValidImageName(fromImage) {
		return nil, ErrBlobUnknown
	}
	src, err := s.stores.Users.GetByName(ctx, fromOwner)
	if err != nil {
		return nil, err
	}
	mode, err := s.Mode(ctx, c, src)
	if err != nil {
		return nil, err
	}
	if mode < permission.ModeRead && !c.IsAdmin() {
		return nil, ErrBlobUnknown
	}
	return s.stores.Containers.GetBlob(ctx, src.ID, fromImage, sum)
}

// StatBlob finds the image's blob digest.
func (s *Containers) StatBlob(ctx context.Context, owner *user.User, image, digest string) (*packages.Blob, error) {
	if !packages.ValidDigest(digest) {
		return nil, ErrBlobUnknown
	}
	b, err := s.stores.Containers.GetBlob(ctx, owner.ID, image, packages.DigestHex(digest))
	if errors.Is(err, errs.ErrNotFound) {
		return nil, ErrBlobUnknown
	}
	return b, err
}

// OpenBlob finds the image's blob digest and opens its bytes.
func (s *Containers) OpenBlob(ctx context.Context, owner *user.User, image, digest string) (*packages.Blob, io.ReadSeekCloser, error) {
	b, err := s.StatBlob(ctx, owner, image, digest)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.blobs.Open(ctx, b.SHA256)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, ErrBlobUnknown
	}
	return b, r, err
}

// DeleteBlob drops the image's blob digest (its bytes go when nothing else
// holds them).
func (s *Containers) DeleteBlob(ctx context.Context, owner *user.User, image, digest string) error {
	if !packages.ValidDigest(digest) {
		return ErrBlobUnknown
	}
	gone, err := s.stores.Containers.DeleteBlob(ctx, owner.ID, image, packages.DigestHex(digest))
	if errors.Is(err, errs.ErrNotFound) {
		return ErrBlobUnknown
	}
	if err != nil {
		return err
	}
	return s.dropBlobs(ctx, gone)
}
