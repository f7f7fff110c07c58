package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/oauth2"
	domain "github.com/depothq/depot/domain/oauth2"
)

// oauth2Apps serves the signed-in user's OAuth2 applications (catalogue 4.4).
type oauth2Apps struct{ *kernel }

// oauth2AppRoutes are the rows of oauth2Apps.
func (s *kernel) oauth2AppRoutes() []route {
	h := oauth2Apps{s}
	return []route{
		{"GET", "/user/applications/oauth2", scopes(catUser), "T", h.list},
		{"POST", "/user/applications/oauth2", scopes(catUser), "T", h.create},
		{"GET", "/user/applications/oauth2/{id}", scopes(catUser), "T", h.get},
		{"PATCH", "/user/applications/oauth2/{id}", scopes(catUser), "T", h.update},
		{"DELETE", "/user/applications/oauth2/{id}", scopes(catUser), "T", h.delete},
	}
}

// oauth2AppDTO is Gitea's OAuth2Application; client_secret is set only when
// it was just made (creation and edit).
type oauth2AppDTO struct {
	ID                         int64     `json:"id"`
	Name                       string    `json:"name"`
	ClientID                   string    `json:"client_id"`
	ClientSecret               string    `json:"client_secret"`
	ConfidentialClient         bool      `json:"confidential_client"`
	SkipSecondaryAuthorization bool      `json:"skip_secondary_authorization"`
	RedirectURIs               []string  `json:"redirect_uris"`
	Created                    time.Time `json:"created"`
}

func toOAuth2App(a *domain.Application, secret string) oauth2AppDTO {
	uris := a.RedirectURIs
	if uris == nil {
		uris = []string{}
	}
	return oauth2AppDTO{ID: a.ID, Name: a.Name, ClientID: a.ClientID, ClientSecret: secret,
		ConfidentialClient: a.Confidential, SkipSecondaryAuthorization: a.SkipSecondaryAuthorization,
		RedirectURIs: uris, Created: a.Created.UTC()}
}

// oauth2AppBody is Gitea's CreateOAuth2ApplicationOptions.
type oauth2AppBody struct {
	Name                       string   `json:"name"`
	RedirectURIs               []string `json:"redirect_uris"`
	ConfidentialClient         bool     `json:"confidential_client"`
	SkipSecondaryAuthorization bool     `json:"skip_secondary_authorization"`
}

func (b oauth2AppBody) input() oauth2.ApplicationInput {
	return oauth2.ApplicationInput{Name: b.Name, RedirectURIs: b.RedirectURIs, Confidential: b.ConfidentialClient,
		SkipSecondaryAuthorization: b.SkipSecondaryAuthorization}
}

// list answers GET /user/applications/oauth2, secrets hidden.
func (h oauth2Apps) list(q *request) error {
	opts, err := h.listOptions(q.r)
	if err != nil {
		return err
	}
	apps, total, err := h.oauth2.Applications().List(q.r.Context(), q.caller.UserID(), opts)
	if err != nil {
		return err
	}
	out := make([]oauth2AppDTO, 0, len(apps))
	for _, a := range apps {
		out = append(out, toOAuth2App(a, ""))
	}
	h.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// create answers POST /user/applications/oauth2 with the new client secret.
func (h oauth2Apps) create(q *request) error {
	var b oauth2AppBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, secret, err := h.oauth2.Applications().Create(q.r.Context(), q.caller.UserID(), b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toOAuth2App(a, secret))
	return nil
}

// get answers GET /user/applications/oauth2/{id}; another user's is 404.
func (h oauth2Apps) get(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	a, err := h.oauth2.Applications().Get(q.r.Context(), q.caller.UserID(), id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toOAuth2App(a, ""))
	return nil
}

// update answers PATCH /user/applications/oauth2/{id}: the body replaces
// the application's settings and a new client secret is made and shown.
func (h oauth2Apps) update(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	var b oauth2AppBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, secret, err := h.oauth2.Applications().Update(q.r.Context(), q.caller.UserID(), id, b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toOAuth2App(a, secret))
	return nil
}

// delete answers DELETE /user/applications/oauth2/{id}; the application's
// grants and tokens are revoked with it.
func (h oauth2Apps) delete(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	if err := h.oauth2.Applications().Delete(q.r.Context(), q.caller.UserID(), id); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
