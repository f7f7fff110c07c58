package http

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/packages"
)

// imageURL is the path of something below the call's image.
func (c *containerCall) imageURL(tail string) string {
	return containerPrefix + "/" + url.PathEscape(c.owner.LowerName) + "/" + c.path.image + tail
}

// uploadHeaders answers an upload's state: where it continues, what it holds.
func (c *containerCall) uploadHeaders(id string, size int64) {
	h := c.w.Header()
	h.Set("Location", c.imageURL("/blobs/uploads/"+id))
	h.Set("Range", "0-"+strconv.FormatInt(max(size-1, 0), 10))
	h.Set("Docker-Upload-UUID", id)
	h.Set("Content-Length", "0")
}

// blobCreated answers a blob now in the image.
func (c *containerCall) blobCreated(digest string) {
	h := c.w.Header()
	h.Set("Location", c.imageURL("/blobs/"+digest))
	h.Set("Docker-Content-Digest", digest)
	h.Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusCreated)
}

// containerStartUpload answers POST …/blobs/uploads/: a mount (?mount=
// &from=, 201 when the blob is there to mount), a monolithic upload
// (?digest=, 201), or an upload session to send chunks to (202).
func (s *kernel) containerStartUpload(c *containerCall) {
	ctx := c.r.Context()
	q := c.r.URL.Query()
	if mount := strings.TrimSpace(q.Get("mount")); mount != "" {
		ok, err := s.containers.Mount(ctx, c.caller, c.owner, c.path.image, mount, strings.TrimSpace(q.Get("from")))
		if err != nil {
			s.failContainer(c, err, ociBlobUploadInvalid)
			return
		}
		if ok {
			c.blobCreated(mount)
			return
		}
	}
	if digest := strings.TrimSpace(q.Get("digest")); digest != "" {
		if err := s.containers.PutBlob(ctx, c.owner, c.path.image, digest, registryBody(&c.registryCall)); err != nil {
			s.failContainer(c, err, ociBlobUploadInvalid)
			return
		}
		c.blobCreated(digest)
		return
	}
	id, err := s.containers.StartUpload(ctx, c.owner)
	if err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	c.uploadHeaders(id, 0)
	c.w.WriteHeader(http.StatusAccepted)
}

// containerUploadStatus answers GET …/blobs/uploads/{id}: 204 with how
// much it holds.
func (s *kernel) containerUploadStatus(c *containerCall) {
	size, err := s.containers.UploadSize(c.r.Context(), c.owner, c.path.arg)
	if err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	c.uploadHeaders(c.path.arg, size)
	c.w.WriteHeader(http.StatusNoContent)
}

// containerPatchUpload answers PATCH …/blobs/uploads/{id}: the chunk is
// appended (a Content-Range must start where the upload ends: 416
// otherwise), 202.
func (s *kernel) containerPatchUpload(c *containerCall) {
	ctx := c.r.Context()
	size, err := s.containers.UploadSize(ctx, c.owner, c.path.arg)
	if err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	if cr := c.r.Header.Get("Content-Range"); cr != "" {
		start, _, ok := packages.ParseContentRange(cr)
		if !ok {
			s.writeContainerError(c.w, http.StatusBadRequest, ociBlobUploadInvalid, "invalid content range")
			return
		}
		if start != size {
			c.uploadHeaders(c.path.arg, size)
			s.writeContainerError(c.w, http.StatusRequestedRangeNotSatisfiable, ociBlobUploadInvalid,
				"the chunk does not start where the upload ends")
			return
		}
	}
	size, err = s.containers.AppendUpload(ctx, c.owner, c.path.arg, registryBody(&c.registryCall))
	if err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	c.uploadHeaders(c.path.arg, size)
	c.w.WriteHeader(http.StatusAccepted)
}

// containerCommitUpload answers PUT …/blobs/uploads/{id}?digest=: the last
// chunk (if any) is appended and the whole checked against the digest,
// 201; a mismatch is DIGEST_INVALID.
func (s *kernel) containerCommitUpload(c *containerCall) {
	digest := strings.TrimSpace(c.r.URL.Query().Get("digest"))
	if !packages.ValidDigest(digest) {
		s.writeContainerError(c.w, http.StatusBadRequest, ociDigestInvalid, "provided digest is invalid")
		return
	}
	if err := s.containers.CommitUpload(c.r.Context(), c.owner, c.path.image, c.path.arg, digest, registryBody(&c.registryCall)); err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	c.blobCreated(digest)
}

// containerCancelUpload answers DELETE …/blobs/uploads/{id}: 204.
func (s *kernel) containerCancelUpload(c *containerCall) {
	if err := s.containers.CancelUpload(c.r.Context(), c.owner, c.path.arg); err != nil {
		s.failContainer(c, err, ociBlobUploadInvalid)
		return
	}
	c.w.WriteHeader(http.StatusNoContent)
}

// containerGetBlob answers GET and HEAD …/blobs/{digest}, ranges honoured.
func (s *kernel) containerGetBlob(c *containerCall) {
	b, body, err := s.containers.OpenBlob(c.r.Context(), c.owner, c.path.image, c.path.arg)
	if err != nil {
		s.failContainer(c, err, ociBlobUnknown)
		return
	}
	defer body.Close()
	h := c.w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Docker-Content-Digest", "sha256:"+b.SHA256)
	h.Set("ETag", `"sha256:`+b.SHA256+`"`)
	http.ServeContent(c.w, c.r, "", time.Time{}, body)
}

// containerDeleteBlob answers DELETE …/blobs/{digest}: 202.
func (s *kernel) containerDeleteBlob(c *containerCall) {
	if err := s.containers.DeleteBlob(c.r.Context(), c.owner, c.path.image, c.path.arg); err != nil {
		s.failContainer(c, err, ociBlobUnknown)
		return
	}
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusAccepted)
}
