package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// actionSecrets serves the workflow secrets of the caller (catalogue 4.4),
// of repositories (4.5) and of organisations (4.8). Values go in and never
// come out: lists give names, descriptions and creation times.
type actionSecrets struct{ *kernel }

// actionSecretRoutes are the rows of actionSecrets.
func (s *kernel) actionSecretRoutes() []route {
	h := actionSecrets{s}
	return []route{
		{"PUT", "/user/actions/secrets/{secretname}", scopes(catUser), "T", h.putSecret},
		{"DELETE", "/user/actions/secrets/{secretname}", scopes(catUser), "T", h.deleteSecret},
		{"GET", R + "/actions/secrets", scopes(catRepo), "T,RO", h.listSecrets},
		{"PUT", R + "/actions/secrets/{secretname}", scopes(catRepo), "T,RO", h.putSecret},
		{"DELETE", R + "/actions/secrets/{secretname}", scopes(catRepo), "T,RO", h.deleteSecret},
		{"GET", "/orgs/{org}/actions/secrets", scopes(catOrg), "T,OO", h.listSecrets},
		{"PUT", "/orgs/{org}/actions/secrets/{secretname}", scopes(catOrg), "T,OO", h.putSecret},
		{"DELETE", "/orgs/{org}/actions/secrets/{secretname}", scopes(catOrg), "T,OO", h.deleteSecret},
	}
}

// secretOwner is whose secrets the path names: the repository's, the
// organisation's, or else the caller's own.
func secretOwner(q *request) actions.SecretOwner {
	switch {
	case q.repo != nil:
		return actions.RepoSecrets(q.repo.Repo.ID)
	case q.org != nil:
		return actions.AccountSecrets(q.org.Org.ID)
	default:
		return actions.AccountSecrets(q.caller.User.ID)
	}
}

// listSecrets answers GET …/actions/secrets with one page of secrets.
func (s actionSecrets) listSecrets(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.actions.Secrets().List(q.r.Context(), secretOwner(q), opts)
	if err != nil {
		return err
	}
	out := make([]secretDTO, 0, len(list))
	for _, sec := range list {
		out = append(out, secretDTO{Name: sec.Name, Description: sec.Description, Created: sec.Created.UTC()})
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// putSecret answers PUT …/actions/secrets/{secretname}: 201 when it
// created the secret, 204 when it replaced its value.
func (s actionSecrets) putSecret(q *request) error {
	var b struct {
		Data        string `json:"data"`
		Description string `json:"description"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	created, err := s.actions.Secrets().Put(q.r.Context(), secretOwner(q), q.var_("secretname"), b.Data, b.Description)
	if err != nil {
		return err
	}
	if created {
		q.w.WriteHeader(http.StatusCreated)
	} else {
		q.w.WriteHeader(http.StatusNoContent)
	}
	return nil
}

// deleteSecret answers DELETE …/actions/secrets/{secretname} with 204.
func (s actionSecrets) deleteSecret(q *request) error {
	return noContent(q, s.actions.Secrets().Delete(q.r.Context(), secretOwner(q), q.var_("secretname")))
}

// secretDTO is Gitea's Secret: never its value.
type secretDTO struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Created     time.Time `json:"created_at"`
}
