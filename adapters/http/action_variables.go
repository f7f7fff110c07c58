package http

import (
	"net/http"

	"github.com/depothq/depot/domain/actions"
)

// actionVariables serves the workflow variables of the signed-in user
// (catalogue 4.4), of an organisation (4.8) and of a repository (4.5): one
// handler set over the scope each row's path names. Names are matched in
// any case and answered upper-cased.
type actionVariables struct{ *kernel }

// actionVariableRoutes are the rows of actionVariables.
func (s *kernel) actionVariableRoutes() []route {
	h := actionVariables{s}
	const (
		user = "/user/actions/variables"
		org  = "/orgs/{org}/actions/variables"
		repo = R + "/actions/variables"
		one  = "/{variablename}"
	)
	return []route{
		{"GET", user, scopes(catUser), "T", h.list(myVariables)},
		{"GET", user + one, scopes(catUser), "T", h.get(myVariables)},
		{"DELETE", user + one, scopes(catUser), "T", h.delete(myVariables)},
		{"POST", user + one, scopes(catUser), "T", h.create(myVariables)},
		{"PUT", user + one, scopes(catUser), "T", h.update(myVariables)},

		{"GET", repo, scopes(catRepo), "T,RO", h.list(repoVariables)},
		{"GET", repo + one, scopes(catRepo), "T,RO", h.get(repoVariables)},
		{"DELETE", repo + one, scopes(catRepo), "T,RO", h.delete(repoVariables)},
		{"POST", repo + one, scopes(catRepo), "T,RO", h.create(repoVariables)},
		{"PUT", repo + one, scopes(catRepo), "T,RO", h.update(repoVariables)},

		{"GET", org, scopes(catOrg), "T,OO", h.list(orgVariables)},
		{"GET", org + one, scopes(catOrg), "T,OO", h.get(orgVariables)},
		{"DELETE", org + one, scopes(catOrg), "T,OO", h.delete(orgVariables)},
		{"POST", org + one, scopes(catOrg), "T,OO", h.create(orgVariables)},
		{"PUT", org + one, scopes(catOrg), "T,OO", h.update(orgVariables)},
	}
}

// The scopes the paths name: the caller's own account, the repository, the
// organisation.
func myVariables(q *request) actions.Scope   { return actions.OwnerScope(q.caller.UserID()) }
func repoVariables(q *request) actions.Scope { return actions.RepoScope(q.repo.Repo.ID) }
func orgVariables(q *request) actions.Scope  { return actions.OwnerScope(q.org.Org.ID) }

// list answers GET …/actions/variables: one page ordered by name, with
// Link and X-Total-Count.
func (s actionVariables) list(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		opts, err := s.listOptions(q.r)
		if err != nil {
			return err
		}
		list, total, err := s.actions.Variables().List(q.r.Context(), scope(q), opts)
		if err != nil {
			return err
		}
		out := make([]actionVariableDTO, 0, len(list))
		for _, v := range list {
			out = append(out, toActionVariable(v))
		}
		s.setPaging(q.w, q.r, opts, total)
		q.json(http.StatusOK, out)
		return nil
	}
}

// get answers GET …/actions/variables/{variablename}.
func (s actionVariables) get(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		v, err := s.actions.Variables().Get(q.r.Context(), scope(q), q.var_("variablename"))
		if err != nil {
			return err
		}
		q.json(http.StatusOK, toActionVariable(v))
		return nil
	}
}

// create answers POST …/actions/variables/{variablename} (Gitea's
// CreateVariableOption) with 201 and no body.
func (s actionVariables) create(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		var b struct {
			Value       string `json:"value"`
			Description string `json:"description"`
		}
		if err := decodeJSON(q.r, &b); err != nil {
			return err
		}
		if _, err := s.actions.Variables().Create(q.r.Context(), scope(q), q.var_("variablename"), b.Value, b.Description); err != nil {
			return err
		}
		q.w.WriteHeader(http.StatusCreated)
		return nil
	}
}

// update answers PUT …/actions/variables/{variablename} (Gitea's
// UpdateVariableOption: a new name, optional, renames) with 204.
func (s actionVariables) update(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		var b struct {
			Name        string `json:"name"`
			Value       string `json:"value"`
			Description string `json:"description"`
		}
		if err := decodeJSON(q.r, &b); err != nil {
			return err
		}
		return noContent(q, s.actions.Variables().Update(q.r.Context(), scope(q), q.var_("variablename"), b.Name, b.Value, b.Description))
	}
}

// delete answers DELETE …/actions/variables/{variablename} with 204.
func (s actionVariables) delete(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		return noContent(q, s.actions.Variables().Delete(q.r.Context(), scope(q), q.var_("variablename")))
	}
}

// actionVariableDTO is Gitea's ActionVariable: an account's variable has
// owner_id, a repository's repo_id, the other is 0.
type actionVariableDTO struct {
	OwnerID     int64  `json:"owner_id"`
	RepoID      int64  `json:"repo_id"`
	Name        string `json:"name"`
	Data        string `json:"data"`
	Description string `json:"description"`
}

func toActionVariable(v *actions.Variable) actionVariableDTO {
	return actionVariableDTO{OwnerID: v.Scope.OwnerID, RepoID: v.Scope.RepoID, Name: v.Name, Data: v.Data, Description: v.Description}
}
