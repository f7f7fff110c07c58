package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/token"
)

// userTokens serves an account's access tokens (catalogue 4.4).
type userTokens struct{ *kernel }

// userTokenRoutes are the rows of userTokens.
func (s *kernel) userTokenRoutes() []route {
	h := userTokens{s}
	return []route{
		{"GET", "/users/{username}/tokens", scopes(catUser), "Basic,SOA", h.listTokens},
		{"POST", "/users/{username}/tokens", scopes(catUser), "T,Basic,SOA", h.createToken},
		{"DELETE", "/users/{username}/tokens/{token}", scopes(catUser), "T,Basic,SOA", h.deleteToken},
	}
}

// accessTokenDTO is Gitea's AccessToken; sha1 carries the secret only on creation.
type accessTokenDTO struct {
	ID             int64      `json:"id"`
	Name           string     `json:"name"`
	SHA1           string     `json:"sha1"`
	TokenLastEight string     `json:"token_last_eight"`
	Scopes         []string   `json:"scopes"`
	CreatedAt      time.Time  `json:"created_at"`
	LastUsedAt     *time.Time `json:"last_used_at,omitempty"`
}

func toToken(t *token.AccessToken, secret string) accessTokenDTO {
	d := accessTokenDTO{ID: t.ID, Name: t.Name, SHA1: secret, TokenLastEight: t.LastEight,
		Scopes: t.Scopes.Strings(), CreatedAt: t.Created.UTC()}
	if !t.LastUsed.IsZero() {
		lu := t.LastUsed.UTC()
		d.LastUsedAt = &lu
	}
	return d
}

// listTokens answers GET /users/{username}/tokens.
func (s userTokens) listTokens(q *request) error {
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
func (s userTokens) createToken(q *request) error {
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
func (s userTokens) deleteToken(q *request) error {
	if err := s.users.Tokens().Delete(q.r.Context(), q.subject.ID, q.var_("token")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
