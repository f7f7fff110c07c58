// Package auth resolves the credentials of a request to a caller: access
// tokens in the Authorization header, HTTP signatures made with an
// account's SSH key, HTTP Basic with a password (and a TOTP
// code when the account has two-factor sign-in) or with a token, the
// deprecated query tokens, a trusted reverse proxy's header, and sudo; and
// browsers' sessions on Depot's own pages (web_sessions.go). It writes
// nothing on the request path but the accounts a reverse proxy registers
// and the sessions a browser signs in with.
package auth

import (
	"context"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// Method says how a caller proved who it is.
type Method int

// The authentication methods.
const (
	MethodNone          Method = iota // anonymous
	MethodToken                       // access token in the Authorization header (or accepted query token)
	MethodBasic                       // HTTP Basic with the account password
	MethodBasicToken                  // HTTP Basic with an access token as the password
	MethodOAuth2                      // OAuth2 access token as "Authorization: Bearer"
	MethodReverseProxy                // the user a trusted reverse proxy named in a header
	MethodWebSession                  // a browser's session cookie on Depot's own pages
	MethodHTTPSignature               // HTTP signature made with an account's SSH key or certificate
)

// Caller is who a request runs as.
type Caller struct {
	// User is nil for anonymous callers.
	User *user.User
	// Token is the access token used, nil unless a token authenticated the request.
	Token *token.AccessToken
	// Method is how the credentials were given.
	Method Method
	// Sudoer is the administrator who asked to act as User, nil without sudo.
	Sudoer *user.User
	// Task is set when a workflow run's task token authenticated the
	// request; User is then ActionsUser.
	Task *TaskCaller
}

// TaskCaller is the task whose token (GITEA_TOKEN) a request carries.
type TaskCaller struct {
	TaskID, RunID, RepoID int64
}

// ActionsUserID and ActionsUserName name the pseudo-user a workflow run's
// token acts as, Gitea's "gitea-actions" (user.ActionsUserID).
const (
	ActionsUserID   = user.ActionsUserID
	ActionsUserName = user.ActionsUserName
)

// ActionsUser is the pseudo-user a task token acts as.
func ActionsUser() *user.User { return user.NewActionsUser() }

// Signed reports whether someone is signed in.
func (c Caller) Signed() bool { return c.User != nil }

// IsAdmin reports whether the caller is a site administrator.
func (c Caller) IsAdmin() bool { return c.User != nil && c.User.IsAdmin }

// UserID returns the caller's id, 0 when anonymous.
func (c Caller) UserID() int64 {
	if c.User == nil {
		return 0
	}
	return c.User.ID
}

// IsBasicPassword reports whether the caller signed in with Basic and a
// password, the only way token management accepts: a token cannot mint tokens.
func (c Caller) IsBasicPassword() bool { return c.Method == MethodBasic }

// CanManageTokens reports whether the caller proved who it is the way
// access-token management asks (core reference 5.7): Basic with a password,
// or reverse-proxy authentication.
func (c Caller) CanManageTokens() bool {
	return c.Method == MethodBasic || c.Method == MethodReverseProxy
}

// Scopes returns the token's scopes, nil when no token was used.
func (c Caller) Scopes() token.Scopes {
	if c.Token == nil {
		return nil
	}
	return c.Token.Scopes
}

// Credentials are what a request presented, as the HTTP adapter read them.
type Credentials struct {
	// HeaderToken is the value after "token " or "Bearer " in Authorization.
	HeaderToken string
	// Basic is set when Authorization carried HTTP Basic.
	Basic                    bool
	BasicUser, BasicPassword string
	// OTP is the X-Service-OTP header.
	OTP string
	// Sudo is the sudo query parameter or Sudo header.
	Sudo string
	// QueryToken is the deprecated token or access_token query parameter.
	QueryToken string
	// ProxyUser, ProxyEmail and ProxyFullName are what a trusted reverse
	// proxy said in its headers; the HTTP adapter leaves them empty for
	// requests from other addresses.
	ProxyUser, ProxyEmail, ProxyFullName string
	// Signed is the request's HTTP signature, nil when it carries none the
	// adapter checks.
	Signed SignedRequest
}

// SignedRequest is a request's HTTP signature, checked when asked.
type SignedRequest interface {
	// SignerID verifies the signature and returns the id of the account
	// whose key made it; a refused signature is errs.ErrUnauthenticated.
	SignerID(ctx context.Context) (int64, error)
}

// Actor returns the caller as the permission core sees it.
func (c Caller) Actor() permission.Actor {
	if c.Task != nil {
		return permission.Actor{Kind: permission.ActorWorkflowRun, RunRepoID: c.Task.RepoID}
	}
	if c.User == nil {
		return permission.Actor{Kind: permission.ActorAnonymous}
	}
	u := c.User
	return permission.Actor{
		Kind: permission.ActorUser, UserID: u.ID, IsSiteAdmin: u.IsAdmin, IsActive: u.IsActive,
		ProhibitLogin: u.ProhibitLogin, MustChangePassword: u.MustChangePassword,
		IsActivated: u.IsActive, IsRestricted: u.IsRestricted,
		ViaToken: c.Token != nil, Scopes: c.Scopes(),
	}
}
