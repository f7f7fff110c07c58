package http

import (
	"net/http"

	"github.com/depothq/depot/domain/actions"
)

// actionRunners serves the Actions runners' registration tokens of the
// signed-in user (catalogue 4.4), of a repository (4.5), of an organisation
// (4.8) and of the site (4.9). As in Gitea, GET and POST of
// …/registration-token both answer the scope's current token, made on first
// use; it stays valid until reset.
type actionRunners struct{ *kernel }

// actionRunnerRoutes are the rows of actionRunners.
func (s *kernel) actionRunnerRoutes() []route {
	h := actionRunners{s}
	const (
		token = "/actions/runners/registration-token"
		admin = "/admin"
	)
	return []route{
		{"GET", "/user" + token, scopes(catUser), "T", h.token(myRunners)},
		{"POST", "/user" + token, scopes(catUser), "T", h.token(myRunners)},
		{"GET", R + token, scopes(catRepo), "T,RO", h.token(repoRunners)},
		{"POST", R + token, scopes(catRepo), "T,RO", h.token(repoRunners)},
		{"GET", "/orgs/{org}" + token, scopes(catOrg), "T,OO", h.token(orgRunners)},
		{"POST", "/orgs/{org}" + token, scopes(catOrg), "T,OO", h.token(orgRunners)},
		{"POST", admin + token, scopes(catAdmin), "T,SA", h.token(siteRunners)},
		{"GET", admin + "/runners/registration-token", scopes(catAdmin), "T,SA", h.token(siteRunners)},
	}
}

// The scopes the paths name: the caller's own account, the repository, the
// organisation, the site.
func myRunners(q *request) actions.Scope   { return actions.OwnerScope(q.caller.UserID()) }
func repoRunners(q *request) actions.Scope { return actions.RepoScope(q.repo.Repo.ID) }
func orgRunners(q *request) actions.Scope  { return actions.OwnerScope(q.org.Org.ID) }
func siteRunners(*request) actions.Scope   { return actions.Scope{} }

// registrationTokenDTO is Gitea's RegistrationToken.
type registrationTokenDTO struct {
	Token string `json:"token"`
}

// token answers GET and POST …/registration-token with the scope's token.
func (s actionRunners) token(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		tok, err := s.actions.RunnerTokens().Current(q.r.Context(), scope(q))
		if err != nil {
			return err
		}
		q.json(http.StatusOK, registrationTokenDTO{Token: tok})
		return nil
	}
}
