package http

import (
	"net/http"

	"github.com/depothq/depot/app/hooks"
	"github.com/depothq/depot/domain/hook"
)

// adminHooks serves the site's system and default webhooks (catalogue 4.9).
type adminHooks struct{ *kernel }

// adminHookRoutes are the rows of adminHooks.
func (s *kernel) adminHookRoutes() []route {
	h := adminHooks{s}
	return []route{
		{"GET", "/admin/hooks", scopes(catAdmin), "T,SA", h.adminListHooks},
		{"POST", "/admin/hooks", scopes(catAdmin), "T,SA", h.adminCreateHook},
		{"GET", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", h.adminGetHook},
		{"PATCH", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", h.adminEditHook},
		{"DELETE", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", h.adminDeleteHook},
	}
}

// adminListHooks answers GET /admin/hooks?type=system|default|all: the
// site's system hooks by default, as in Gitea (an unknown type too).
func (s adminHooks) adminListHooks(q *request) error {
	scope := hook.SystemScope()
	switch q.r.URL.Query().Get("type") {
	case "default":
		scope = hook.DefaultScope()
	case "all":
		scope = hook.AdminScope()
	}
	return s.writeHookList(q, scope)
}

// adminCreateHook answers POST /admin/hooks with 201: a system hook when
// is_system_webhook says so (in the body, or as Gitea 1.2x reads it, in
// config), otherwise a default hook, copied into every new repository.
func (s adminHooks) adminCreateHook(q *request) error {
	return s.createHook(q, func(b createHookBody) (hook.Scope, error) {
		system, err := hook.SystemFlag(b.IsSystemWebhook, b.Config)
		if err != nil || !system {
			return hook.DefaultScope(), err
		}
		return hook.SystemScope(), nil
	})
}

// adminGetHook answers GET /admin/hooks/{id}: a system or default hook.
func (s adminHooks) adminGetHook(q *request) error { return s.getHook(q, hook.AdminScope()) }

// adminEditHook answers PATCH /admin/hooks/{id}; is_system_webhook moves
// the hook between the two kinds.
func (s adminHooks) adminEditHook(q *request) error {
	id, b, err := editHookRequest(q)
	if err != nil {
		return err
	}
	h, err := s.hooks.Webhooks().EditAdmin(q.r.Context(), id, hooks.AdminEditOptions{EditOptions: b.options(), IsSystem: b.IsSystemWebhook})
	return writeHook(q, http.StatusOK, h, err)
}

// adminDeleteHook answers DELETE /admin/hooks/{id} with 204.
func (s adminHooks) adminDeleteHook(q *request) error { return s.deleteHook(q, hook.AdminScope()) }
