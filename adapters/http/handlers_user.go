package http

import (
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
)

// getVersion answers GET /version.
func (s *kernel) getVersion(q *request) error {
	h := q.w.Header()
	h.Set("Content-Type", "application/json;charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(s.versionBody)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(s.versionBody) // a failed write means the client left: nobody to answer
	return nil
}

// getSelf answers GET /user.
func (s *kernel) getSelf(q *request) error {
	q.json(http.StatusOK, s.toUser(q.caller, q.caller.User))
	return nil
}

// getUser answers GET /users/{username}.
func (s *kernel) getUser(q *request) error {
	u, err := s.users.View(q.r.Context(), q.caller, q.var_("username"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUser(q.caller, u))
	return nil
}

// searchUsers answers GET /users/search with Gitea's {data, ok} envelope.
func (s *kernel) searchUsers(q *request) error {
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

// getSettings answers GET /user/settings.
func (s *kernel) getSettings(q *request) error {
	q.json(http.StatusOK, toSettings(q.caller.User))
	return nil
}

// settingsBody is Gitea's UserSettingsOptions.
type settingsBody struct {
	FullName      *string `json:"full_name"`
	Website       *string `json:"website"`
	Description   *string `json:"description"`
	Location      *string `json:"location"`
	Language      *string `json:"language"`
	Theme         *string `json:"theme"`
	DiffViewStyle *string `json:"diff_view_style"`
	HideEmail     *bool   `json:"hide_email"`
	HideActivity  *bool   `json:"hide_activity"`
}

// patchSettings answers PATCH /user/settings.
func (s *kernel) patchSettings(q *request) error {
	var b settingsBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	u, err := s.users.Settings().Update(q.r.Context(), q.caller.User.ID, users.SettingsInput{
		FullName: b.FullName, Website: b.Website, Description: b.Description, Location: b.Location,
		Language: b.Language, Theme: b.Theme, DiffViewStyle: b.DiffViewStyle,
		HideEmail: b.HideEmail, HideActivity: b.HideActivity,
	})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toSettings(u))
	return nil
}

// emailsBody is Gitea's CreateEmailOption and DeleteEmailOption.
type emailsBody struct {
	Emails []string `json:"emails"`
}

// listEmails answers GET /user/emails.
func (s *kernel) listEmails(q *request) error {
	list, err := s.users.Emails().List(q.r.Context(), q.caller.User.ID)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toEmails(list, q.caller.User.Name))
	return nil
}

// addEmails answers POST /user/emails.
func (s *kernel) addEmails(q *request) error {
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
func (s *kernel) deleteEmails(q *request) error {
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

// listTokens answers GET /users/{username}/tokens.
func (s *kernel) listTokens(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Tokens().List(q.r.Context(), q.subject.ID, opts)
	if err != nil {
		return err
	}
	out := make([]accessTokenDTO, 0, len(list))
	for _, t := range list {
		out = append(out, toToken(t, ""))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// tokenBody is Gitea's CreateAccessTokenOption.
type tokenBody struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
}

// createToken answers POST /users/{username}/tokens.
func (s *kernel) createToken(q *request) error {
	var b tokenBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	t, secret, err := s.users.Tokens().Create(q.r.Context(), q.subject.ID, b.Name, b.Scopes)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toToken(t, secret))
	return nil
}

// deleteToken answers DELETE /users/{username}/tokens/{token}.
func (s *kernel) deleteToken(q *request) error {
	if err := s.users.Tokens().Delete(q.r.Context(), q.subject.ID, q.var_("token")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
