package test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/matryer/is"
)

// TestAPIPage covers the interactive API page (on by default, as Gitea's
// ENABLE_SWAGGER): /api/v1/swagger redirects to /api/swagger, the page
// loads Swagger UI from the binary and names /swagger.v1.json, the Swagger
// 2.0 document and its OpenAPI 3 rendering load and validate with
// kin-openapi and list the routes, errors' url names the page, and HEAD
// answers each without a body.
func TestAPIPage(t *testing.T) {
	t.Parallel()
	backends(t, testAPIPage)
}

func testAPIPage(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	is := is.New(t)

	r := srv.Do("GET", "/swagger", nil)
	is.Equal(r.Status, http.StatusSeeOther)
	is.Equal(r.Header.Get("Location"), srv.URL+"/api/swagger")
	is.Equal(srv.Do("POST", "/swagger", nil).Status, http.StatusMethodNotAllowed)

	page := srv.Do("GET", srv.URL+"/api/swagger", nil)
	is.Equal(page.Status, http.StatusOK)
	is.Equal(page.Header.Get("Content-Type"), "text/html; charset=utf-8")
	html := string(page.Body)
	is.True(strings.Contains(html, `data-spec-url="`+srv.URL+`/swagger.v1.json"`))
	for _, asset := range []struct{ path, typ, has string }{
		{"/api/swagger-ui/swagger-ui-bundle.js", "text/javascript; charset=utf-8", "SwaggerUIBundle"},
		{"/api/swagger-ui/swagger-ui.css", "text/css; charset=utf-8", ".swagger-ui"},
		{"/api/swagger-ui/init.js", "text/javascript; charset=utf-8", "data-spec-url"},
	} {
		is.True(strings.Contains(html, srv.URL+asset.path)) // the page loads it
		a := srv.Do("GET", srv.URL+asset.path, nil)
		is.Equal(a.Status, http.StatusOK)
		is.Equal(a.Header.Get("Content-Type"), asset.typ)
		is.True(strings.Contains(string(a.Body), asset.has))
	}
	is.Equal(srv.Do("GET", srv.URL+"/api/swagger-ui/index.html", nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", srv.URL+"/api/swagger-ui/../../swagger.v1.json", nil).Status/100, 3) // cleaned, redirected

	v2 := srv.Do("GET", srv.URL+"/swagger.v1.json", nil)
	is.Equal(v2.Status, http.StatusOK)
	is.Equal(v2.Header.Get("Content-Type"), "application/json;charset=utf-8")
	var doc openapi2.T
	is.NoErr(doc.UnmarshalJSON(v2.Body))
	is.Equal(doc.Swagger, "2.0")
	is.Equal(doc.BasePath, "/api/v1")
	doc3, err := openapi2conv.ToV3(&doc)
	is.NoErr(err)
	is.NoErr(doc3.Validate(context.Background()))
	get := doc.Paths["/repos/{owner}/{repo}/issues/{index}"].Get
	is.True(get != nil)
	is.Equal(get.Responses.Value("200").Schema.Ref, "#/definitions/Issue")
	is.Equal(get.Extensions["x-depot-scopes"], []any{"issue"})
	is.True(doc.Paths["/swagger"].Get != nil)
	is.True(doc.Paths["/repos/{owner}/{repo}/raw/{filepath}"].Get != nil)

	v3 := srv.Do("GET", srv.URL+"/openapi3.v1.json", nil)
	is.Equal(v3.Status, http.StatusOK)
	loaded, err := openapi3.NewLoader().LoadFromData(v3.Body)
	is.NoErr(err)
	is.NoErr(loaded.Validate(context.Background()))
	is.True(loaded.Paths.Find("/repos/{owner}/{repo}/issues/{index}") != nil)

	for _, p := range []string{"/api/swagger", "/swagger.v1.json", "/openapi3.v1.json", "/api/swagger-ui/swagger-ui.css"} {
		head := srv.Do("HEAD", srv.URL+p, nil)
		is.Equal(head.Status, http.StatusOK)
		is.Equal(len(head.Body), 0)
		is.True(head.Header.Get("Content-Length") != "0")
	}
	is.Equal(srv.Do("POST", srv.URL+"/api/swagger", "x").Status, http.StatusMethodNotAllowed)

	var body struct {
		URL string `json:"url"`
	}
	srv.Do("GET", "/nope", nil).Decode(t, &body)
	is.Equal(body.URL, srv.URL+"/api/swagger")
	is.Equal(srv.Do("GET", srv.URL+"/api/docs", nil).Status, http.StatusOK) // still served
}

// TestAPIPageDisabled: with api.enable_swagger off, the page, its assets,
// the documents and the redirect answer 404, and errors name /api/docs.
func TestAPIPageDisabled(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.APIDocs.EnableSwagger = false }))
	is := is.New(t)
	assertAPIError(t, srv.Do("GET", "/swagger", nil), http.StatusNotFound, "route not found")
	for _, p := range []string{"/api/swagger", "/swagger.v1.json", "/openapi3.v1.json", "/api/swagger-ui/swagger-ui-bundle.js"} {
		is.Equal(srv.Do("GET", srv.URL+p, nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("HEAD", srv.URL+p, nil).Status, http.StatusNotFound)
	}
	var body struct {
		URL string `json:"url"`
	}
	srv.Do("GET", "/nope", nil).Decode(t, &body)
	is.Equal(body.URL, srv.URL+"/api/docs")
}
