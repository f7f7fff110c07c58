package sqlstore

import (
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// The row types mirror the current schema for queries. Migrations keep their
// own frozen copies, so changing these never rewrites history.

type userRow struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID                 int64  `bun:"id,pk,autoincrement"`
	Name               string `bun:"name"`
	LowerName          string `bun:"lower_name"`
	Kind               int    `bun:"kind"`
	FullName           string `bun:"full_name"`
	Email              string `bun:"email"`
	PasswdHash         string `bun:"passwd_hash"`
	PasswdVersion      int64  `bun:"passwd_version"`
	IsAdmin            bool   `bun:"is_admin"`
	IsActive           bool   `bun:"is_active"`
	ProhibitLogin      bool   `bun:"prohibit_login"`
	MustChangePassword bool   `bun:"must_change_password"`
	IsRestricted       bool   `bun:"is_restricted"`
	Visibility         string `bun:"visibility"`
	Location           string `bun:"location"`
	Website            string `bun:"website"`
	Description        string `bun:"description"`
	Language           string `bun:"language"`
	Theme              string `bun:"theme"`
	DiffView           string `bun:"diff_view"`
	HideEmail          bool   `bun:"hide_email"`
	HideActivity       bool   `bun:"hide_activity"`
	AllowGitHook       bool   `bun:"allow_git_hook"`
	AllowImportLocal   bool   `bun:"allow_import_local"`
	AllowCreateOrg     bool   `bun:"allow_create_org"`
	MaxRepoCreation    int    `bun:"max_repo_creation"`
	// NumStars is kept by the star store; account writes leave it alone.
	NumStars int `bun:"num_stars"`
	// NumFollowers and NumFollowing are kept by the follow store.
	NumFollowers int       `bun:"num_followers"`
	NumFollowing int       `bun:"num_following"`
	TOTPSecret   string    `bun:"totp_secret"`
	Avatar       string    `bun:"avatar"`
	Created      time.Time `bun:"created,nullzero"`
	Updated      time.Time `bun:"updated,nullzero"`
	LastLogin    time.Time `bun:"last_login,nullzero"`
}

// accountCounters are the users columns an account write leaves alone:
// the id and the counters their own stores keep (stars, follows).
var accountCounters = []string{"id", "num_stars", "num_followers", "num_following"}

type emailRow struct {
	bun.BaseModel `bun:"table:emails,alias:e"`

	ID         int64  `bun:"id,pk,autoincrement"`
	UserID     int64  `bun:"user_id"`
	Email      string `bun:"email"`
	LowerEmail string `bun:"lower_email"`
	Activated  bool   `bun:"activated"`
	IsPrimary  bool   `bun:"is_primary"`
}

// emailOwnerRow is an address joined with its owner's name.
type emailOwnerRow struct {
	emailRow `bun:",extend"`

	UserName string `bun:"user_name,scanonly"`
}

type tokenRow struct {
	bun.BaseModel `bun:"table:access_tokens,alias:t"`

	ID        int64     `bun:"id,pk,autoincrement"`
	UserID    int64     `bun:"user_id"`
	Name      string    `bun:"name"`
	TokenHash string    `bun:"token_hash"`
	TokenSalt string    `bun:"token_salt"`
	LastEight string    `bun:"last_eight"`
	Scopes    string    `bun:"scopes"`
	Created   time.Time `bun:"created,nullzero"`
	LastUsed  time.Time `bun:"last_used,nullzero"`
}

type redirectRow struct {
	bun.BaseModel `bun:"table:user_redirects,alias:r"`

	LowerName string `bun:"lower_name,pk"`
	UserID    int64  `bun:"user_id"`
}

// dbTime stores instants in UTC at the precision both backends keep
// (microseconds), so what is read back equals what was written. The zero
// time stays zero and is stored as NULL through nullzero.
func dbTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Microsecond)
}

// domainTime undoes the driver's choice of location (Postgres answers in the
// session's zone), so the domain always sees UTC or zero.
func domainTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func toUserRow(u *user.User) *userRow {
	return &userRow{
		ID: u.ID, Name: u.Name, LowerName: u.LowerName, Kind: int(u.Kind), FullName: u.FullName,
		Email: u.Email, PasswdHash: u.PasswordHash, PasswdVersion: u.PasswordVersion,
		IsAdmin: u.IsAdmin, IsActive: u.IsActive, ProhibitLogin: u.ProhibitLogin,
		MustChangePassword: u.MustChangePassword, IsRestricted: u.IsRestricted,
		Visibility: string(u.Visibility), Location: u.Location, Website: u.Website,
		Description: u.Description, Language: u.Language, Theme: u.Theme, DiffView: u.DiffView,
		HideEmail: u.HideEmail, HideActivity: u.HideActivity, AllowGitHook: u.AllowGitHook,
		AllowImportLocal: u.AllowImportLocal, AllowCreateOrg: u.AllowCreateOrganization,
		MaxRepoCreation: u.MaxRepoCreation, TOTPSecret: u.TOTPSecret, Avatar: u.Avatar,
		Created: dbTime(u.Created), Updated: dbTime(u.Updated), LastLogin: dbTime(u.LastLogin),
	}
}

func (r *userRow) toDomain() *user.User {
	return &user.User{
		ID: r.ID, Name: r.Name, LowerName: r.LowerName, Kind: user.Kind(r.Kind), FullName: r.FullName,
		Email: r.Email, PasswordHash: r.PasswdHash, PasswordVersion: r.PasswdVersion,
		IsAdmin: r.IsAdmin, IsActive: r.IsActive, ProhibitLogin: r.ProhibitLogin,
		MustChangePassword: r.MustChangePassword, IsRestricted: r.IsRestricted,
		Visibility: user.Visibility(r.Visibility), Location: r.Location, Website: r.Website,
		Description: r.Description, Language: r.Language, Theme: r.Theme, DiffView: r.DiffView,
		HideEmail: r.HideEmail, HideActivity: r.HideActivity, AllowGitHook: r.AllowGitHook,
		AllowImportLocal: r.AllowImportLocal, AllowCreateOrganization: r.AllowCreateOrg,
		MaxRepoCreation: r.MaxRepoCreation, TOTPSecret: r.TOTPSecret, NumStars: r.NumStars, Avatar: r.Avatar,
		NumFollowers: r.NumFollowers, NumFollowing: r.NumFollowing,
		Created: domainTime(r.Created), Updated: domainTime(r.Updated), LastLogin: domainTime(r.LastLogin),
	}
}

func toEmailRow(e *user.Email) *emailRow {
	lower := e.LowerEmail
	if lower == "" {
		lower = strings.ToLower(e.Email)
	}
	return &emailRow{
		ID: e.ID, UserID: e.UserID, Email: e.Email, LowerEmail: lower,
		Activated: e.Activated, IsPrimary: e.Primary,
	}
}

func (r *emailRow) toDomain() *user.Email {
	return &user.Email{
		ID: r.ID, UserID: r.UserID, Email: r.Email, LowerEmail: r.LowerEmail,
		Activated: r.Activated, Primary: r.IsPrimary,
	}
}

func toTokenRow(t *token.AccessToken) *tokenRow {
	return &tokenRow{
		ID: t.ID, UserID: t.UserID, Name: t.Name, TokenHash: t.Hash, TokenSalt: t.Salt,
		LastEight: t.LastEight, Scopes: joinScopes(t.Scopes),
		Created: dbTime(t.Created), LastUsed: dbTime(t.LastUsed),
	}
}

func (r *tokenRow) toDomain() *token.AccessToken {
	return &token.AccessToken{
		ID: r.ID, UserID: r.UserID, Name: r.Name, Hash: r.TokenHash, Salt: r.TokenSalt,
		LastEight: r.LastEight, Scopes: splitScopes(r.Scopes),
		Created: domainTime(r.Created), LastUsed: domainTime(r.LastUsed),
	}
}

// Scopes are stored as one comma-separated column: they are always read
// whole with their token, never queried one by one.
func joinScopes(s token.Scopes) string {
	parts := make([]string, len(s))
	for i, sc := range s {
		parts[i] = string(sc)
	}
	return strings.Join(parts, ",")
}

func splitScopes(s string) token.Scopes {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make(token.Scopes, len(parts))
	for i, p := range parts {
		out[i] = token.Scope(p)
	}
	return out
}
