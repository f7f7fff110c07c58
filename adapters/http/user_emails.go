package http

import (
	"net/http"

	"github.com/depothq/depot/domain/user"
)

// userEmails serves the caller's own e-mail addresses (catalogue 4.4).
type userEmails struct{ *kernel }

// userEmailRoutes are the rows of userEmails.
func (s *kernel) userEmailRoutes() []route {
	h := userEmails{s}
	return []route{
		{"GET", "/user/emails", scopes(catUser), "T", h.listEmails},
		{"POST", "/user/emails", scopes(catUser), "T", h.addEmails},
		{"DELETE", "/user/emails", scopes(catUser), "T", h.deleteEmails},
	}
}

// emailDTO is Gitea's Email.
type emailDTO struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

// toEmails renders the addresses of the user called owner.
func toEmails(list []*user.Email, owner string) []emailDTO {
	out := make([]emailDTO, 0, len(list))
	for _, e := range list {
		out = append(out, emailDTO{Email: e.Email, Verified: e.Activated, Primary: e.Primary,
			UserID: e.UserID, Username: owner})
	}
	return out
}

// emailsBody is Gitea's CreateEmailOption and DeleteEmailOption.
type emailsBody struct {
	Emails []string `json:"emails"`
}

// listEmails answers GET /user/emails.
func (s userEmails) listEmails(q *request) error {
	list, err := s.users.Emails().List(q.r.Context(), q.caller.User.ID)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toEmails(list, q.caller.User.Name))
	return nil
}

// addEmails answers POST /user/emails.
func (s userEmails) addEmails(q *request) error {
	var b emailsBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	all, err := s.users.Emails().Add(q.r.Context(), q.caller.User.ID, b.Emails)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toEmails(all, q.caller.User.Name))
	return nil
}

// deleteEmails answers DELETE /user/emails.
func (s userEmails) deleteEmails(q *request) error {
	var b emailsBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.users.Emails().Delete(q.r.Context(), q.caller.User.ID, b.Emails); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
