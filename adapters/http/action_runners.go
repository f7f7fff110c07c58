package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/actions"
)

// actionRunners serves the Actions runners and their registration tokens
// of the signed-in user (catalogue 4.4), of a repository (4.5), of an
// organisation (4.8) and of the site (4.9). As in Gitea, GET and POST of
// …/registration-token both answer the scope's current token, made on first
// use; it stays valid until reset. A runner is listed, read and deleted only
// through its own scope's paths: another scope's is a 404.
type actionRunners struct{ *kernel }

// actionRunnerRoutes are the rows of actionRunners.
func (s *kernel) actionRunnerRoutes() []route {
	h := actionRunners{s}
	const (
		token = "/actions/runners/registration-token"
		admin = "/admin"
	)
	rows := []route{
		{"GET", "/user" + token, scopes(catUser), "T", h.token(myRunners)},
		{"POST", "/user" + token, scopes(catUser), "T", h.token(myRunners)},
		{"GET", R + token, scopes(catRepo), "T,RO", h.token(repoRunners)},
		{"POST", R + token, scopes(catRepo), "T,RO", h.token(repoRunners)},
		{"GET", "/orgs/{org}" + token, scopes(catOrg), "T,OO", h.token(orgRunners)},
		{"POST", "/orgs/{org}" + token, scopes(catOrg), "T,OO", h.token(orgRunners)},
		{"POST", admin + token, scopes(catAdmin), "T,SA", h.token(siteRunners)},
		{"GET", admin + "/runners/registration-token", scopes(catAdmin), "T,SA", h.token(siteRunners)},
	}
	const runners = "/actions/runners"
	return append(rows,
		route{"GET", "/user" + runners, scopes(catUser), "T", h.list(myRunners)},
		route{"GET", "/user" + runners + "/{runner_id}", scopes(catUser), "T", h.get(myRunners)},
		route{"DELETE", "/user" + runners + "/{runner_id}", scopes(catUser), "T", h.delete(myRunners)},
		route{"GET", R + runners, scopes(catRepo), "T,RO", h.list(repoRunners)},
		route{"GET", R + runners + "/{runner_id}", scopes(catRepo), "T,RO", h.get(repoRunners)},
		route{"DELETE", R + runners + "/{runner_id}", scopes(catRepo), "T,RO", h.delete(repoRunners)},
		route{"GET", "/orgs/{org}" + runners, scopes(catOrg), "T,OO", h.list(orgRunners)},
		route{"GET", "/orgs/{org}" + runners + "/{runner_id}", scopes(catOrg), "T,OO", h.get(orgRunners)},
		route{"DELETE", "/orgs/{org}" + runners + "/{runner_id}", scopes(catOrg), "T,OO", h.delete(orgRunners)},
		route{"GET", admin + runners, scopes(catAdmin), "T,SA", h.list(siteRunners)},
		route{"GET", admin + runners + "/{runner_id}", scopes(catAdmin), "T,SA", h.get(siteRunners)},
		route{"DELETE", admin + runners + "/{runner_id}", scopes(catAdmin), "T,SA", h.delete(siteRunners)},
	)
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

// actionRunnerLabelDTO is Gitea's ActionRunnerLabel.
type actionRunnerLabelDTO struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// actionRunnerDTO is Gitea's ActionRunner.
type actionRunnerDTO struct {
	ID        int64                  `json:"id"`
	Name      string                 `json:"name"`
	Status    string                 `json:"status"`
	Busy      bool                   `json:"busy"`
	Disabled  bool                   `json:"disabled"`
	Ephemeral bool                   `json:"ephemeral"`
	Labels    []actionRunnerLabelDTO `json:"labels"`
}

// actionRunnersDTO is Gitea's ActionRunnersResponse.
type actionRunnersDTO struct {
	Runners    []actionRunnerDTO `json:"runners"`
	TotalCount int64             `json:"total_count"`
}

// toActionRunner shapes a runner as Gitea does: online or offline, busy
// when it reported on a task lately, its labels numbered in their order.
func toActionRunner(r *actions.Runner, now time.Time) actionRunnerDTO {
	status := "offline"
	if r.Online(now) {
		status = "online"
	}
	labels := make([]actionRunnerLabelDTO, len(r.Labels))
	for i, l := range r.Labels {
		labels[i] = actionRunnerLabelDTO{ID: int64(i), Name: l, Type: "custom"}
	}
	return actionRunnerDTO{ID: r.ID, Name: r.Name, Status: status, Busy: r.Busy(now), Ephemeral: r.Ephemeral, Labels: labels}
}

// list answers GET …/actions/runners with one page of the scope's runners.
func (s actionRunners) list(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		opts, err := s.listOptions(q.r)
		if err != nil {
			return err
		}
		runners := s.actions.Runners()
		list, total, err := runners.List(q.r.Context(), scope(q), opts)
		if err != nil {
			return err
		}
		now := runners.Now()
		out := actionRunnersDTO{Runners: make([]actionRunnerDTO, 0, len(list)), TotalCount: total}
		for _, r := range list {
			out.Runners = append(out.Runners, toActionRunner(r, now))
		}
		s.setPaging(q.w, q.r, opts, total)
		q.json(http.StatusOK, out)
		return nil
	}
}

// get answers GET …/actions/runners/{runner_id}.
func (s actionRunners) get(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		id, err := pathID(q, "runner_id")
		if err != nil {
			return err
		}
		runners := s.actions.Runners()
		r, err := runners.Get(q.r.Context(), scope(q), id)
		if err != nil {
			return err
		}
		q.json(http.StatusOK, toActionRunner(r, runners.Now()))
		return nil
	}
}

// delete answers DELETE …/actions/runners/{runner_id} with 204.
func (s actionRunners) delete(scope func(*request) actions.Scope) handler {
	return func(q *request) error {
		id, err := pathID(q, "runner_id")
		if err != nil {
			return err
		}
		return noContent(q, s.actions.Runners().Delete(q.r.Context(), scope(q), id))
	}
}
