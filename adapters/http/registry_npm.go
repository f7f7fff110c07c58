package http

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/ports"
	"github.com/gorilla/mux"
	"golang.org/x/mod/semver"
)

// npmRegistryRoutes serves npm's registry protocol under
// /api/packages/{owner}/npm/: package documents, publish, tarballs,
// dist-tags and search. Scoped names come escaped in one segment
// ("@scope%2fname") or as two ("@scope/name"), so the rest of the path
// is parsed here rather than by patterns.
func (s *kernel) npmRegistryRoutes(sub *mux.Router) {
	sub.PathPrefix("/npm/").HandlerFunc(s.serveNpm)
}

// writeNpmError answers an error as npm's clients read it.
func writeNpmError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// npmPath is the part of the path after …/npm/, split into segments.
type npmPath struct {
	name string
	rest []string
}

// parseNpmPath reads the package name (scoped or not) and what follows it.
func parseNpmPath(segs []string) (npmPath, bool) {
	if len(segs) == 0 || segs[0] == "" {
		return npmPath{}, false
	}
	if strings.HasPrefix(segs[0], "@") && !strings.Contains(segs[0], "/") {
		if len(segs) < 2 {
			return npmPath{}, false
		}
		return npmPath{name: segs[0] + "/" + segs[1], rest: segs[2:]}, true
	}
	return npmPath{name: segs[0], rest: segs[1:]}, true
}

// serveNpm dispatches an npm request by its path's shape and method.
func (s *kernel) serveNpm(w http.ResponseWriter, r *http.Request) {
	esc := r.URL.EscapedPath()
	i := strings.Index(esc, "/npm/")
	var segs []string
	for _, seg := range strings.Split(strings.TrimSuffix(esc[i+len("/npm/"):], "/"), "/") {
		dec, err := url.PathUnescape(seg)
		if err != nil || strings.IndexByte(dec, 0) >= 0 {
			writeNpmError(w, http.StatusBadRequest, "malformed path")
			return
		}
		segs = append(segs, dec)
	}
	write := r.Method == http.MethodPut || r.Method == http.MethodDelete
	var h registryHandler
	switch {
	case len(segs) == 3 && segs[0] == "-" && segs[1] == "v1" && segs[2] == "search" && r.Method == http.MethodGet:
		h = s.npmSearch
	case len(segs) >= 3 && segs[0] == "-" && segs[1] == "package":
		h = s.npmTagRoute(segs[2:], r.Method)
	default:
		p, ok := parseNpmPath(segs)
		if ok {
			h = s.npmPackageRoute(p, r.Method)
		}
	}
	if h == nil {
		writeNpmError(w, http.StatusNotFound, "route not found")
		return
	}
	s.registry(write, writeNpmError, h)(w, r)
}

// npmTagRoute routes /-/package/{name}/dist-tags[/{tag}].
func (s *kernel) npmTagRoute(segs []string, method string) registryHandler {
	p, ok := parseNpmPath(segs)
	if !ok || len(p.rest) == 0 || p.rest[0] != "dist-tags" {
		return nil
	}
	switch {
	case len(p.rest) == 1 && method == http.MethodGet:
		return func(c *registryCall) error { return s.npmListTags(c, p.name) }
	case len(p.rest) == 2 && method == http.MethodPut:
		return func(c *registryCall) error { return s.npmSetTag(c, p.name, p.rest[1]) }
	case len(p.rest) == 2 && method == http.MethodDelete:
		return func(c *registryCall) error { return s.npmDeleteTag(c, p.name, p.rest[1]) }
	}
	return nil
}

// npmPackageRoute routes the paths that start with a package name.
func (s *kernel) npmPackageRoute(p npmPath, method string) registryHandler {
	switch {
	case len(p.rest) == 0 && (method == http.MethodGet || method == http.MethodHead):
		return func(c *registryCall) error { return s.npmDocument(c, p.name) }
	case len(p.rest) == 0 && method == http.MethodPut:
		return func(c *registryCall) error { return s.npmPublish(c, p.name) }
	case len(p.rest) == 3 && p.rest[0] == "-" && method == http.MethodGet:
		return func(c *registryCall) error { return s.npmTarball(c, p.name, p.rest[1], p.rest[2]) }
	case len(p.rest) == 2 && p.rest[0] == "-rev" && method == http.MethodPut:
		return func(c *registryCall) error { return s.npmUpdate(c, p.name) }
	case len(p.rest) == 2 && p.rest[0] == "-rev" && method == http.MethodDelete:
		return func(c *registryCall) error { return s.npmUnpublishAll(c, p.name) }
	case len(p.rest) == 5 && p.rest[0] == "-" && p.rest[3] == "-rev" && method == http.MethodDelete:
		return func(c *registryCall) error { return s.npmUnpublishVersion(c, p.name, p.rest[1]) }
	}
	return nil
}

// npmName validates a package name (400).
func npmName(name string) error {
	_, _, err := packages.ParseNpmName(name)
	return err
}

// npmTarballURL is where a version's tarball is downloaded.
func (s *kernel) npmTarballURL(owner, name, version, filename string) string {
	return s.baseURL + registryPrefix + "/" + url.PathEscape(owner) + "/npm/" + url.PathEscape(name) + "/-/" +
		url.PathEscape(version) + "/" + url.PathEscape(filename)
}

// npmPublishBody is what `npm publish` sends.
type npmPublishBody struct {
	Name        string                     `json:"name"`
	DistTags    map[string]string          `json:"dist-tags"`
	Versions    map[string]json.RawMessage `json:"versions"`
	Attachments map[string]struct {
		Data string `json:"data"`
	} `json:"_attachments"`
}

// npmPublish answers PUT …/npm/{name}: one new version with its tarball,
// 201; an existing version is 409; a name or version npm would not accept
// is 400.
func (s *kernel) npmPublish(c *registryCall, name string) error {
	if err := npmName(name); err != nil {
		return err
	}
	var body npmPublishBody
	if err := decodeRegistryJSON(c, 0, &body, "invalid package document"); err != nil {
		return err
	}
	if body.Name == name && len(body.Attachments) == 0 {
		return s.npmDeprecate(c, name, body.Versions)
	}
	if body.Name != name || len(body.Versions) != 1 || len(body.Attachments) != 1 {
		return errs.BadRequest("invalid package document: one version and its tarball are expected")
	}
	var version string
	var meta json.RawMessage
	for v, m := range body.Versions {
		version, meta = v, m
	}
	if !semver.IsValid("v"+version) || strings.HasPrefix(version, "v") {
		return errs.BadRequest("invalid package version")
	}
	var data, filename string
	for k, a := range body.Attachments {
		filename, data = path.Base(k), a.Data
	}
	tarball, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return errs.BadRequest("invalid package tarball")
	}
	var tags []string
	for tag, v := range body.DistTags {
		if v == version {
			tags = append(tags, tag)
		}
	}
	_, err = s.packages.Publish(c.r.Context(), apppkgs.Upload{Owner: c.owner, Creator: c.caller.User,
		Type: packages.TypeNpm, Name: name, Version: version, Filename: filename, Metadata: string(meta),
		NewVersion: true, Tags: tags, Body: bytes.NewReader(tarball)})
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusCreated, map[string]bool{"ok": true})
	return nil
}

// npmUpdate answers PUT …/npm/{name}/-rev/{rev}, npm's rewrite of the
// whole document (deprecate, and the first step of unpublishing a
// version, whose tarball DELETE follows): deprecation marks are applied,
// the rest of the document is Depot's own.
func (s *kernel) npmUpdate(c *registryCall, name string) error {
	if err := npmName(name); err != nil {
		return err
	}
	var body npmPublishBody
	if err := decodeRegistryJSON(c, 0, &body, "invalid package document"); err != nil {
		return err
	}
	if body.Name != name {
		return errs.BadRequest("invalid package document")
	}
	return s.npmDeprecate(c, name, body.Versions)
}

// npmDeprecate copies the "deprecated" message of each of versions that
// exists (an empty one clears it) into its stored document.
func (s *kernel) npmDeprecate(c *registryCall, name string, versions map[string]json.RawMessage) error {
	doc, err := s.packages.NpmPackage(c.r.Context(), c.owner, name)
	if err != nil {
		return err
	}
	for _, v := range doc.Versions {
		raw, ok := versions[v.Version]
		if !ok {
			continue
		}
		var sent struct {
			Deprecated *string `json:"deprecated"`
		}
		if err := json.Unmarshal(raw, &sent); err != nil {
			return errs.BadRequest("invalid package document")
		}
		var meta map[string]any
		if err := json.Unmarshal([]byte(v.Metadata), &meta); err != nil || meta == nil {
			meta = map[string]any{"name": name, "version": v.Version}
		}
		before, _ := meta["deprecated"].(string)
		now := ""
		if sent.Deprecated != nil {
			now = *sent.Deprecated
		}
		if before == now {
			continue
		}
		if now == "" {
			delete(meta, "deprecated")
		} else {
			meta["deprecated"] = now
		}
		out, err := json.Marshal(meta)
		if err != nil {
			return err
		}
		if err := s.packages.SetMetadata(c.r.Context(), c.owner, packages.TypeNpm, name, v.Version, string(out)); err != nil {
			return err
		}
	}
	writeJSON(c.w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

// npmTarball answers GET …/npm/{name}/-/{version}/{filename}.
func (s *kernel) npmTarball(c *registryCall, name, version, filename string) error {
	if err := npmName(name); err != nil {
		return err
	}
	f, body, err := s.packages.Open(c.r.Context(), c.owner, packages.TypeNpm, name, version, filename)
	if err != nil {
		return err
	}
	defer body.Close()
	h := c.w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	h.Set("ETag", `"`+f.Blob.SHA256+`"`)
	http.ServeContent(c.w, c.r, "", f.CreatedAt, body)
	return nil
}

// npmUnpublishAll answers DELETE …/npm/{name}/-rev/{rev}: every version goes.
func (s *kernel) npmUnpublishAll(c *registryCall, name string) error {
	doc, err := s.packages.NpmPackage(c.r.Context(), c.owner, name)
	if err != nil {
		return err
	}
	for _, v := range doc.Versions {
		if err := s.packages.DeleteVersion(c.r.Context(), c.caller.User, c.owner, string(packages.TypeNpm), name, v.Version); err != nil {
			return err
		}
	}
	writeJSON(c.w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

// npmUnpublishVersion answers DELETE …/npm/{name}/-/{version}/{file}/-rev/{rev}.
func (s *kernel) npmUnpublishVersion(c *registryCall, name, version string) error {
	if err := s.packages.DeleteVersion(c.r.Context(), c.caller.User, c.owner, string(packages.TypeNpm), name, version); err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

// npmListTags answers GET …/npm/-/package/{name}/dist-tags.
func (s *kernel) npmListTags(c *registryCall, name string) error {
	doc, err := s.packages.NpmPackage(c.r.Context(), c.owner, name)
	if err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, doc.Tags)
	return nil
}

// npmTagBodyMax bounds the body of a dist-tag's PUT (a version as a JSON
// string).
const npmTagBodyMax = 1024

// npmSetTag answers PUT …/npm/-/package/{name}/dist-tags/{tag}; the body
// is the version as a JSON string.
func (s *kernel) npmSetTag(c *registryCall, name, tag string) error {
	var version string
	if err := decodeRegistryJSON(c, npmTagBodyMax, &version, "invalid version"); err != nil {
		return err
	}
	if version == "" {
		return errs.BadRequest("invalid version")
	}
	if tag == "" || semver.IsValid("v"+tag) {
		return errs.BadRequest("invalid tag")
	}
	if err := s.packages.SetTag(c.r.Context(), c.owner, name, tag, version); err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

// npmDeleteTag answers DELETE …/npm/-/package/{name}/dist-tags/{tag}.
func (s *kernel) npmDeleteTag(c *registryCall, name, tag string) error {
	if err := s.packages.DeleteTag(c.r.Context(), c.owner, name, tag); err != nil {
		return err
	}
	writeJSON(c.w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

// npmSearch answers GET …/npm/-/v1/search?text=&size=&from=.
func (s *kernel) npmSearch(c *registryCall) error {
	q := c.r.URL.Query()
	size, _ := strconv.Atoi(q.Get("size"))
	from, _ := strconv.Atoi(q.Get("from"))
	size = min(max(size, 1), 250)
	if size == 1 && q.Get("size") == "" {
		size = 20
	}
	from = max(from, 0)
	views, total, err := s.packages.List(c.r.Context(), c.owner, packages.TypeNpm, q.Get("text"),
		ports.ListOptions{Page: from/size + 1, Limit: size})
	if err != nil {
		return err
	}
	objects := make([]map[string]any, 0, len(views))
	for _, v := range views {
		objects = append(objects, map[string]any{"package": map[string]any{
			"name": v.Package.Name, "version": v.Version.Version, "date": v.Version.CreatedAt,
			"links": map[string]string{"registry": s.baseURL + registryPrefix + "/" + c.owner.Name + "/npm/" + url.PathEscape(v.Package.Name)},
		}})
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"objects": objects, "total": total})
	return nil
}
