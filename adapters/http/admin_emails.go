package http

import (
	"net/http"
)

// adminEmails serves a site admin's search through every account's e-mail
// addresses (catalogue 4.9).
type adminEmails struct{ *kernel }

// adminEmailRoutes are the rows of adminEmails.
func (s *kernel) adminEmailRoutes() []route {
	h := adminEmails{s}
	return []route{
		{"GET", "/admin/emails", scopes(catAdmin), "T,SA", h.adminSearchEmails},
		{"GET", "/admin/emails/search", scopes(catAdmin), "T,SA", h.adminSearchEmails},
	}
}

// adminSearchEmails answers GET /admin/emails and GET /admin/emails/search.
func (s adminEmails) adminSearchEmails(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Emails().Search(q.r.Context(), q.r.URL.Query().Get("q"), opts)
	if err != nil {
		return err
	}
	out := make([]emailDTO, 0, len(list))
	for _, e := range list {
		out = append(out, emailDTO{Email: e.Email.Email, Verified: e.Activated, Primary: e.Primary,
			UserID: e.UserID, Username: e.UserName})
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}
