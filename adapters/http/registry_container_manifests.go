package http

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
)

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

// errManifestTooLarge refuses a manifest past packages.MaxManifestBytes.
var errManifestTooLarge = errs.TooLarge("manifest exceeds maximum size")

// containerPutManifest answers PUT …/manifests/{reference}: 201 with the
// manifest's digest (and OCI-Subject when it refers to another).
func (s *kernel) containerPutManifest(c *containerCall) {
	ref, ok := c.reference()
	if !ok {
		s.writeContainerError(c.w, http.StatusBadRequest, ociManifestInvalid, "tag is invalid")
		return
	}
	body, err := readAtMost(registryBody(&c.registryCall), packages.MaxManifestBytes, errManifestTooLarge)
	if err != nil {
		s.failContainer(c, registryReadError(err, "the manifest could not be read"), ociManifestInvalid)
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
	if err := s.containers.DeleteManifest(c.r.Context(), c.caller.User, c.owner, c.path.image, ref); err != nil {
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
	n, ok := s.containerPageSize(c, -1)
	if !ok {
		return
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

// containerPageSize reads a listing's n (absent: unset), answering 400
// PAGINATION_NUMBER_INVALID for anything but a non-negative integer.
func (s *kernel) containerPageSize(c *containerCall, unset int) (int, bool) {
	raw := c.r.URL.Query().Get("n")
	if raw == "" {
		return unset, true
	}
	v, err := strconv.Atoi(raw)
	if err != nil || v < 0 {
		s.writeContainerError(c.w, http.StatusBadRequest, "PAGINATION_NUMBER_INVALID", "invalid number of results requested")
		return 0, false
	}
	return v, true
}

// containerCatalogDTO is the catalog's answer.
type containerCatalogDTO struct {
	Repositories []string `json:"repositories"`
}

// containerCatalog answers GET /v2/_catalog[?n=&last=]: the images of the
// owners the caller may see, one page (at most the service's bound) at a
// time, with a Link to the next page when the page is full.
func (s *kernel) containerCatalog(c *containerCall) {
	if err := permission.CheckScope(c.caller.Actor(), false, catPackage); err != nil {
		s.failContainer(c, errs.Unauthenticated("token lacks the package scope"), ociUnauthorized)
		return
	}
	n, ok := s.containerPageSize(c, apppkgs.MaxCatalogPage)
	if !ok {
		return
	}
	n = min(n, apppkgs.MaxCatalogPage)
	names, err := s.containers.Catalog(c.r.Context(), c.caller, c.r.URL.Query().Get("last"), n)
	if err != nil {
		s.failContainer(c, err, ociUnsupported)
		return
	}
	setRegistryHeaders(c.w)
	if n > 0 && len(names) == n {
		next := url.Values{"n": {strconv.Itoa(n)}, "last": {names[len(names)-1]}}
		c.w.Header().Set("Link", "<"+containerPrefix+"/_catalog?"+next.Encode()+`>; rel="next"`)
	}
	writeJSON(c.w, http.StatusOK, containerCatalogDTO{Repositories: names})
}
