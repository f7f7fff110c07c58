package http

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/token"
	"github.com/gorilla/mux"
)

// route is one row of the catalogue: method, path, scope categories and
// access codes, and the handler. Access codes are the spec's (T, SA, SOA, …)
// plus the adapter rules some routes need: "Basic" (Basic auth with a
// password), "Explore" (sign-in when the site restricts exploring),
// "UsersPage" (404 when the users page is disabled), "SignedURL" (a
// signature in the query is the credential, which the handler checks; no
// repository is resolved for the caller) and "HTTPSig" (an ActivityPub
// inbox: 404 while federation is off, 401 without an HTTP signature, which
// the handler verifies against the body and the actor's key).
type route struct {
	method, path string
	scopes       []token.Category
	access       string
	handle       handler
}

const (
	catUser  = token.Category("user")
	catAdmin = token.Category("admin")
	catRepo  = token.Category("repository")
	catIssue = token.CategoryIssue
	catOrg   = token.CategoryOrganization
)

// R is the catalogue's repository prefix.
const R = "/repos/{owner}/{repo}"

func scopes(c ...token.Category) []token.Category { return c }

// routes is the route table: the groups of rows, each kept beside its
// handlers in the resource's file, in the order of the spec's catalogue
// (mux tries the rows in this order, so a literal segment such as
// R/issues/comments comes before the R/issues/{index} rows).
func (s *Server) routes() []route {
	var table []route
	for _, group := range [][]route{
		s.apiSwaggerRoutes(),
		s.versionRoutes(),
		s.nodeInfoRoutes(),
		s.activityPubRoutes(),
		s.signingKeyRoutes(),
		s.markupRoutes(),
		s.siteSettingRoutes(),
		s.templateRoutes(),
		s.userRoutes(),
		s.userTokenRoutes(),
		s.oauth2AppRoutes(),
		s.userOwnedRepoRoutes(),
		s.userStarRoutes(),
		s.userWatchRoutes(),
		s.userSettingsRoutes(),
		s.userEmailRoutes(),
		s.followRoutes(),
		s.activityRoutes(),
		s.notificationRoutes(),
		s.userAvatarRoutes(),
		s.repositoryRoutes(),
		s.repoTransferRoutes(),
		s.repoAssigneeRoutes(),
		s.repoReviewerRoutes(),
		s.repoForkRoutes(),
		s.repoStarRoutes(),
		s.repoWatchRoutes(),
		s.repoAvatarRoutes(),
		s.repoCollaboratorRoutes(),
		s.repoDeployKeyRoutes(),
		s.repoTopicRoutes(),
		s.adminUserRoutes(),
		s.adminEmailRoutes(),
		s.adminCronRoutes(),
		s.userBadgeRoutes(),
		s.branchRoutes(),
		s.tagRoutes(),
		s.branchProtectionRoutes(),
		s.tagProtectionRoutes(),
		s.releaseRoutes(),
		s.releaseAssetRoutes(),
		s.gitRefRoutes(),
		s.commitRoutes(),
		s.compareRoutes(),
		s.rawRoutes(),
		s.contentRoutes(),
		s.gitTreeRoutes(),
		s.gitBlobRoutes(),
		s.archiveRoutes(),
		s.analysisRoutes(),
		s.changeRoutes(),
		s.statusRoutes(),
		s.pullRoutes(),
		s.pullMergeRoutes(),
		s.pullFileRoutes(),
		s.pullUpdateRoutes(),
		s.pullReviewRoutes(),
		s.pullReviewRequestRoutes(),
		s.wikiRoutes(),
		s.repoMergeUpstreamRoutes(),
		s.userKeyRoutes(),
		s.gpgKeyRoutes(),
		s.repoMigrationRoutes(),
		s.repoMirrorRoutes(),
		s.gitHookRoutes(),
		s.repoHookRoutes(),
		s.userHookRoutes(),
		s.adminHookRoutes(),
		s.hookDeliveryRoutes(),
		s.orgRoutes(),
		s.orgRepoRoutes(),
		s.orgMemberRoutes(),
		s.adminOrgRoutes(),
		s.orgTeamRoutes(),
		s.teamMemberRoutes(),
		s.teamRepoRoutes(),
		s.repoTeamRoutes(),
		s.repoCommentRoutes(),
		s.commentReactionRoutes(),
		s.commentAttachmentRoutes(),
		s.issueCommentRoutes(),
		s.issueTimelineRoutes(),
		s.issueReactionRoutes(),
		s.issueAttachmentRoutes(),
		s.issueTimeRoutes(),
		s.issueStopwatchRoutes(),
		s.issueTemplateRoutes(),
		s.issuePinRoutes(),
		s.issueDeadlineRoutes(),
		s.issueSubscriptionRoutes(),
		s.issueDependencyRoutes(),
		s.issueLockRoutes(),
		s.issueRoutes(),
		s.issueLabelRoutes(),
		s.labelRoutes(),
		s.milestoneRoutes(),
		s.orgLabelRoutes(),
		s.orgHookRoutes(),
		s.actionSecretRoutes(),
		s.blockRoutes(),
		s.orgAvatarRoutes(),
		s.actionVariableRoutes(),
		s.actionWorkflowRoutes(),
		s.actionRunnerRoutes(),
		s.actionJobRoutes(),
		s.actionArtifactRoutes(),
		s.adminRepoRoutes(),
		s.adminUnadoptedRoutes(),
		s.packageRoutes(),
		s.packageCleanupRuleRoutes(),
		s.pullTailRoutes(),
	} {
		table = append(table, group...)
	}
	return table
}

// mount registers every route behind the access middleware, then a 405 with
// Allow for each path under another method. mux tries a router's routes one
// by one, each running its pattern's regular expression, so the routes are
// grouped where no two groups can match one path: each literal first
// segment below /api/v1 ("/user", "/orgs", …) and below a repository
// ("/pulls", "/issues", … under /repos/{owner}/{repo}) has a subrouter of
// its own, entered by a shape test (route_shapes.go), and within a group a
// route's expression runs only when the path has the route's shape. A
// request costs a few string comparisons per group and route, and one or
// two expressions.
func (s *Server) mount(api *mux.Router, table []route) error {
	groups := map[string]*mux.Router{}
	// routerFor picks the router of a path: the group of its first literal
	// segment below /api/v1, or below a repository; a first segment with a
	// variable stays on api (the archive's {ball_type:…} matches no literal
	// group's name).
	routerFor := func(path string) *mux.Router {
		prefix, rest := "", path
		if r, ok := strings.CutPrefix(path, R+"/"); ok {
			prefix, rest = R, "/"+r
		}
		seg, _, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
		if seg == "" || strings.Contains(seg, "{") {
			return api
		}
		key := prefix + "/" + seg
		g := groups[key]
		if g == nil {
			g = api.NewRoute().MatcherFunc(prefixShape(apiPrefix + key).matcher()).Subrouter()
			groups[key] = g
		}
		return g
	}
	// One mux route per path, not per row: a route compiles its template
	// into a regular expression (about 6 KB each), and a path's rows differ
	// only in method. The route matches when the path has a row for the
	// request's method; methodNotAllowed finds the paths that would match
	// under another method for the 405.
	paths := map[string]*pathRoutes{}
	var order []string
	for _, rt := range table {
		rules, err := parseAccess(rt.access)
		if err != nil {
			return fmt.Errorf("route %s %s: %w", rt.method, rt.path, err)
		}
		if strings.HasPrefix(rt.path, R) {
			// Under R the repository is resolved first, as in Gitea: a
			// private or absent one answers 404 even to anonymous callers,
			// so T is checked with the other codes, after resolving.
			rules.early = nil
		}
		c := &compiledRoute{route: rt, rules: rules}
		h := s.serve(c)
		full := apiPrefix + rt.path
		if !strings.Contains(rt.path, "{") {
			if s.static[full] == nil {
				s.static[full] = map[string]http.HandlerFunc{}
			}
			s.static[full][rt.method] = h
		}
		pr := paths[rt.path]
		if pr == nil {
			pr = &pathRoutes{handlers: map[string]http.HandlerFunc{}}
			paths[rt.path] = pr
			order = append(order, rt.path)
		}
		pr.handlers[rt.method] = h
	}
	for _, p := range order {
		pr := paths[p]
		allow := slices.Sorted(maps.Keys(pr.handlers))
		pr.allow, pr.anyMethod = strings.Join(allow, ", "), allow[0]
		full := apiPrefix + p
		pr.route = routerFor(p).NewRoute().MatcherFunc(newPathShape(full).matcher()).
			MatcherFunc(pr.hasMethod).Path(full).HandlerFunc(pr.serve)
		s.pathRoutes = append(s.pathRoutes, pr)
	}
	return nil
}

// pathRoutes are the rows of one path template: their handlers by method,
// behind one mux route.
type pathRoutes struct {
	handlers map[string]http.HandlerFunc
	route    *mux.Route
	// allow is the Allow header of a 405; anyMethod one of the methods.
	allow, anyMethod string
}

func (pr *pathRoutes) hasMethod(r *http.Request, _ *mux.RouteMatch) bool {
	return pr.handlers[r.Method] != nil
}

func (pr *pathRoutes) serve(w http.ResponseWriter, r *http.Request) { pr.handlers[r.Method](w, r) }

// methodNotAllowed answers 405 with Allow when r's path is a route's under
// another method, and reports whether it did. It runs only for requests no
// route took.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) bool {
	for _, pr := range s.pathRoutes {
		other := *r
		other.Method = pr.anyMethod
		if pr.route.Match(&other, &mux.RouteMatch{}) {
			w.Header().Set("Allow", pr.allow)
			s.writeMessage(w, http.StatusMethodNotAllowed, "method not allowed")
			return true
		}
	}
	return false
}
