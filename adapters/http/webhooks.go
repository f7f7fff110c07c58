package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/domain/hook"
)

// What the webhook resources share (repoHooks, userHooks, adminHooks and
// orgHooks, which differ in the scope of their hooks): the handlers over a
// scope and Gitea's Hook shapes.

// writeHookList answers one page of the scope's hooks with paging headers.
func (s *kernel) writeHookList(q *request, scope hook.Scope) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.hooks.Webhooks().List(q.r.Context(), scope, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, toHooks(list))
	return nil
}

// writeHook answers the hook a use case returned, or its error.
func writeHook(q *request, status int, h *hook.Hook, err error) error {
	if err != nil {
		return err
	}
	q.json(status, toHook(h))
	return nil
}

// createHook creates a hook from the body in the scope pick chooses for it
// (the admin route reads the scope from the body).
func (s *kernel) createHook(q *request, pick func(createHookBody) (hook.Scope, error)) error {
	var b createHookBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	scope, err := pick(b)
	if err != nil {
		return err
	}
	h, err := s.hooks.Webhooks().Create(q.r.Context(), scope, b.options())
	return writeHook(q, http.StatusCreated, h, err)
}

// fixedScope is createHook's pick for routes whose scope is the route's own.
func fixedScope(scope hook.Scope) func(createHookBody) (hook.Scope, error) {
	return func(createHookBody) (hook.Scope, error) { return scope, nil }
}

func (s *kernel) getHook(q *request, scope hook.Scope) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	h, err := s.hooks.Webhooks().Get(q.r.Context(), scope, id)
	return writeHook(q, http.StatusOK, h, err)
}

// editHookRequest reads PATCH …/hooks/{id}: the id and the body.
func editHookRequest(q *request) (int64, editHookBody, error) {
	var b editHookBody
	id, err := pathID(q, "id")
	if err != nil {
		return 0, b, err
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return 0, b, err
	}
	return id, b, nil
}

func (s *kernel) editHook(q *request, scope hook.Scope) error {
	id, b, err := editHookRequest(q)
	if err != nil {
		return err
	}
	h, err := s.hooks.Webhooks().Edit(q.r.Context(), scope, id, b.options())
	return writeHook(q, http.StatusOK, h, err)
}

func (s *kernel) deleteHook(q *request, scope hook.Scope) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.hooks.Webhooks().Delete(q.r.Context(), scope, id))
}

// hookDTO is Gitea's Hook. The secret is never shown; config carries the
// URL, the content type, the HTTP method and the chat kinds' settings.
type hookDTO struct {
	ID                  int64             `json:"id"`
	Type                string            `json:"type"`
	BranchFilter        string            `json:"branch_filter"`
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	AuthorizationHeader string            `json:"authorization_header"`
	Active              bool              `json:"active"`
	Updated             time.Time         `json:"updated_at"`
	Created             time.Time         `json:"created_at"`
}

// createHookBody is Gitea's CreateHookOption; is_system_webhook only means
// something on /admin/hooks (a system hook rather than a default one).
type createHookBody struct {
	Type                string            `json:"type"`
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	BranchFilter        string            `json:"branch_filter"`
	AuthorizationHeader string            `json:"authorization_header"`
	Active              bool              `json:"active"`
	IsSystemWebhook     *bool             `json:"is_system_webhook"`
}

func (b createHookBody) options() hook.CreateOptions {
	return hook.CreateOptions{
		Type: b.Type, Config: b.Config, Events: b.Events, BranchFilter: b.BranchFilter,
		AuthorizationHeader: b.AuthorizationHeader, Active: b.Active,
	}
}

// editHookBody is Gitea's EditHookOption. Absent fields leave the hook as
// it is (Gitea's SDK always sends branch_filter and authorization_header,
// so its clients set them, as Gitea does); "events": [] means push.
type editHookBody struct {
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	BranchFilter        *string           `json:"branch_filter"`
	AuthorizationHeader *string           `json:"authorization_header"`
	Active              *bool             `json:"active"`
	IsSystemWebhook     *bool             `json:"is_system_webhook"`
}

func (b editHookBody) options() hook.EditOptions {
	return hook.EditOptions{
		Config: b.Config, Events: b.Events, BranchFilter: b.BranchFilter,
		AuthorizationHeader: b.AuthorizationHeader, Active: b.Active,
	}
}

func toHook(h *hook.Hook) hookDTO {
	cfg := map[string]string{
		hook.ConfigURL:         h.URL,
		hook.ConfigContentType: string(h.ContentType),
		hook.ConfigHTTPMethod:  h.HTTPMethod,
	}
	for k, v := range h.Meta {
		cfg[k] = v
	}
	events := h.Events
	if events == nil {
		events = []string{}
	}
	return hookDTO{
		ID: h.ID, Type: string(h.TypeName()), BranchFilter: h.BranchFilter, Config: cfg, Events: events,
		AuthorizationHeader: h.AuthorizationHeader, Active: h.Active,
		Updated: h.Updated.UTC(), Created: h.Created.UTC(),
	}
}

func toHooks(list []*hook.Hook) []hookDTO {
	out := make([]hookDTO, 0, len(list))
	for _, h := range list {
		out = append(out, toHook(h))
	}
	return out
}
