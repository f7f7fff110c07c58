package http

import "net/http"

// getAPISettings answers GET /settings/api (Gitea's GeneralAPISettings).
func (s *Server) getAPISettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"max_response_items":         s.settings.MaxResponseItems,
		"default_paging_num":         s.settings.DefaultPagingNum,
		"default_git_trees_per_page": 1000,
		"default_max_blob_size":      10 << 20,
		"default_max_response_size":  s.settings.MaxBodyBytes,
	})
	return nil
}

// getUISettings answers GET /settings/ui (Gitea's GeneralUISettings).
func (s *Server) getUISettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"default_theme":     "gitea-auto",
		"allowed_reactions": []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"},
		"custom_emojis":     []string{"git", "gitea", "codeberg", "gitlab", "github", "gogs"},
	})
	return nil
}

// getAttachmentSettings answers GET /settings/attachment (Gitea's GeneralAttachmentSettings).
func (s *Server) getAttachmentSettings(q *request) error {
	q.json(http.StatusOK, map[string]any{
		"enabled":       true,
		"allowed_types": ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip",
		"max_size":      2048,
		"max_files":     5,
	})
	return nil
}

// getRepoSettings answers GET /settings/repository (Gitea's GeneralRepoSettings).
func (s *Server) getRepoSettings(q *request) error {
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
