package http

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/depothq/depot/domain/token"
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
)

func scopes(c ...token.Category) []token.Category { return c }

// routes is the route table, in the order of the spec's catalogue.
func (s *Server) routes() []route {
	return []route{
		// 4.1 Miscellaneous
		{"GET", "/version", nil, "-", s.getVersion},
		{"GET", "/settings/ui", nil, "-", s.getUISettings},
		{"GET", "/settings/api", nil, "-", s.getAPISettings},
		{"GET", "/settings/attachment", nil, "-", s.getAttachmentSettings},
		{"GET", "/settings/repository", nil, "-", s.getRepoSettings},

		// 4.4 Users
		{"GET", "/users/search", scopes(catUser), "UsersPage,Explore", s.searchUsers},
		{"GET", "/users/{username}", scopes(catUser), "Explore", s.getUser},
		{"GET", "/users/{username}/tokens", scopes(catUser), "Basic,SOA", s.listTokens},
		{"POST", "/users/{username}/tokens", scopes(catUser), "T,Basic,SOA", s.createToken},
		{"DELETE", "/users/{username}/tokens/{token}", scopes(catUser), "T,Basic,SOA", s.deleteToken},
		{"GET", "/user", scopes(catUser), "T", s.getSelf},
		{"GET", "/user/settings", scopes(catUser), "T", s.getSettings},
		{"PATCH", "/user/settings", scopes(catUser), "T", s.patchSettings},
		{"GET", "/user/emails", scopes(catUser), "T", s.listEmails},
		{"POST", "/user/emails", scopes(catUser), "T", s.addEmails},
		{"DELETE", "/user/emails", scopes(catUser), "T", s.deleteEmails},

		// 4.9 Administration
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
// Allow for each path under another method.
func (s *Server) mount(r muxRouter, table []route) error {
	methods := map[string][]string{}
	var order []string
	for _, rt := range table {
		rules, err := parseAccess(rt.access)
		if err != nil {
			return fmt.Errorf("route %s %s: %w", rt.method, rt.path, err)
		}
		c := &compiledRoute{route: rt, rules: rules}
		h := s.serve(c)
		r.HandleFunc(rt.path, h).Methods(rt.method)
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
		r.HandleFunc(p, func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Allow", allowHeader)
			s.writeMessage(w, http.StatusMethodNotAllowed, "method not allowed")
		})
	}
	return nil
}
