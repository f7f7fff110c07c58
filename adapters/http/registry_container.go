package http

import (
	"errors"
	"net/http"
	"net/url"
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
// the token flow docker login uses, the catalog, blob uploads (monolithic, chunked,
// mounted), blobs, manifests and indexes by tag and digest, tags and
// referrers. Image names may hold slashes, so the path is parsed here.
func (s *kernel) containerRegistryRoutes(router *mux.Router) {
	router.Path(containerPrefix).HandlerFunc(s.serveContainer)
	router.PathPrefix(containerPrefix + "/").HandlerFunc(s.serveContainer)
}

// The parts of the registry's paths below an image.
const (
	containerBase        = "base"
	containerCatalog     = "catalog"
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
	case "/_catalog":
		return containerPath{kind: containerCatalog}, true
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
	start := s.containerRequests.Started()
	defer func() { s.containerRequests.Done(start, r.Method, statusOf(w)) }()
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
	if p.kind == containerCatalog {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			s.writeContainerError(w, http.StatusMethodNotAllowed, ociUnsupported, "the operation is unsupported")
			return
		}
		s.containerCatalog(c)
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
