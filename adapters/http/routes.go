package http

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/depothq/depot/domain/token"
	"github.com/gorilla/mux"
)

// route is one row of the catalogue: method, path, scope categories and
// access codes, and the handler. Access codes are the spec's (T, SA, SOA, …)
// plus three adapter rules the user routes need: "Basic" (Basic auth with a
// password), "Explore" (sign-in when the site restricts exploring) and
// "UsersPage" (404 when the users page is disabled).
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
		s.versionRoutes(),
		s.siteSettingRoutes(),
		s.templateRoutes(),
		s.userRoutes(),
		s.repoRoutes(),
		s.adminUserRoutes(),
		s.branchRoutes(),
		s.tagRoutes(),
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
		s.keyRoutes(),
		s.mirrorRoutes(),
		s.gitHookRoutes(),
		s.repoHookRoutes(),
		s.userHookRoutes(),
		s.adminHookRoutes(),
		s.hookDeliveryRoutes(),
		s.orgRoutes(),
		s.commentRoutes(),
		s.issueExtraRoutes(),
		s.issueRoutes(),
		s.labelRoutes(),
		s.orgHookRoutes(),
		s.blockRoutes(),
		s.orgAvatarRoutes(),
		s.adminRepoRoutes(),
	} {
		table = append(table, group...)
	}
	return table
}

// userRoutes are the 4.4 user rows.
func (s *kernel) userRoutes() []route {
	return []route{
		{"GET", "/users/search", scopes(catUser), "UsersPage,Explore", s.searchUsers},
		{"GET", "/users/{username}", scopes(catUser), "Explore", s.getUser},
		{"GET", "/users/{username}/tokens", scopes(catUser), "Basic,SOA", s.listTokens},
		{"POST", "/users/{username}/tokens", scopes(catUser), "T,Basic,SOA", s.createToken},
		{"GET", "/users/{username}/repos", scopes(catRepo), "Explore", s.listUserRepos},
		{"DELETE", "/users/{username}/tokens/{token}", scopes(catUser), "T,Basic,SOA", s.deleteToken},
		{"GET", "/users/{username}/starred", scopes(catUser), "T,ST", s.listUserStarred},
		{"GET", "/users/{username}/subscriptions", scopes(catUser), "T", s.listUserSubscriptions},
		{"GET", "/user", scopes(catUser), "T", s.getSelf},
		{"GET", "/user/settings", scopes(catUser), "T", s.getSettings},
		{"PATCH", "/user/settings", scopes(catUser), "T", s.patchSettings},
		{"GET", "/user/emails", scopes(catUser), "T", s.listEmails},
		{"POST", "/user/emails", scopes(catUser), "T", s.addEmails},
		{"DELETE", "/user/emails", scopes(catUser), "T", s.deleteEmails},
		{"GET", "/user/repos", scopes(catRepo), "T", s.listMyRepos},
		{"POST", "/user/repos", scopes(catRepo), "T", s.createMyRepo},
		{"GET", "/user/starred", scopes(catRepo), "T,ST", s.listMyStarred},
		{"GET", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", s.checkStarred},
		{"PUT", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST,NotBlocked", s.star},
		{"DELETE", "/user/starred/{owner}/{repo}", scopes(catRepo), "T,ST", s.unstar},
		{"GET", "/user/subscriptions", scopes(catUser), "T", s.listMySubscriptions},
	}
}

// repoRoutes are the 4.5 repository rows.
func (s *kernel) repoRoutes() []route {
	return []route{
		{"GET", "/repositories/{repoid}", scopes(catRepo), "T", s.getRepo},
		{"GET", "/repos/search", scopes(catRepo), "-", s.searchRepos},
		{"GET", "/topics/search", scopes(catRepo), "-", s.searchTopics},
		{"GET", R, scopes(catRepo), "AR", s.getRepo},
		{"DELETE", R, scopes(catRepo), "T,RO", s.deleteRepo},
		{"PATCH", R, scopes(catRepo), "T,RA", s.editRepo},
		{"PATCH", R + "/issue-tracker", scopes(catRepo), "T,RA,NA", s.editIssueTracker},
		{"POST", R + "/generate", scopes(catRepo), "T,RR(code)", s.generateRepo},
		{"POST", R + "/transfer", scopes(catRepo), "T,RO", s.transferRepo},
		{"POST", R + "/transfer/accept", scopes(catRepo), "T", s.acceptTransfer},
		{"POST", R + "/transfer/reject", scopes(catRepo), "T", s.rejectTransfer},
		{"GET", R + "/assignees", scopes(catRepo), "T,AR", s.listAssignees},
		{"GET", R + "/forks", scopes(catRepo), "-", s.listForks},
		{"POST", R + "/forks", scopes(catRepo), "T,RR(code),NotBlocked", s.createFork},
		{"GET", R + "/stargazers", scopes(catRepo), "ST", s.listStargazers},
		{"GET", R + "/subscribers", scopes(catRepo), "-", s.listSubscribers},
		{"GET", R + "/subscription", scopes(catRepo), "T", s.getSubscription},
		{"PUT", R + "/subscription", scopes(catRepo), "T,NotBlocked", s.watch},
		{"DELETE", R + "/subscription", scopes(catRepo), "T", s.unwatch},
		{"POST", R + "/avatar", scopes(catRepo), "T,RA,NA", s.setRepoAvatar},
		{"DELETE", R + "/avatar", scopes(catRepo), "T,RA,NA", s.deleteRepoAvatar},
		{"GET", R + "/collaborators", scopes(catRepo), "T,AR", s.listCollaborators},
		{"GET", R + "/collaborators/{collaborator}", scopes(catRepo), "T,AR", s.checkCollaborator},
		{"PUT", R + "/collaborators/{collaborator}", scopes(catRepo), "T,RA,NA", s.addCollaborator},
		{"DELETE", R + "/collaborators/{collaborator}", scopes(catRepo), "T,RA,NA", s.removeCollaborator},
		{"GET", R + "/collaborators/{collaborator}/permission", scopes(catRepo), "T", s.collaboratorPermission},
		{"GET", R + "/keys", scopes(catRepo), "T,RA", s.listDeployKeys},
		{"POST", R + "/keys", scopes(catRepo), "T,RA,NA", s.addDeployKey},
		{"GET", R + "/keys/{id}", scopes(catRepo), "T,RA", s.getDeployKey},
		{"DELETE", R + "/keys/{id}", scopes(catRepo), "T,RA,NA", s.deleteDeployKey},
		{"GET", R + "/topics", scopes(catRepo), "AR", s.listTopics},
		{"PUT", R + "/topics", scopes(catRepo), "T,RA,AR,NA", s.replaceTopics},
		{"PUT", R + "/topics/{topic}", scopes(catRepo), "T,RA,NA", s.addTopic},
		{"DELETE", R + "/topics/{topic}", scopes(catRepo), "T,RA,NA", s.deleteTopic},
	}
}

// adminUserRoutes are the 4.9 user and e-mail administration rows.
func (s *kernel) adminUserRoutes() []route {
	return []route{
		{"GET", "/admin/users", scopes(catAdmin), "T,SA", s.adminListUsers},
		{"POST", "/admin/users", scopes(catAdmin), "T,SA", s.adminCreateUser},
		{"PATCH", "/admin/users/{username}", scopes(catAdmin), "T,SA", s.adminEditUser},
		{"DELETE", "/admin/users/{username}", scopes(catAdmin), "T,SA", s.adminDeleteUser},
		{"POST", "/admin/users/{username}/rename", scopes(catAdmin), "T,SA", s.adminRenameUser},
		{"GET", "/admin/emails", scopes(catAdmin), "T,SA", s.adminSearchEmails},
		{"GET", "/admin/emails/search", scopes(catAdmin), "T,SA", s.adminSearchEmails},
	}
}

// mount registers every route behind the access middleware, then a 405 with
// Allow for each path under another method. The routes below a repository
// (R + "/…", most of the table) go to a subrouter that only paths under
// /repos/{owner}/{repo}/ reach, so neither they nor the rest of the table
// pay for matching each other's patterns one by one.
func (s *Server) mount(api *mux.Router, table []route) error {
	under := api.PathPrefix(R + "/").Subrouter()
	// routerFor picks the router of a path and the pattern to give it (the
	// subrouter appends its routes' patterns to its prefix).
	routerFor := func(path string) (muxRouter, string) {
		if rest, ok := strings.CutPrefix(path, R+"/"); ok {
			return under, "/" + rest
		}
		return api, path
	}
	methods := map[string][]string{}
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
		r, pattern := routerFor(rt.path)
		r.HandleFunc(pattern, h).Methods(rt.method)
		if !strings.Contains(rt.path, "{") {
			full := apiPrefix + rt.path
			if s.static[full] == nil {
				s.static[full] = map[string]http.HandlerFunc{}
			}
			s.static[full][rt.method] = h
		}
		if _, seen := methods[rt.path]; !seen {
			order = append(order, rt.path)
		}
		methods[rt.path] = append(methods[rt.path], rt.method)
	}
	for _, p := range order {
		allow := methods[p]
		sort.Strings(allow)
		allowHeader := strings.Join(allow, ", ")
		r, pattern := routerFor(p)
		r.HandleFunc(pattern, func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Allow", allowHeader)
			s.writeMessage(w, http.StatusMethodNotAllowed, "method not allowed")
		})
	}
	return nil
}
