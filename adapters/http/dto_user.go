package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// userDTO is Gitea's User.
type userDTO struct {
	ID              int64     `json:"id"`
	Login           string    `json:"login"`
	LoginName       string    `json:"login_name"`
	SourceID        int64     `json:"source_id"`
	FullName        string    `json:"full_name"`
	Email           string    `json:"email"`
	AvatarURL       string    `json:"avatar_url"`
	HTMLURL         string    `json:"html_url"`
	Language        string    `json:"language"`
	IsAdmin         bool      `json:"is_admin"`
	LastLogin       time.Time `json:"last_login"`
	Created         time.Time `json:"created"`
	Restricted      bool      `json:"restricted"`
	Active          bool      `json:"active"`
	ProhibitLogin   bool      `json:"prohibit_login"`
	Location        string    `json:"location"`
	Website         string    `json:"website"`
	Description     string    `json:"description"`
	Visibility      string    `json:"visibility"`
	FollowersCount  int       `json:"followers_count"`
	FollowingCount  int       `json:"following_count"`
	StarredReposCnt int       `json:"starred_repos_count"`
	Username        string    `json:"username"`
}

// toUser renders u for caller c. Administrative facts (admin flag, login
// state) are shown to administrators and to the user itself, as Gitea does.
func (s *kernel) toUser(c auth.Caller, u *user.User) userDTO {
	d := userDTO{
		ID: u.ID, Login: u.Name, Username: u.Name, FullName: u.FullName,
		Email:   s.users.ShownEmail(c, u),
		HTMLURL: s.baseURL + "/" + url.PathEscape(u.Name),
		Created: u.Created.UTC(), Location: u.Location, Website: u.Website, Description: u.Description,
		Visibility: string(u.Visibility), StarredReposCnt: u.NumStars, AvatarURL: s.userAvatarURL(u),
	}
	if c.IsAdmin() || c.UserID() == u.ID {
		d.IsAdmin, d.Active, d.ProhibitLogin, d.Restricted = u.IsAdmin, u.IsActive, u.ProhibitLogin, u.IsRestricted
		d.LoginName = u.Name
		// Locale and last sign-in are private too, as in Gitea's convert.toUser.
		d.Language, d.LastLogin = u.Language, u.LastLogin.UTC()
	}
	return d
}

func (s *kernel) toUsers(c auth.Caller, list []*user.User) []userDTO {
	out := make([]userDTO, 0, len(list))
	for _, u := range list {
		out = append(out, s.toUser(c, u))
	}
	return out
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

// emailDTO is Gitea's Email.
type emailDTO struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

// toEmails renders the addresses of the user called owner.
func toEmails(list []*user.Email, owner string) []emailDTO {
	out := make([]emailDTO, 0, len(list))
	for _, e := range list {
		out = append(out, emailDTO{Email: e.Email, Verified: e.Activated, Primary: e.Primary,
			UserID: e.UserID, Username: owner})
	}
	return out
}

// accessTokenDTO is Gitea's AccessToken; sha1 carries the secret only on creation.
type accessTokenDTO struct {
	ID             int64      `json:"id"`
	Name           string     `json:"name"`
	SHA1           string     `json:"sha1"`
	TokenLastEight string     `json:"token_last_eight"`
	Scopes         []string   `json:"scopes"`
	CreatedAt      time.Time  `json:"created_at"`
	LastUsedAt     *time.Time `json:"last_used_at,omitempty"`
}

func toToken(t *token.AccessToken, secret string) accessTokenDTO {
	d := accessTokenDTO{ID: t.ID, Name: t.Name, SHA1: secret, TokenLastEight: t.LastEight,
		Scopes: t.Scopes.Strings(), CreatedAt: t.Created.UTC()}
	if !t.LastUsed.IsZero() {
		lu := t.LastUsed.UTC()
		d.LastUsedAt = &lu
	}
	return d
}
