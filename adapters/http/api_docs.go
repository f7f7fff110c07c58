package http

import (
	"embed"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/depothq/depot/docs"
)

// apiDocsPath serves docs/api.md as plain text. Errors' url names it while
// the interactive page is off (api.enable_swagger = false); it stays served
// either way.
const apiDocsPath = "/api/docs"

// The interactive API page (Gitea's paths): the page, its Swagger UI assets,
// the Swagger 2.0 document and its OpenAPI 3 rendering.
const (
	apiPagePath     = "/api/swagger"
	apiPageAssets   = "/api/swagger-ui/"
	swaggerJSONPath = "/swagger.v1.json"
	openAPI3Path    = "/openapi3.v1.json"
)

//go:embed swaggerui/index.html swaggerui/init.js swaggerui/swagger-ui-bundle.js swaggerui/swagger-ui.css
var swaggerUI embed.FS

// serveAPIDocs answers docs/api.md as plain UTF-8 text, which every browser
// and terminal shows as it is.
func (s *kernel) serveAPIDocs(w http.ResponseWriter, r *http.Request) {
	writeStatic(w, r, "text/plain; charset=utf-8", docs.API)
}

// apiPage is the interactive API page and the documents it shows, made
// at the first request for them (start-up does not pay for them).
type apiPage struct {
	table   []route
	baseURL string
	log     *slog.Logger

	once         sync.Once
	html, v2, v3 []byte
	err          error
}

// newAPIPage prepares the page of the table.
func newAPIPage(table []route, baseURL string, log *slog.Logger) *apiPage {
	return &apiPage{table: table, baseURL: baseURL, log: log}
}

// render builds the documents and the page once.
func (p *apiPage) render() error {
	p.once.Do(func() {
		p.v2, p.v3, p.err = openAPIDocuments(p.table, p.baseURL)
		if p.err != nil {
			p.log.Error("building the OpenAPI document", "err", p.err)
			return
		}
		index, err := swaggerUI.ReadFile("swaggerui/index.html")
		if err != nil {
			p.err = err
			return
		}
		html := strings.ReplaceAll(string(index), "{{SPEC_URL}}", p.baseURL+swaggerJSONPath)
		html = strings.ReplaceAll(html, `"swagger-ui/`, `"`+p.baseURL+apiPageAssets)
		p.html = []byte(html)
	})
	return p.err
}

// serveRendered answers one of the rendered bodies, or 500 when the
// document could not be built (TestOpenAPIDocumentCoversTheTable keeps
// that from happening).
func (p *apiPage) serveRendered(typ string, body func() []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if p.render() != nil {
			http.Error(w, "the API document could not be built", http.StatusInternalServerError)
			return
		}
		writeStatic(w, r, typ, body())
	}
}

// serveAsset answers one of the embedded Swagger UI files.
func (p *apiPage) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, apiPageAssets)
	var typ string
	switch name {
	case "swagger-ui-bundle.js", "init.js":
		typ = "text/javascript; charset=utf-8"
	case "swagger-ui.css":
		typ = "text/css; charset=utf-8"
	default:
		http.NotFound(w, r)
		return
	}
	body, err := swaggerUI.ReadFile("swaggerui/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	writeStatic(w, r, typ, body)
}

// writeStatic answers a body made in advance, without it for HEAD.
func writeStatic(w http.ResponseWriter, r *http.Request, typ string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", typ)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body) // a failed write means the client left
	}
}

// apiSwagger is the row of GET /api/v1/swagger.
type apiSwagger struct{ *kernel }

// apiSwaggerRoutes is the row that sends GET /api/v1/swagger to the page.
func (s *kernel) apiSwaggerRoutes() []route {
	h := apiSwagger{s}
	return []route{
		{"GET", "/swagger", nil, "-", h.redirect},
	}
}

// redirect answers GET /api/v1/swagger: 303 to the page, as Gitea's
// ctx.Redirect; 404 when the page is off.
func (s apiSwagger) redirect(q *request) error {
	if !s.settings.APIDocs.EnableSwagger {
		s.writeMessage(q.w, http.StatusNotFound, "route not found")
		return nil
	}
	http.Redirect(q.w, q.r, s.baseURL+apiPagePath, http.StatusSeeOther)
	return nil
}
