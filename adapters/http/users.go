package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
)

// userProfiles serves accounts' profiles: looking one up, searching them,
// and the caller's own (catalogue 4.4).
type userProfiles struct{ *kernel }

// userRoutes are the rows of userProfiles.
func (s *kernel) userRoutes() []route {
	h := userProfiles{s}
	return []route{
		{"GET", "/users/search", scopes(catUser), "UsersPage,Explore", h.searchUsers},
		{"GET", "/users/{username}", scopes(catUser), "Explore", h.getUser},
		{"GET", "/user", scopes(catUser), "T", h.getSelf},
	}
}

// getSelf answers GET /user.
func (s userProfiles) getSelf(q *request) error {
	q.json(http.StatusOK, s.toUser(q.caller, q.caller.User))
	return nil
}

// getUser answers GET /users/{username}.
func (s userProfiles) getUser(q *request) error {
	u, err := s.users.View(q.r.Context(), q.caller, q.var_("username"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUser(q.caller, u))
	return nil
}

// searchUsers answers GET /users/search with Gitea's {data, ok} envelope.
func (s userProfiles) searchUsers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	if q.r.URL.Query().Get("limit") == "" {
		opts.Limit = min(10, s.settings.MaxResponseItems) // the spec's default for searches
	}
	var uid int64
	if v := q.r.URL.Query().Get("uid"); v != "" {
		if uid, err = strconv.ParseInt(v, 10, 64); err != nil {
			return errs.BadRequest("uid: must be an integer")
		}
	}
	list, total, err := s.users.Search(q.r.Context(), q.caller, users.SearchQuery{
		Keyword: q.r.URL.Query().Get("q"), UID: uid, ListOptions: opts,
	})
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, map[string]any{"ok": true, "data": s.toUsers(q.caller, list)})
	return nil
}
