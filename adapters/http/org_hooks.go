package http

import "github.com/depothq/depot/domain/hook"

// orgHooks serves an organisation's webhooks (catalogue 4.8). The
// organisation is resolved first (404 when absent or hidden from the
// caller), then OO and WH are checked. An organisation's hooks hear about
// every repository it owns, as a user's hooks do: they go through the same
// use cases as /user/hooks, in the organisation's owner scope.
type orgHooks struct{ *kernel }

// orgHookRoutes are the rows of orgHooks.
func (s *kernel) orgHookRoutes() []route {
	h := orgHooks{s}
	return []route{
		{"GET", "/orgs/{org}/hooks", scopes(catOrg), "T,OO,WH", h.listOrgHooks},
		{"POST", "/orgs/{org}/hooks", scopes(catOrg), "T,OO,WH", h.createOrgHook},
		{"GET", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", h.getOrgHook},
		{"PATCH", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", h.editOrgHook},
		{"DELETE", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", h.deleteOrgHook},
	}
}

func orgHookScope(q *request) hook.Scope { return hook.OwnerScope(q.org.Org.ID) }

// listOrgHooks answers GET /orgs/{org}/hooks.
func (s orgHooks) listOrgHooks(q *request) error { return s.writeHookList(q, orgHookScope(q)) }

// createOrgHook answers POST /orgs/{org}/hooks with 201 and the hook.
func (s orgHooks) createOrgHook(q *request) error {
	return s.createHook(q, fixedScope(orgHookScope(q)))
}

// getOrgHook answers GET /orgs/{org}/hooks/{id}; another scope's hook is 404.
func (s orgHooks) getOrgHook(q *request) error { return s.getHook(q, orgHookScope(q)) }

// editOrgHook answers PATCH /orgs/{org}/hooks/{id} with the hook.
func (s orgHooks) editOrgHook(q *request) error { return s.editHook(q, orgHookScope(q)) }

// deleteOrgHook answers DELETE /orgs/{org}/hooks/{id} with 204.
func (s orgHooks) deleteOrgHook(q *request) error { return s.deleteHook(q, orgHookScope(q)) }
