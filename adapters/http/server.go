// Package http is the REST adapter: a gorilla/mux router over one route table
// that mirrors the spec's catalogue (method, path, scope category, access
// codes), one middleware that resolves the caller and enforces the codes,
// and DTOs in Gitea's JSON shapes. Handlers decode, call one use case, encode.
package http

import (
	"github.com/depothq/depot/app/activity"
	"github.com/depothq/depot/app/notifications"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/app/actions"
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/cron"
	"github.com/depothq/depot/app/federation"
	"github.com/depothq/depot/app/health"
	"github.com/depothq/depot/app/hooks"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/markup"
	"github.com/depothq/depot/app/mirrors"
	"github.com/depothq/depot/app/oauth2"
	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/app/packages"
	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
	"github.com/gorilla/mux"
)

// Version is Depot's own version, reported as semver build metadata after
// the Gitea API level it follows (clients enable features by that level).
const Version = "0.1.0"

// APILevel is the Gitea release whose API Depot answers like.
const APILevel = "1.27.0"

// Server is the HTTP handler of the whole service: the route table mounted
// on a router, over the kernel every resource's handlers share.
type Server struct {
	*kernel
	handler http.Handler
	// static maps the paths without variables (then the method) to their
	// handlers, so the most frequent requests skip mux's pattern matching.
	static map[string]map[string]http.HandlerFunc
	// pathRoutes are the API's path templates in the table's order, each
	// with its handlers by method (routes.go).
	pathRoutes []*pathRoutes
}

// kernel is what the handlers of every resource share, and all they share:
// the use cases, the site's settings, and the helpers for access (access.go),
// paging (paging.go), errors (errors.go), JSON (json.go) and the DTOs that
// many resources embed (accounts, repositories). Each resource of the
// catalogue is a small type over the kernel in a file named for the
// resource, holding its route rows, handlers and DTOs (docs/architecture.md).
type kernel struct {
	auth *auth.Authenticator
	// web are browsers' sessions on the sign-in and consent pages (web_signin.go).
	web *auth.WebSessions
	// proxy reads a trusted reverse proxy's user header; nil when off.
	proxy   *httpkit.ReverseProxy
	users   *users.Service
	repos   *repos.Service
	content *content.Service
	mirrors *mirrors.Service
	hooks   *hooks.Service
	orgs    *orgs.Service
	issues  *issues.Service
	pulls   *pulls.Service
	markup  *markup.Service
	actions *actions.Service
	health  *health.Service
	// oauth2 is the OAuth2 provider and its applications (oauth2_apps.go, oauth2_provider.go).
	oauth2 *oauth2.Service
	// packages serves the package API and the registries (packages.go, registry*.go).
	packages *packages.Service
	// containers serves the container registry (registry_container.go).
	containers *packages.Containers
	// npmParts keeps the rendered versions of npm package documents
	// (registry_npm_document.go).
	npmParts *npmVersionParts
	cron     *cron.Service
	// federation describes the site to other servers (nodeinfo.go).
	federation *federation.Service
	// signatures checks the HTTP signatures of ActivityPub inbox posts
	// (activitypub.go).
	signatures *security.SignatureChecker
	// sshSignatures authenticates API requests signed with an SSH key, the
	// second credential in the spec's order (nil: none accepted).
	sshSignatures httpkit.SignatureVerifier
	// feeds answers the activity feeds (activities.go).
	feeds *activity.Feeds
	// notifications answers the notification threads (notifications.go).
	notifications *notifications.Service
	metrics       ports.RequestMetrics
	// registryRequests and containerRequests record the package
	// registries' requests, which the route table does not list.
	registryRequests, containerRequests ports.RouteMetrics
	// unconditional turns the conditional answers of GETs off (ETags and
	// 304s, conditional.go), only for the benchmarks that weigh their cost.
	unconditional bool
	signer        ports.CommitSigner
	dispatch      *hooks.Dispatcher
	settings      site.Settings
	// limits are the API's request limits (rate_limits.go).
	limits     *rateLimiter
	log        *slog.Logger
	baseURL    string
	apiDocsURL string // every error body's url: the page documenting the API
	// pullLists are encoded pages of GET R/pulls (pull_list_cache.go).
	pullLists *pullListCache
	// stamps and notModified answer repeated conditional GETs
	// (conditional_memo.go); stamps may be nil (no memo).
	stamps      ports.ChangeStamps
	notModified *notModifiedMemo
	// versionBody is the constant answer of GET /version.
	versionBody []byte
}

// apiPrefix is where the REST API lives.
const apiPrefix = "/api/v1"

// Services are the use cases the routes call.
type Services struct {
	Auth *auth.Authenticator
	// Stamps tell the memo of conditional answers when the database changed.
	Stamps ports.ChangeStamps
	// WebSessions are browsers' sessions on Depot's own pages.
	WebSessions *auth.WebSessions
	Users       *users.Service
	Repos       *repos.Service
	Content     *content.Service
	Mirrors     *mirrors.Service
	Hooks       *hooks.Service
	// HookDispatch sends test deliveries.
	HookDispatch *hooks.Dispatcher
	Orgs         *orgs.Service
	Issues       *issues.Service
	Pulls        *pulls.Service
	Markup       *markup.Service
	// Health checks the database and the repositories' volume.
	Health *health.Service
	// Federation answers NodeInfo and ActivityPub.
	Federation *federation.Service
	// Signatures checks the HTTP signatures posted to ActivityPub inboxes.
	Signatures *security.SignatureChecker
	// SSHSignatures authenticates API requests signed with an SSH key.
	SSHSignatures httpkit.SignatureVerifier
	// Feeds answers the activity feeds and heatmaps.
	Feeds *activity.Feeds
	// Notifications answers the users' notification threads.
	Notifications *notifications.Service
	// Metrics records the API's requests (nil: recorded nowhere).
	Metrics ports.RequestMetrics
	Actions *actions.Service
	// OAuth2 is the OAuth2 provider and its applications.
	OAuth2 *oauth2.Service
	// Signer signs Depot's own commits; nil when it signs none.
	Signer ports.CommitSigner
	// Packages is the package API and the registries' use cases.
	Packages *packages.Service
	// Containers is the container registry's use cases.
	Containers *packages.Containers
	// Cron lists and runs the periodic tasks.
	Cron *cron.Service
}

// NewServer builds the handler and its routes.
func NewServer(svc Services, settings site.Settings, log *slog.Logger) (*Server, error) {
	base := strings.TrimSuffix(settings.BaseURL, "/")
	k := &kernel{auth: svc.Auth, web: svc.WebSessions, proxy: httpkit.NewReverseProxy(settings.ReverseProxy), users: svc.Users, repos: svc.Repos, content: svc.Content, mirrors: svc.Mirrors,
		hooks: svc.Hooks, dispatch: svc.HookDispatch, orgs: svc.Orgs, issues: svc.Issues, pulls: svc.Pulls, markup: svc.Markup, health: svc.Health, federation: svc.Federation, signatures: svc.Signatures, sshSignatures: svc.SSHSignatures, feeds: svc.Feeds, notifications: svc.Notifications, metrics: svc.Metrics, signer: svc.Signer, actions: svc.Actions, oauth2: svc.OAuth2, packages: svc.Packages, containers: svc.Containers, npmParts: &npmVersionParts{}, cron: svc.Cron,
		settings: settings, limits: newRateLimiter(settings.RateLimits, time.Now, log), log: log, baseURL: base, apiDocsURL: base + apiDocsPath, pullLists: newPullListCache(), stamps: svc.Stamps, notModified: newNotModifiedMemo(),
		versionBody: []byte(`{"version":"` + APILevel + "+depot." + Version + `"}` + "\n")}
	if k.metrics == nil {
		k.metrics = noMetrics{}
	}
	k.registryRequests, k.containerRequests = k.metrics.Route(registryPrefix), k.metrics.Route(containerPrefix)
	if settings.APIDocs.EnableSwagger {
		k.apiDocsURL = base + apiPagePath
	}
	s := &Server{kernel: k, static: map[string]map[string]http.HandlerFunc{}}
	router := mux.NewRouter()
	router.UseEncodedPath()
	router.Path(apiDocsPath).Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveAPIDocs)
	table := s.routes()
	if settings.APIDocs.EnableSwagger {
		page := newAPIPage(table, base, log)
		router.Path(apiPagePath).Methods(http.MethodGet, http.MethodHead).
			HandlerFunc(page.serveRendered("text/html; charset=utf-8", func() []byte { return page.html }))
		router.PathPrefix(apiPageAssets).Methods(http.MethodGet, http.MethodHead).HandlerFunc(page.serveAsset)
		router.Path(swaggerJSONPath).Methods(http.MethodGet, http.MethodHead).
			HandlerFunc(page.serveRendered("application/json;charset=utf-8", func() []byte { return page.v2 }))
		router.Path(openAPI3Path).Methods(http.MethodGet, http.MethodHead).
			HandlerFunc(page.serveRendered("application/json;charset=utf-8", func() []byte { return page.v3 }))
	}
	router.Path(healthPath).Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveHealth)
	router.Path(nodeInfoWellKnownPath).Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveNodeInfoWellKnown)
	s.mountOAuth2Provider(router)
	s.mountWebPages(router)
	router.PathPrefix("/repo-avatars/").Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveRepoAvatar)
	router.PathPrefix("/attachments/").Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveAttachment)
	router.PathPrefix("/avatars/").Methods(http.MethodGet, http.MethodHead).HandlerFunc(s.serveAccountAvatar)
	router.Path("/{owner}/{repo}/releases/download/{tag}/{name}").Methods(http.MethodGet, http.MethodHead).
		HandlerFunc(s.serveReleaseAsset)
	s.mountRegistries(router)
	s.mountRunnerProtocol(router)
	s.mountArtifactProtocol(router)
	// The API's routes take full templates under a shape, not a mux path
	// prefix, whose expression each of them would run (route_shapes.go).
	api := router.NewRoute().MatcherFunc(prefixShape(apiPrefix).matcher()).Subrouter()
	if err := s.mount(api, table); err != nil {
		return nil, err
	}
	api.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.methodNotAllowed(w, r) {
			return
		}
		s.writeMessage(w, http.StatusNotFound, "route not found")
	})
	router.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v1/") || r.URL.Path == "/api/v1" {
			s.writeMessage(w, http.StatusNotFound, "route not found")
			return
		}
		http.NotFound(w, r)
	})
	s.handler = s.base(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// RawPath is set only when the path has escapes that decoding would
		// change; such paths go through mux, which matches the encoded form.
		if r.URL.RawPath == "" {
			if h := s.static[r.URL.Path][r.Method]; h != nil {
				h(w, r)
				return
			}
		}
		if s.answerUncleanPath(w, r) {
			return
		}
		router.ServeHTTP(w, r)
	}))
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// noMetrics records nothing.
type noMetrics struct{}

func (noMetrics) Route(string) ports.RouteMetrics { return noRouteMetrics{} }

// noRouteMetrics records nothing.
type noRouteMetrics struct{}

func (noRouteMetrics) Started() time.Time          { return time.Time{} }
func (noRouteMetrics) Done(time.Time, string, int) {}
