package http

import (
	"net/http"
	"net/url"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// repoDeployKeys serves the deploy keys of repositories (catalogue 4.5).
type repoDeployKeys struct{ *kernel }

// repoDeployKeyRoutes are the rows of repoDeployKeys.
func (s *kernel) repoDeployKeyRoutes() []route {
	h := repoDeployKeys{s}
	return []route{
		{"GET", R + "/keys", scopes(catRepo), "T,RA", h.listDeployKeys},
		{"POST", R + "/keys", scopes(catRepo), "T,RA,NA", h.addDeployKey},
		{"GET", R + "/keys/{id}", scopes(catRepo), "T,RA", h.getDeployKey},
		{"DELETE", R + "/keys/{id}", scopes(catRepo), "T,RA,NA", h.deleteDeployKey},
	}
}

// listDeployKeys answers GET R/keys (?key_id, ?fingerprint).
func (s repoDeployKeys) listDeployKeys(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	id, err := queryInt(q, "key_id")
	if err != nil {
		return err
	}
	var out []deployKeyDTO
	var total int64
	if id != 0 {
		k, err := s.repos.DeployKeys().Get(q.r.Context(), q.repo, id)
		if err != nil && errs.IgnoreNotFound(err) != nil {
			return err
		}
		if k != nil {
			out, total = append(out, s.toDeployKey(q.repo, k)), 1
		}
	} else {
		list, n, err := s.repos.DeployKeys().List(q.r.Context(), q.repo, q.r.URL.Query().Get("fingerprint"), opts)
		if err != nil {
			return err
		}
		for _, k := range list {
			out = append(out, s.toDeployKey(q.repo, k))
		}
		total = n
	}
	if out == nil {
		out = []deployKeyDTO{}
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getDeployKey answers GET R/keys/{id}.
func (s repoDeployKeys) getDeployKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	k, err := s.repos.DeployKeys().Get(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toDeployKey(q.repo, k))
	return nil
}

// addDeployKey answers POST R/keys.
func (s repoDeployKeys) addDeployKey(q *request) error {
	var b struct {
		Title    string `json:"title"`
		Key      string `json:"key"`
		ReadOnly bool   `json:"read_only"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	k, err := s.repos.DeployKeys().Add(q.r.Context(), q.repo, b.Title, b.Key, b.ReadOnly)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toDeployKey(q.repo, k))
	return nil
}

// deleteDeployKey answers DELETE R/keys/{id}.
func (s repoDeployKeys) deleteDeployKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.repos.DeployKeys().Delete(q.r.Context(), q.repo, id))
}

// deployKeyDTO is Gitea's DeployKey.
type deployKeyDTO struct {
	ID          int64     `json:"id"`
	KeyID       int64     `json:"key_id"`
	Key         string    `json:"key"`
	URL         string    `json:"url"`
	Title       string    `json:"title"`
	Fingerprint string    `json:"fingerprint"`
	Created     time.Time `json:"created_at"`
	ReadOnly    bool      `json:"read_only"`
	Repository  *repoDTO  `json:"repository,omitempty"`
}

func (s repoDeployKeys) toDeployKey(a *repos.Access, k *repository.DeployKey) deployKeyDTO {
	esc := url.PathEscape(a.Repo.Owner.Name) + "/" + url.PathEscape(a.Repo.Name)
	return deployKeyDTO{
		ID: k.ID, KeyID: k.ID, Key: k.Content, Title: k.Title, Fingerprint: k.Fingerprint, ReadOnly: k.ReadOnly,
		Created: k.Created.UTC(), URL: s.baseURL + apiPrefix + "/repos/" + esc + "/keys/" + itoa(k.ID),
	}
}
