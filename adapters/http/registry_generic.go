package http

import (
	"mime"
	"net/http"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/gorilla/mux"
)

// genericRegistryRoutes serves Gitea's generic registry: files put under
// a name and version, read back and deleted, by any HTTP client.
func (s *kernel) genericRegistryRoutes(sub *mux.Router) {
	const base = "/generic/{name}/{version}"
	sub.HandleFunc(base+"/{filename}", s.registry(true, writePlain, s.genericUpload)).Methods(http.MethodPut)
	sub.HandleFunc(base+"/{filename}", s.registry(false, writePlain, s.genericDownload)).Methods(http.MethodGet, http.MethodHead)
	sub.HandleFunc(base+"/{filename}", s.registry(true, writePlain, s.genericDeleteFile)).Methods(http.MethodDelete)
	sub.HandleFunc(base, s.registry(true, writePlain, s.genericDeleteVersion)).Methods(http.MethodDelete)
}

// genericParams validates the path's name, version and file name (400).
func genericParams(c *registryCall, withFile bool) (name, version, filename string, err error) {
	name, version = c.vars["name"], c.vars["version"]
	if withFile {
		filename = c.vars["filename"]
		if filename == "" {
			return "", "", "", errs.BadRequest("invalid package name, version or filename")
		}
	}
	return name, version, filename, packages.CheckGeneric(name, version, filename)
}

// genericUpload answers PUT …/generic/{name}/{version}/{filename}: 201, 409
// when the version has the file already.
func (s *kernel) genericUpload(c *registryCall) error {
	name, version, filename, err := genericParams(c, true)
	if err != nil {
		return err
	}
	_, err = s.packages.Publish(c.r.Context(), apppkgs.Upload{Owner: c.owner, Creator: c.caller.User,
		Type: packages.TypeGeneric, Name: name, Version: version, Filename: filename, Body: registryBody(c)})
	if err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusCreated)
	return nil
}

// genericDownload answers GET …/generic/{name}/{version}/{filename} with
// the file's bytes, streamed (ranges honoured).
func (s *kernel) genericDownload(c *registryCall) error {
	name, version, filename, err := genericParams(c, true)
	if err != nil {
		return err
	}
	f, body, err := s.packages.Open(c.r.Context(), c.owner, packages.TypeGeneric, name, version, filename)
	if err != nil {
		return err
	}
	defer body.Close()
	h := c.w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	h.Set("ETag", `"`+f.Blob.SHA256+`"`)
	h.Set("X-Checksum-Sha256", f.Blob.SHA256)
	http.ServeContent(c.w, c.r, "", f.CreatedAt, body)
	return nil
}

// genericDeleteFile answers DELETE …/generic/{name}/{version}/{filename}:
// 204, and the version goes with its last file.
func (s *kernel) genericDeleteFile(c *registryCall) error {
	name, version, filename, err := genericParams(c, true)
	if err != nil {
		return err
	}
	if err := s.packages.DeleteFile(c.r.Context(), c.caller.User, c.owner, packages.TypeGeneric, name, version, filename); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// genericDeleteVersion answers DELETE …/generic/{name}/{version}: 204.
func (s *kernel) genericDeleteVersion(c *registryCall) error {
	name, version, _, err := genericParams(c, false)
	if err != nil {
		return err
	}
	if err := s.packages.DeleteVersion(c.r.Context(), c.caller.User, c.owner, string(packages.TypeGeneric), name, version); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}
