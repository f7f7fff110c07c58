package http

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/auth"
	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/gorilla/mux"
)

// containerPrefix is where the container registry lives, as the OCI
// distribution spec requires and Gitea serves it.
const containerPrefix = "/v2"

// containerRegistryRoutes serves the OCI distribution spec under /v2/:
// the token flow docker login uses, blob uploads (monolithic, chunked,
// mounted), blobs, manifests and indexes by tag and digest, tags and
// referrers. Image names may hold slashes, so the path is parsed here.
func (s *kernel) containerRegistryRoutes(router *mux.Router) {
	router.Path(containerPrefix).HandlerFunc(s.serveContainer)
	router.PathPrefix(containerPrefix + "/").HandlerFunc(s.serveContainer)
}

// The parts of the registry's paths below an image.
const (
	containerBase        = "base"
	containerToken       = "token"
	containerUploadStart = "upload-start"
	containerUpload      = "upload"
	containerBlob        = "blob"
	containerManifest    = "manifest"
	containerTags        = "tags"
	containerReferrers   = "referrers"
)

// containerPath is a parsed registry path.
type containerPath struct {
	kind  string
	owner string
	image string
	// arg is the upload id, digest or reference that ends the path.
	arg string
}

// parseContainerPath reads an escaped path below /v2: "/" and "/token",
// or /{owner}/{image…}/ followed by blobs/uploads[/{id}], blobs/{digest},
// manifests/{reference}, tags/list or referrers/{digest}. ok is false for
// any other path; the image name is returned unchecked.
func parseContainerPath(escaped string) (containerPath, bool) {
	rest, found := strings.CutPrefix(escaped, containerPrefix)
	if !found {
		return containerPath{}, false
	}
	switch rest {
	case "", "/":
		return containerPath{kind: containerBase}, true
	case "/token":
		return containerPath{kind: containerToken}, true
	}
	if !strings.HasPrefix(rest, "/") {
		return containerPath{}, false
	}
	segs := strings.Split(strings.TrimSuffix(rest[1:], "/"), "/")
	for i, seg := range segs {
		dec, err := url.PathUnescape(seg)
		if err != nil || dec == "" || strings.ContainsAny(dec, "/\x00") {
			return containerPath{}, false
		}
		segs[i] = dec
	}
	n := len(segs)
	at := func(i int) string {
		if i < 0 || i >= n {
			return ""
		}
		return segs[i]
	}
	var p containerPath
	imageEnd := 0
	switch {
	case at(n-2) == "tags" && at(n-1) == "list":
		p, imageEnd = containerPath{kind: containerTags}, n-2
	case at(n-2) == "blobs" && at(n-1) == "uploads":
		p, imageEnd = containerPath{kind: containerUploadStart}, n-2
	case at(n-3) == "blobs" && at(n-2) == "uploads":
		p, imageEnd = containerPath{kind: containerUpload, arg: at(n - 1)}, n-3
	case at(n-2) == "blobs":
		p, imageEnd = containerPath{kind: containerBlob, arg: at(n - 1)}, n-2
	case at(n-2) == "manifests":
		p, imageEnd = containerPath{kind: containerManifest, arg: at(n - 1)}, n-2
	case at(n-2) == "referrers":
		p, imageEnd = containerPath{kind: containerReferrers, arg: at(n - 1)}, n-2
	default:
		return containerPath{}, false
	}
	if imageEnd < 2 {
		return containerPath{}, false
	}
	p.owner, p.image = segs[0], strings.Join(segs[1:imageEnd], "/")
	return p, true
}

// containerError is one error of the distribution spec's error body.
type containerError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Detail  any    `json:"detail,omitempty"`
}

// containerErrors is the distribution spec's error body.
type containerErrors struct {
	Errors []containerError `json:"errors"`
}

// The distribution spec's error codes the registry answers with.
const (
	ociBlobUnknown         = "BLOB_UNKNOWN"
	ociBlobUploadInvalid   = "BLOB_UPLOAD_INVALID"
	ociBlobUploadUnknown   = "BLOB_UPLOAD_UNKNOWN"
	ociDigestInvalid       = "DIGEST_INVALID"
	ociManifestBlobUnknown = "MANIFEST_BLOB_UNKNOWN"
	ociManifestInvalid     = "MANIFEST_INVALID"
	ociManifestUnknown     = "MANIFEST_UNKNOWN"
	ociNameInvalid         = "NAME_INVALID"
	ociNameUnknown         = "NAME_UNKNOWN"
	ociSizeInvalid         = "SIZE_INVALID"
	ociUnauthorized        = "UNAUTHORIZED"
	ociDenied              = "DENIED"
	ociUnsupported         = "UNSUPPORTED"
)

// containerCall is one request to the container registry.
type containerCall struct {
	registryCall
	path containerPath
	// anonymous is set when the caller presented no credentials at all
	// (not even an anonymous bearer token).
	anonymous bool
}

// setRegistryHeaders sets what every answer of the registry carries.
func setRegistryHeaders(w http.ResponseWriter) {
	w.Header().Set("Docker-Distribution-Api-Version", "registry/2.0")
}

// challenge is the WWW-Authenticate of the registry's 401s: where docker
// gets a bearer token.
func (s *kernel) challenge() string {
	return `Bearer realm="` + s.baseURL + containerPrefix + `/token",service="container_registry",scope="*"`
}

// writeContainerError answers one error in the distribution spec's format.
func (s *kernel) writeContainerError(w http.ResponseWriter, status int, code, msg string) {
	setRegistryHeaders(w)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", s.challenge())
	}
	writeJSON(w, status, containerErrors{Errors: []containerError{{Code: code, Message: msg}}})
}

// containerErrorCodes pairs the use cases' refusals with their codes.
var containerErrorCodes = []struct {
	err    error
	status int
	code   string
}{
	{apppkgs.ErrDigestInvalid, http.StatusBadRequest, ociDigestInvalid},
	{apppkgs.ErrBlobUnknown, http.StatusNotFound, ociBlobUnknown},
	{apppkgs.ErrBlobUploadUnknown, http.StatusNotFound, ociBlobUploadUnknown},
	{apppkgs.ErrManifestUnknown, http.StatusNotFound, ociManifestUnknown},
	{apppkgs.ErrManifestBlobUnknown, http.StatusNotFound, ociManifestBlobUnknown},
	{apppkgs.ErrNameUnknown, http.StatusNotFound, ociNameUnknown},
}

// failContainer answers err; badRequest is the code of a malformed request
// on this route.
func (s *kernel) failContainer(c *containerCall, err error, badRequest string) {
	for _, e := range containerErrorCodes {
		if errors.Is(err, e.err) {
			s.writeContainerError(c.w, e.status, e.code, errs.Message(err))
			return
		}
	}
	status, msg, ok := httpkit.StatusOf(err)
	switch {
	case !ok && httpkit.ClientGone(c.r, err):
		c.w.WriteHeader(httpkit.StatusClientClosedRequest)
	case !ok:
		s.log.Error("container registry request failed", "method", c.r.Method, "path", c.r.URL.Path,
			"request_id", requestID(c.w), "err", err)
		s.writeContainerError(c.w, http.StatusInternalServerError, ociUnsupported,
			"internal server error (request "+requestID(c.w)+")")
	case status == http.StatusUnauthorized:
		s.writeContainerError(c.w, status, ociUnauthorized, "authentication required")
	case status == http.StatusForbidden:
		s.writeContainerError(c.w, status, ociDenied, "requested access to the resource is denied")
	case status == http.StatusNotFound:
		s.writeContainerError(c.w, status, ociNameUnknown, "repository name not known to registry")
	case status == http.StatusRequestEntityTooLarge:
		s.writeContainerError(c.w, status, ociSizeInvalid, msg)
	case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
		s.writeContainerError(c.w, http.StatusBadRequest, badRequest, msg)
	default:
		s.writeContainerError(c.w, status, ociUnsupported, msg)
	}
}

// containerCaller authenticates a registry request: a bearer token from
// /v2/token, or what the API accepts (Basic with a password or token, an
// access token). anonymous is set when nothing was presented.
func (s *kernel) containerCaller(r *http.Request) (c auth.Caller, anonymous bool, err error) {
	creds := registryCredentials(r)
	if creds.HeaderToken != "" {
		c, ok, err := s.containers.ResolveToken(r.Context(), creds.HeaderToken)
		if ok {
			return c, false, err
		}
	}
	if creds.HeaderToken == "" && !creds.Basic {
		return auth.Caller{}, true, nil
	}
	c, err = s.auth.Authenticate(r.Context(), creds)
	return c, false, err
}

// serveContainer dispatches a registry request by its path and method.
func (s *kernel) serveContainer(w http.ResponseWriter, r *http.Request) {
	done := s.metrics.RequestStarted()
	defer func() { done(containerPrefix, r.Method, statusOf(w)) }()
	c := &containerCall{registryCall: registryCall{w: w, r: r, vars: map[string]string{}}}
	p, ok := parseContainerPath(r.URL.EscapedPath())
	if !ok {
		s.writeContainerError(w, http.StatusNotFound, ociNameUnknown, "route not found")
		return
	}
	c.path = p
	caller, anonymous, err := s.containerCaller(r)
	if err != nil {
		s.failContainer(c, err, ociUnauthorized)
		return
	}
	c.caller, c.anonymous = caller, anonymous
	if p.kind == containerToken {
		s.containerIssueToken(c)
		return
	}
	if c.anonymous {
		s.failContainer(c, errs.Unauthenticated("authentication required"), ociUnauthorized)
		return
	}
	if p.kind == containerBase {
		s.containerBase(c)
		return
	}
	h, write := s.containerRoute(p.kind, r.Method)
	if h == nil {
		s.writeContainerError(w, http.StatusMethodNotAllowed, ociUnsupported, "the operation is unsupported")
		return
	}
	if !packages.ValidImageName(p.image) {
		s.writeContainerError(w, http.StatusBadRequest, ociNameInvalid, "invalid repository name")
		return
	}
	c.vars["owner"] = p.owner
	if err := s.admitOwner(&c.registryCall, write); err != nil {
		// Who presented no account is asked to sign in, whatever hid the
		// owner or refused the access; a signed-in caller learns no more
		// than that the name is unknown, or that access is denied.
		if !caller.Signed() && (errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrForbidden)) {
			err = errs.Unauthenticated("authentication required")
		}
		s.failContainer(c, err, ociUnauthorized)
		return
	}
	setRegistryHeaders(w)
	h(c)
}

// containerRoute picks the handler of a path's kind and method, and
// whether it writes.
func (s *kernel) containerRoute(kind, method string) (h func(*containerCall), write bool) {
	get := method == http.MethodGet || method == http.MethodHead
	switch {
	case kind == containerUploadStart && method == http.MethodPost:
		return s.containerStartUpload, true
	case kind == containerUpload && method == http.MethodGet:
		return s.containerUploadStatus, true
	case kind == containerUpload && method == http.MethodPatch:
		return s.containerPatchUpload, true
	case kind == containerUpload && method == http.MethodPut:
		return s.containerCommitUpload, true
	case kind == containerUpload && method == http.MethodDelete:
		return s.containerCancelUpload, true
	case kind == containerBlob && get:
		return s.containerGetBlob, false
	case kind == containerBlob && method == http.MethodDelete:
		return s.containerDeleteBlob, true
	case kind == containerManifest && get:
		return s.containerGetManifest, false
	case kind == containerManifest && method == http.MethodPut:
		return s.containerPutManifest, true
	case kind == containerManifest && method == http.MethodDelete:
		return s.containerDeleteManifest, true
	case kind == containerTags && get:
		return s.containerTags, false
	case kind == containerReferrers && get:
		return s.containerReferrers, false
	}
	return nil, false
}

// containerBase answers GET /v2/: the registry speaks the distribution
// spec, to whoever holds a token (an anonymous one included).
func (s *kernel) containerBase(c *containerCall) {
	if !s.containerSignInChecked(c) {
		return
	}
	actor := c.caller.Actor()
	if err := permission.CheckScope(actor, false, catPackage); err != nil {
		s.failContainer(c, errs.Unauthenticated("token lacks the package scope"), ociUnauthorized)
		return
	}
	setRegistryHeaders(c.w)
	writeJSON(c.w, http.StatusOK, struct{}{})
}

// containerSignInChecked answers the refusals /v2/ and /v2/token share
// (a method other than GET or HEAD, an account that may not act, a site
// that requires signing in) and reports whether the call may go on.
func (s *kernel) containerSignInChecked(c *containerCall) bool {
	if c.r.Method != http.MethodGet && c.r.Method != http.MethodHead {
		s.writeContainerError(c.w, http.StatusMethodNotAllowed, ociUnsupported, "the operation is unsupported")
		return false
	}
	actor := c.caller.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.baseURL+"/user/settings/account"); err != nil {
		s.failContainer(c, err, ociUnauthorized)
		return false
	}
	if err := permission.CheckSignInRequired(actor, s.settings.RequireSignInView); err != nil {
		s.failContainer(c, err, ociUnauthorized)
		return false
	}
	return true
}

// containerTokenDTO is /v2/token's answer, in both spellings clients read.
type containerTokenDTO struct {
	Token       string    `json:"token"`
	AccessToken string    `json:"access_token"`
	ExpiresIn   int       `json:"expires_in"`
	IssuedAt    time.Time `json:"issued_at"`
}

// containerIssueToken answers GET /v2/token: a bearer token for the
// caller's credentials (Basic with a password or token), or an anonymous
// one without credentials, unless the site requires signing in.
func (s *kernel) containerIssueToken(c *containerCall) {
	if !s.containerSignInChecked(c) {
		return
	}
	tok, err := s.containers.IssueToken(c.caller)
	if err != nil {
		s.failContainer(c, err, ociUnauthorized)
		return
	}
	setRegistryHeaders(c.w)
	writeJSON(c.w, http.StatusOK, containerTokenDTO{Token: tok, AccessToken: tok, ExpiresIn: 86400,
		IssuedAt: time.Now().UTC().Truncate(time.Second)})
}

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
		if err := s.containers.PutBlob(ctx, c.owner, c.path.image, digest, c.r.Body); err != nil {
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
	size, err = s.containers.AppendUpload(ctx, c.owner, c.path.arg, c.r.Body)
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
	if err := s.containers.CommitUpload(c.r.Context(), c.owner, c.path.image, c.path.arg, digest, c.r.Body); err != nil {
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

// containerReference reads the path's manifest reference.
func (c *containerCall) reference() (packages.Reference, bool) {
	return packages.ParseReference(c.path.arg)
}

// containerGetManifest answers GET and HEAD …/manifests/{reference} with
// the manifest's own media type and digest.
func (s *kernel) containerGetManifest(c *containerCall) {
	ref, ok := c.reference()
	if !ok {
		s.writeContainerError(c.w, http.StatusNotFound, ociManifestUnknown, "manifest unknown")
		return
	}
	m, body, err := s.containers.OpenManifest(c.r.Context(), c.owner, c.path.image, ref)
	if err != nil {
		s.failContainer(c, err, ociManifestInvalid)
		return
	}
	defer body.Close()
	h := c.w.Header()
	h.Set("Content-Type", m.MediaType)
	h.Set("Docker-Content-Digest", m.Digest)
	h.Set("ETag", `"`+m.Digest+`"`)
	h.Set("Content-Length", strconv.FormatInt(m.Size, 10))
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method == http.MethodHead {
		return
	}
	_, _ = io.Copy(c.w, body)
}

// containerPutManifest answers PUT …/manifests/{reference}: 201 with the
// manifest's digest (and OCI-Subject when it refers to another).
func (s *kernel) containerPutManifest(c *containerCall) {
	ref, ok := c.reference()
	if !ok {
		s.writeContainerError(c.w, http.StatusBadRequest, ociManifestInvalid, "tag is invalid")
		return
	}
	body, err := io.ReadAll(io.LimitReader(c.r.Body, packages.MaxManifestBytes+1))
	if err != nil {
		s.failContainer(c, err, ociManifestInvalid)
		return
	}
	if len(body) > packages.MaxManifestBytes {
		s.writeContainerError(c.w, http.StatusRequestEntityTooLarge, ociSizeInvalid, "manifest exceeds maximum size")
		return
	}
	pushed, err := s.containers.PutManifest(c.r.Context(), c.owner, c.caller.User, c.path.image, ref, body,
		c.r.Header.Get("Content-Type"))
	if err != nil {
		s.failContainer(c, err, ociManifestInvalid)
		return
	}
	h := c.w.Header()
	h.Set("Location", c.imageURL("/manifests/"+c.path.arg))
	h.Set("Docker-Content-Digest", pushed.Digest)
	if pushed.Subject != "" {
		h.Set("OCI-Subject", pushed.Subject)
	}
	h.Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusCreated)
}

// containerDeleteManifest answers DELETE …/manifests/{reference}: a tag
// goes, or by digest every version of that manifest; 202.
func (s *kernel) containerDeleteManifest(c *containerCall) {
	ref, ok := c.reference()
	if !ok {
		s.writeContainerError(c.w, http.StatusNotFound, ociManifestUnknown, "manifest unknown")
		return
	}
	if err := s.containers.DeleteManifest(c.r.Context(), c.owner, c.path.image, ref); err != nil {
		s.failContainer(c, err, ociManifestInvalid)
		return
	}
	c.w.Header().Set("Content-Length", "0")
	c.w.WriteHeader(http.StatusAccepted)
}

// containerTagList is the tags list's body.
type containerTagList struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// containerTags answers GET …/tags/list?n=&last=: the image's tags in name
// order, with a Link to the next page when a page was asked for and filled.
func (s *kernel) containerTags(c *containerCall) {
	q := c.r.URL.Query()
	n := -1
	if raw := q.Get("n"); raw != "" {
		v, err := strconv.Atoi(raw)
		if err != nil || v < 0 {
			s.writeContainerError(c.w, http.StatusBadRequest, "PAGINATION_NUMBER_INVALID", "invalid number of results requested")
			return
		}
		n = v
	}
	last := q.Get("last")
	tags, err := s.containers.Tags(c.r.Context(), c.owner, c.path.image, last, n)
	if err != nil {
		s.failContainer(c, err, ociNameInvalid)
		return
	}
	if n > 0 && len(tags) == n {
		next := url.Values{"n": {strconv.Itoa(n)}, "last": {tags[len(tags)-1]}}
		c.w.Header().Set("Link", "<"+c.imageURL("/tags/list")+"?"+next.Encode()+`>; rel="next"`)
	}
	writeJSON(c.w, http.StatusOK, containerTagList{Name: c.owner.LowerName + "/" + c.path.image, Tags: tags})
}

// containerReferrersIndex is the referrers API's answer: an image index of
// the manifests that refer to the digest.
type containerReferrersIndex struct {
	SchemaVersion int                   `json:"schemaVersion"`
	MediaType     string                `json:"mediaType"`
	Manifests     []packages.Descriptor `json:"manifests"`
}

// containerReferrers answers GET …/referrers/{digest}[?artifactType=].
func (s *kernel) containerReferrers(c *containerCall) {
	if !packages.ValidDigest(c.path.arg) {
		s.writeContainerError(c.w, http.StatusBadRequest, ociDigestInvalid, "provided digest is invalid")
		return
	}
	artifactType := c.r.URL.Query().Get("artifactType")
	list, err := s.containers.Referrers(c.r.Context(), c.owner, c.path.image, c.path.arg, artifactType)
	if err != nil {
		s.failContainer(c, err, ociDigestInvalid)
		return
	}
	out := containerReferrersIndex{SchemaVersion: 2, MediaType: packages.MediaTypeOCIIndex,
		Manifests: make([]packages.Descriptor, 0, len(list))}
	for _, m := range list {
		out.Manifests = append(out.Manifests, packages.Descriptor{MediaType: m.MediaType, Digest: m.Digest,
			Size: m.Size, ArtifactType: m.ArtifactType, Annotations: m.Annotations})
	}
	if artifactType != "" {
		c.w.Header().Set("OCI-Filters-Applied", "artifactType")
	}
	raw, err := json.Marshal(out)
	if err != nil {
		s.failContainer(c, err, ociDigestInvalid)
		return
	}
	c.w.Header().Set("Content-Type", packages.MediaTypeOCIIndex)
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(raw)
}
