package http

import "github.com/depothq/depot/domain/hook"

// repoHooks serves a repository's webhooks (catalogue 4.5).
type repoHooks struct{ *kernel }

// repoHookRoutes are the rows of repoHooks.
func (s *kernel) repoHookRoutes() []route {
	h := repoHooks{s}
	return []route{
		{"GET", R + "/hooks", scopes(catRepo), "T,RA,WH", h.listRepoHooks},
		{"POST", R + "/hooks", scopes(catRepo), "T,RA,WH", h.createRepoHook},
		{"GET", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", h.getRepoHook},
		{"PATCH", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", h.editRepoHook},
		{"DELETE", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", h.deleteRepoHook},
	}
}

func repoHookScope(q *request) hook.Scope { return hook.RepoScope(q.repo.Repo.ID) }

// listRepoHooks answers GET R/hooks.
func (s repoHooks) listRepoHooks(q *request) error { return s.writeHookList(q, repoHookScope(q)) }

// createRepoHook answers POST R/hooks with 201 and the hook.
func (s repoHooks) createRepoHook(q *request) error {
	return s.createHook(q, fixedScope(repoHookScope(q)))
}

// getRepoHook answers GET R/hooks/{id}.
func (s repoHooks) getRepoHook(q *request) error { return s.getHook(q, repoHookScope(q)) }

// editRepoHook answers PATCH R/hooks/{id} with the hook.
func (s repoHooks) editRepoHook(q *request) error { return s.editHook(q, repoHookScope(q)) }

// deleteRepoHook answers DELETE R/hooks/{id} with 204.
func (s repoHooks) deleteRepoHook(q *request) error { return s.deleteHook(q, repoHookScope(q)) }
