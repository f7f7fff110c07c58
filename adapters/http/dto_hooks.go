package http

import (
	"time"

	"github.com/depothq/depot/domain/hook"
)

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

// gitHookDTO is Gitea's GitHook.
type gitHookDTO struct {
	Name     string `json:"name"`
	IsActive bool   `json:"is_active"`
	Content  string `json:"content,omitempty"`
}

// editGitHookBody is Gitea's EditGitHookOption.
type editGitHookBody struct {
	Content string `json:"content"`
}

func toGitHook(h hook.GitHook) gitHookDTO {
	return gitHookDTO{Name: h.Name, IsActive: h.Active, Content: h.Content}
}
