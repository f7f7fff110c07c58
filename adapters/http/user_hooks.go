package http

import "github.com/depothq/depot/domain/hook"

// userHooks serves the signed-in user's own webhooks, which hear about
// every repository the user owns (catalogue 4.4).
type userHooks struct{ *kernel }

// userHookRoutes are the rows of userHooks.
func (s *kernel) userHookRoutes() []route {
	h := userHooks{s}
	return []route{
		{"GET", "/user/hooks", scopes(catUser), "T,WH", h.listMyHooks},
		{"POST", "/user/hooks", scopes(catUser), "T,WH", h.createMyHook},
		{"GET", "/user/hooks/{id}", scopes(catUser), "T,WH", h.getMyHook},
		{"PATCH", "/user/hooks/{id}", scopes(catUser), "T,WH", h.editMyHook},
		{"DELETE", "/user/hooks/{id}", scopes(catUser), "T,WH", h.deleteMyHook},
	}
}

func myHookScope(q *request) hook.Scope { return hook.OwnerScope(q.caller.UserID()) }

// listMyHooks answers GET /user/hooks: the caller's own hooks, which hear
// about every repository the caller owns.
func (s userHooks) listMyHooks(q *request) error { return s.writeHookList(q, myHookScope(q)) }

// createMyHook answers POST /user/hooks with 201 and the hook.
func (s userHooks) createMyHook(q *request) error { return s.createHook(q, fixedScope(myHookScope(q))) }

// getMyHook answers GET /user/hooks/{id}; another account's hook is 404.
func (s userHooks) getMyHook(q *request) error { return s.getHook(q, myHookScope(q)) }

// editMyHook answers PATCH /user/hooks/{id} with the hook.
func (s userHooks) editMyHook(q *request) error { return s.editHook(q, myHookScope(q)) }

// deleteMyHook answers DELETE /user/hooks/{id} with 204.
func (s userHooks) deleteMyHook(q *request) error { return s.deleteHook(q, myHookScope(q)) }
