package site

// APIDocs is Gitea's [api] ENABLE_SWAGGER: with it on, Depot serves its
// OpenAPI document (/swagger.v1.json, /openapi3.v1.json), the interactive
// page that shows it (/api/swagger) and /api/v1/swagger, which redirects
// there; off, those answer 404 and errors name the plain-text page instead.
type APIDocs struct {
	// EnableSwagger serves the document and the interactive page.
	EnableSwagger bool
}
