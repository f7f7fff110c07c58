package http

import (
	"net/http"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/user"
)

// userSettings serves the caller's own profile settings (catalogue 4.4).
type userSettings struct{ *kernel }

// userSettingsRoutes are the rows of userSettings.
func (s *kernel) userSettingsRoutes() []route {
	h := userSettings{s}
	return []route{
		{"GET", "/user/settings", scopes(catUser), "T", h.getSettings},
		{"PATCH", "/user/settings", scopes(catUser), "T", h.patchSettings},
	}
}

// userSettingsDTO is Gitea's UserSettings.
type userSettingsDTO struct {
	FullName      string `json:"full_name"`
	Website       string `json:"website"`
	Description   string `json:"description"`
	Location      string `json:"location"`
	Language      string `json:"language"`
	Theme         string `json:"theme"`
	DiffViewStyle string `json:"diff_view_style"`
	HideEmail     bool   `json:"hide_email"`
	HideActivity  bool   `json:"hide_activity"`
}

func toSettings(u *user.User) userSettingsDTO {
	return userSettingsDTO{FullName: u.FullName, Website: u.Website, Description: u.Description,
		Location: u.Location, Language: u.Language, Theme: u.Theme, DiffViewStyle: u.DiffView,
		HideEmail: u.HideEmail, HideActivity: u.HideActivity}
}

// getSettings answers GET /user/settings.
func (s userSettings) getSettings(q *request) error {
	q.json(http.StatusOK, toSettings(q.caller.User))
	return nil
}

// settingsBody is Gitea's UserSettingsOptions.
type settingsBody struct {
	FullName      *string `json:"full_name"`
	Website       *string `json:"website"`
	Description   *string `json:"description"`
	Location      *string `json:"location"`
	Language      *string `json:"language"`
	Theme         *string `json:"theme"`
	DiffViewStyle *string `json:"diff_view_style"`
	HideEmail     *bool   `json:"hide_email"`
	HideActivity  *bool   `json:"hide_activity"`
}

// patchSettings answers PATCH /user/settings.
func (s userSettings) patchSettings(q *request) error {
	var b settingsBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	u, err := s.users.Settings().Update(q.r.Context(), q.caller.User.ID, users.SettingsInput{
		FullName: b.FullName, Website: b.Website, Description: b.Description, Location: b.Location,
		Language: b.Language, Theme: b.Theme, DiffViewStyle: b.DiffViewStyle,
		HideEmail: b.HideEmail, HideActivity: b.HideActivity,
	})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toSettings(u))
	return nil
}
