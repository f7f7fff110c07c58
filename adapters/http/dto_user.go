package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
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
		FollowersCount: u.NumFollowers, FollowingCount: u.NumFollowing,
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
