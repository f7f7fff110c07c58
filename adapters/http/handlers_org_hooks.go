package http

import "github.com/depothq/depot/domain/hook"

// orgHookRoutes are the organisation hook rows of catalogue 4.8. The
// organisation is resolved first (404 when absent or hidden from the
// caller), then OO and WH are checked. An organisation's hooks hear about
// every repository it owns, as a user's hooks do: they go through the same
// use cases as /user/hooks, in the organisation's owner scope.
func (s *kernel) orgHookRoutes() []route {
	return []route{
		{"GET", "/orgs/{org}/hooks", scopes(catOrg), "T,OO,WH", s.listOrgHooks},
		{"POST", "/orgs/{org}/hooks", scopes(catOrg), "T,OO,WH", s.createOrgHook},
		{"GET", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", s.getOrgHook},
		{"PATCH", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", s.editOrgHook},
		{"DELETE", "/orgs/{org}/hooks/{id}", scopes(catOrg), "T,OO,WH", s.deleteOrgHook},
	}
}

func orgHooks(q *request) hook.Scope { return hook.OwnerScope(q.org.Org.ID) }

// listOrgHooks answers GET /orgs/{org}/hooks.
func (s *kernel) listOrgHooks(q *request) error { return s.writeHookList(q, orgHooks(q)) }

// createOrgHook answers POST /orgs/{org}/hooks with 201 and the hook.
func (s *kernel) createOrgHook(q *request) error { return s.createHook(q, fixedScope(orgHooks(q))) }

// getOrgHook answers GET /orgs/{org}/hooks/{id}; another scope's hook is 404.
func (s *kernel) getOrgHook(q *request) error { return s.getHook(q, orgHooks(q)) }

// editOrgHook answers PATCH /orgs/{org}/hooks/{id} with the hook.
func (s *kernel) editOrgHook(q *request) error { return s.editHook(q, orgHooks(q)) }

// deleteOrgHook answers DELETE /orgs/{org}/hooks/{id} with 204.
func (s *kernel) deleteOrgHook(q *request) error { return s.deleteHook(q, orgHooks(q)) }
