package http

import (
	"net/http"
)

// adminUnadopted serves 4.9's unadopted repositories: Git directories under
// the repository root without a record, which a site admin lists, adopts
// or deletes.
type adminUnadopted struct{ *kernel }

// adminUnadoptedRoutes are the rows of adminUnadopted.
func (s *kernel) adminUnadoptedRoutes() []route {
	h := adminUnadopted{s}
	return []route{
		{"GET", "/admin/unadopted", scopes(catAdmin), "T,SA", h.listUnadopted},
		{"POST", "/admin/unadopted/{username}/{reponame}", scopes(catAdmin), "T,SA", h.adoptUnadopted},
		{"DELETE", "/admin/unadopted/{username}/{reponame}", scopes(catAdmin), "T,SA", h.deleteUnadopted},
	}
}

// listUnadopted answers GET /admin/unadopted with a JSON array of
// "owner/name" strings. The filter is `pattern` (the spec's name); Gitea
// 1.27 reads `query`, which is accepted too.
func (s adminUnadopted) listUnadopted(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	pattern := v.Get("pattern")
	if pattern == "" {
		pattern = v.Get("query")
	}
	names, total, err := s.repos.Unadopted().List(q.r.Context(), pattern, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, names)
	return nil
}

// adoptUnadopted answers POST /admin/unadopted/{username}/{reponame}: 204
// once the record exists, 404 for an absent account or directory, 409 when
// a record already exists, 422 for a name the domain refuses.
func (s adminUnadopted) adoptUnadopted(q *request) error {
	if _, err := s.repos.Unadopted().Adopt(q.r.Context(), q.caller, q.subject, q.var_("reponame")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteUnadopted answers DELETE /admin/unadopted/{username}/{reponame} by
// removing the directory, with adoptUnadopted's refusals.
func (s adminUnadopted) deleteUnadopted(q *request) error {
	if err := s.repos.Unadopted().Delete(q.r.Context(), q.subject, q.var_("reponame")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
