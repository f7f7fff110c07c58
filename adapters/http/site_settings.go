package http

import (
	"net/http"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
)

// siteSettings serves the site's public settings (catalogue 4.1).
type siteSettings struct{ *kernel }

// siteSettingRoutes are the rows of siteSettings.
func (s *kernel) siteSettingRoutes() []route {
	h := siteSettings{s}
	return []route{
		{"GET", "/settings/ui", nil, "-", h.getUISettings},
		{"GET", "/settings/api", nil, "-", h.getAPISettings},
		{"GET", "/settings/attachment", nil, "-", h.getAttachmentSettings},
		{"GET", "/settings/repository", nil, "-", h.getRepoSettings},
	}
}

// giteaMaxResponseSize is Gitea 1.27's [api] DEFAULT_MAX_RESPONSE_SIZE
// (modules/setting/api.go, 104857600). It is not the request-body bound
// (max_body_bytes): Depot puts no lower bound on a response, so the answer
// is Gitea's default.
const giteaMaxResponseSize = 100 << 20

// getAPISettings answers GET /settings/api (Gitea's GeneralAPISettings).
func (s siteSettings) getAPISettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"max_response_items":         s.settings.MaxResponseItems,
		"default_paging_num":         s.settings.DefaultPagingNum,
		"default_git_trees_per_page": 1000,
		"default_max_blob_size":      10 << 20,
		"default_max_response_size":  giteaMaxResponseSize,
	})
	return nil
}

// getUISettings answers GET /settings/ui (Gitea's GeneralUISettings).
func (s siteSettings) getUISettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"default_theme":     user.DefaultTheme,
		"allowed_reactions": []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"},
		"custom_emojis":     []string{"git", "gitea", "codeberg", "gitlab", "github", "gogs"},
	})
	return nil
}

// getAttachmentSettings answers GET /settings/attachment (Gitea's GeneralAttachmentSettings).
func (s siteSettings) getAttachmentSettings(q *request) error {
	rules := issue.AttachmentRulesOf(s.settings)
	q.json(http.StatusOK, map[string]any{
		"enabled":       rules.Enabled,
		"allowed_types": rules.AllowedTypes,
		"max_size":      rules.MaxBytes >> 20, // Gitea answers MiB
		"max_files":     rules.MaxFiles,
	})
	return nil
}

// getRepoSettings answers GET /settings/repository (Gitea's GeneralRepoSettings).
func (s siteSettings) getRepoSettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"mirrors_disabled":       false,
		"http_git_disabled":      false,
		"migrations_disabled":    false,
		"stars_disabled":         !s.settings.EnableStars,
		"time_tracking_disabled": false,
		"lfs_disabled":           true,
	})
	return nil
}
