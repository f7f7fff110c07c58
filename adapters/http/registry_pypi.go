package http

import (
	"errors"
	"html/template"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	apppkgs "github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/gorilla/mux"
)

// pypiRegistryRoutes serves the Python package index as Gitea does under
// /api/packages/{owner}/pypi: twine's upload, the simple index pip reads
// (PEP 503) and the files it links to.
func (s *kernel) pypiRegistryRoutes(sub *mux.Router) {
	upload := s.registry(true, writePlain, s.pypiUpload)
	sub.HandleFunc("/pypi", upload).Methods(http.MethodPost)
	sub.HandleFunc("/pypi/", upload).Methods(http.MethodPost)
	index := s.registry(false, writePlain, s.pypiIndex)
	sub.HandleFunc("/pypi/simple/{name}", index).Methods(http.MethodGet, http.MethodHead)
	sub.HandleFunc("/pypi/simple/{name}/", index).Methods(http.MethodGet, http.MethodHead)
	sub.HandleFunc("/pypi/files/{name}/{version}/{filename}", s.registry(false, writePlain, s.pypiDownload)).
		Methods(http.MethodGet, http.MethodHead)
}

// pypiFieldsMax bounds the form fields of one upload together (the long
// description is the largest, a README).
const pypiFieldsMax = 8 << 20

// pypiForm is an upload's form: its fields, then the file.
type pypiForm struct {
	fields map[string]string
	// content is the file's part, positioned at its start; nil when the
	// form has none.
	content *multipart.Part
}

// readPypiForm reads the fields of a multipart upload as twine sends it
// up to the file ("content"), which is left to stream: the fields the
// index needs (name, version, digests) come before it. Fields after the
// file are not read. A malformed form is errs.BadRequest; fields over
// limit bytes in all are errs.ErrTooLarge.
func readPypiForm(mr *multipart.Reader, limit int64) (pypiForm, error) {
	form := pypiForm{fields: map[string]string{}}
	left := limit
	tooLarge := errs.TooLarge("form fields exceed " + strconv.FormatInt(limit, 10) + " bytes")
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return form, nil
		}
		if err != nil {
			return form, registryReadError(err, "malformed multipart form")
		}
		name := part.FormName()
		if name == "content" {
			form.content = part
			return form, nil
		}
		buf, err := readAtMost(part, left, tooLarge)
		if err != nil {
			return form, registryReadError(err, "malformed multipart form")
		}
		left -= int64(len(buf))
		// A repeated field (classifiers, for one) keeps its first value.
		if _, ok := form.fields[name]; !ok && name != "" {
			form.fields[name] = string(buf)
		}
	}
}

// pypiUpload answers POST …/pypi (twine upload): 201; 400 for a form
// without the file, an invalid name or version, or digests that do not
// match; 409 for a file the version has already; 413 over the size limit.
func (s *kernel) pypiUpload(c *registryCall) error {
	mt, params, err := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return errs.BadRequest("multipart form expected")
	}
	form, err := readPypiForm(multipart.NewReader(registryBody(c), params["boundary"]), pypiFieldsMax)
	if err != nil {
		return err
	}
	f := form.fields
	if a := f[":action"]; a != "" && a != "file_upload" {
		return errs.BadRequest("unsupported action " + a)
	}
	if form.content == nil {
		return errs.BadRequest("the form has no file (content)")
	}
	_, err = s.packages.PublishPypi(c.r.Context(), apppkgs.PypiUpload{Owner: c.owner, Creator: c.caller.User,
		Name: f["name"], Version: f["version"], Filename: form.content.FileName(),
		SHA256: f["sha256_digest"], MD5: f["md5_digest"], Body: form.content,
		Metadata: packages.PypiMetadata{Author: f["author"], Description: f["description"],
			LongDescription: f["long_description"], Summary: f["summary"], ProjectURL: f["home_page"],
			License: f["license"], RequiresPython: f["requires_python"], Keywords: f["keywords"]}})
	if err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusCreated)
	return nil
}

// pypiSimple is the simple index page of one package (PEP 503): a link
// per file with its SHA-256 and the Python versions it needs.
var pypiSimple = template.Must(template.New("simple").Parse(`<!DOCTYPE html>
<html>
	<head>
		<title>Links for {{.Name}}</title>
	</head>
	<body>
		<h1>Links for {{.Name}}</h1>
{{range .Links}}		<a href="{{.URL}}"{{if .RequiresPython}} data-requires-python="{{.RequiresPython}}"{{end}}>{{.Filename}}</a><br>
{{end}}	</body>
</html>
`))

type pypiLink struct {
	URL            template.URL
	Filename       string
	RequiresPython string
}

// pypiIndex answers GET …/pypi/simple/{name}: the package's files, its
// name in any spelling (PEP 503).
func (s *kernel) pypiIndex(c *registryCall) error {
	idx, err := s.packages.PypiPackage(c.r.Context(), c.owner, c.vars["name"])
	if err != nil {
		return err
	}
	base := s.baseURL + registryPrefix + "/" + url.PathEscape(c.owner.Name) + "/pypi/files/" + url.PathEscape(idx.Package.Name) + "/"
	var links []pypiLink
	for _, r := range idx.Releases {
		for _, f := range r.Files {
			links = append(links, pypiLink{
				URL:      template.URL(base + url.PathEscape(r.Version.Version) + "/" + url.PathEscape(f.Name) + "#sha256=" + f.Blob.SHA256),
				Filename: f.Name, RequiresPython: r.Metadata.RequiresPython})
		}
	}
	c.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	if err := pypiSimple.Execute(&b, map[string]any{"Name": idx.Package.Name, "Links": links}); err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(c.w, b.String())
	return nil
}

// pypiDownload answers GET …/pypi/files/{name}/{version}/{filename}.
func (s *kernel) pypiDownload(c *registryCall) error {
	f, body, err := s.packages.OpenPypi(c.r.Context(), c.owner, c.vars["name"], c.vars["version"], c.vars["filename"])
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
