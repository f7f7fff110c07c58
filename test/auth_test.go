package test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"github.com/pquerna/otp/totp"
)

// Messages the authentication layer answers with (spec section 5 and 7, and
// Depot's own wording where the spec gives none).
const (
	authMsgBadCredentials = "invalid username, password or token"
	authMsgTokenRequired  = "token is required"
	authMsgAuthRequired   = "auth required"
	authMsgOTPRequired    = "otp is required"
	authMsgOTPInvalid     = "invalid provided OTP"
	authMsgSudoNotAdmin   = "Only administrators allowed to sudo."
	authMsgProhibited     = "This account is prohibited from signing in, please contact your site administrator."
	authMsgNotActivated   = "This account is not activated."
	authMsgSignInRequired = "Only signed in user is allowed to call APIs."
	authMsgSelfOrAdmin    = "doer should be the site admin or be same as the contextUser"
)

// authBackends are the storage backends the representative tests run on.
var authBackends = []struct {
	name string
	opts []testserver.Option
}{
	{"sqlite", nil},
	{"postgres", []testserver.Option{testserver.OnPostgres()}},
}

// authWantErr checks an error answer's status and message.
func authWantErr(is *is.I, r testserver.Response, status int, msg string) {
	is.Helper()
	is.Equal(r.Status, status) // status
	is.Equal(r.Message(), msg) // message
}

// authWantUser checks a 200 answer carrying the User called login.
func authWantUser(t *testing.T, is *is.I, r testserver.Response, login string) gitea.User {
	t.Helper()
	is.Helper()
	is.Equal(r.Status, http.StatusOK) // status
	var u gitea.User
	r.Decode(t, &u)
	is.Equal(u.UserName, login) // user
	return u
}

// authNewToken creates an access token with Basic and a password and returns
// it with its secret and id.
func authNewToken(t *testing.T, srv *testserver.Server, name, password string, scopes ...string) *gitea.AccessToken {
	t.Helper()
	sc := make([]gitea.AccessTokenScope, 0, len(scopes))
	for _, s := range scopes {
		sc = append(sc, gitea.AccessTokenScope(s))
	}
	tok, _, err := srv.Client(gitea.SetBasicAuth(name, password)).CreateAccessToken(gitea.CreateAccessTokenOption{
		Name: "tok-" + strconv.FormatInt(time.Now().UnixNano(), 36), Scopes: sc})
	if err != nil {
		t.Fatalf("create token for %s: %v", name, err)
	}
	if tok.Token == "" || tok.ID == 0 {
		t.Fatalf("create token for %s: no secret or id in %+v", name, tok)
	}
	return tok
}

// authEdit changes an account through PATCH /admin/users/{u} as the bootstrap admin.
func authEdit(t *testing.T, srv *testserver.Server, name string, opt gitea.EditUserOption) {
	t.Helper()
	if _, err := srv.AdminClient().AdminEditUser(name, opt); err != nil {
		t.Fatalf("edit %s: %v", name, err)
	}
}

func authTokenHeader(secret string) string { return "token " + secret }

// TestAuthHeaderToken covers tokens in the Authorization header: both
// schemes, unknown and malformed tokens, and a token deleted a moment ago.
func TestAuthHeaderToken(t *testing.T) {
	t.Parallel()
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			srv := testserver.Start(t, b.opts...)
			srv.CreateUser("alice", "alice-password")
			tok := authNewToken(t, srv, "alice", "alice-password", "read:user")

			t.Run("token scheme", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token), "alice")
				me, _, err := srv.Client(gitea.SetToken(tok.Token)).GetMyUserInfo()
				is.NoErr(err)
				is.Equal(me.UserName, "alice")
			})
			t.Run("bearer scheme", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.Token), "alice")
			})
			t.Run("unknown token", func(t *testing.T) {
				is := is.New(t)
				unknown := strings.Repeat("0", 32) + tok.Token[32:] // same lookup key, other secret
				if unknown == tok.Token {
					unknown = strings.Repeat("1", 32) + tok.Token[32:]
				}
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+unknown),
					http.StatusUnauthorized, authMsgBadCredentials)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "Bearer "+strings.Repeat("a", 40)),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
			t.Run("malformed token", func(t *testing.T) {
				is := is.New(t)
				for _, v := range []string{"not-a-token", tok.Token[:39], tok.Token + "0", strings.ToUpper(tok.Token) + "Z"} {
					authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+v),
						http.StatusUnauthorized, authMsgBadCredentials)
				}
			})
			t.Run("no credentials", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/user", nil), http.StatusUnauthorized, authMsgTokenRequired)
			})
			t.Run("deleted token", func(t *testing.T) {
				is := is.New(t)
				gone := authNewToken(t, srv, "alice", "alice-password", "read:user")
				// Used twice so that the lookup is cached before the delete.
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+gone.Token), "alice")
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+gone.Token), "alice")

				r := srv.Do("DELETE", "/users/alice/tokens/"+strconv.FormatInt(gone.ID, 10), nil,
					"Authorization", testserver.Basic("alice", "alice-password"))
				is.Equal(r.Status, http.StatusNoContent)

				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+gone.Token),
					http.StatusUnauthorized, authMsgBadCredentials)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", gone.Token)),
					http.StatusUnauthorized, authMsgBadCredentials)
				// The other token is untouched.
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token), "alice")
			})
			t.Run("deleted token by name", func(t *testing.T) {
				is := is.New(t)
				gone := authNewToken(t, srv, "alice", "alice-password", "read:user")
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+gone.Token), "alice")
				_, err := srv.Client(gitea.SetBasicAuth("alice", "alice-password")).DeleteAccessToken(gone.Name)
				is.NoErr(err)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+gone.Token),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
		})
	}
}

// TestAuthBasic covers HTTP Basic with a password and with a token in
// either half of the pair.
func TestAuthBasic(t *testing.T) {
	t.Parallel()
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			srv := testserver.Start(t, b.opts...)
			srv.CreateUser("alice", "alice-password")
			tok := authNewToken(t, srv, "alice", "alice-password", "read:user")

			t.Run("password", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "alice-password")), "alice")
				me, _, err := srv.Client(gitea.SetBasicAuth("alice", "alice-password")).GetMyUserInfo()
				is.NoErr(err)
				is.Equal(me.UserName, "alice")
			})
			t.Run("login name is case-insensitive", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("ALICE", "alice-password")), "alice")
			})
			t.Run("token as password", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", tok.Token)), "alice")
				// The user half is not what identifies the caller: the token is.
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("anyone", tok.Token)), "alice")
			})
			t.Run("token as username", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic(tok.Token, "")), "alice")
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic(tok.Token, "x-oauth-basic")), "alice")
			})
			t.Run("token as username with another password", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic(tok.Token, "something")),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
			t.Run("token as password keeps its scopes", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("PATCH", "/user/settings", map[string]any{"location": "x"},
					"Authorization", testserver.Basic("alice", tok.Token))
				is.Equal(r.Status, http.StatusForbidden)
				is.True(strings.HasPrefix(r.Message(), "token does not have at least one of required scope(s)"))
			})
			t.Run("wrong password", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "wrong-password")),
					http.StatusUnauthorized, authMsgBadCredentials)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "")),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
			t.Run("unknown user", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("nobody", "alice-password")),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
			t.Run("wrong credentials fail even on public routes", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/version", nil, "Authorization", testserver.Basic("alice", "wrong-password")),
					http.StatusUnauthorized, authMsgBadCredentials)
				is.Equal(srv.Do("GET", "/version", nil).Status, http.StatusOK)
			})
		})
	}
}

// authTOTPSecret enrols name in two-factor sign-in and returns the secret.
func authTOTPSecret(t *testing.T, srv *testserver.Server, name string) string {
	t.Helper()
	uri, err := srv.App.Users.EnableTOTP(context.Background(), name)
	if err != nil {
		t.Fatalf("enable totp: %v", err)
	}
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatalf("parse %q: %v", uri, err)
	}
	secret := u.Query().Get("secret")
	if u.Scheme != "otpauth" || secret == "" {
		t.Fatalf("no secret in %q", uri)
	}
	return secret
}

// authTOTPCode is the code of secret now.
func authTOTPCode(t *testing.T, secret string) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		t.Fatalf("generate code: %v", err)
	}
	return code
}

// authWrongTOTPCode is a six-digit code that is valid in none of the periods
// the server may accept around now.
func authWrongTOTPCode(t *testing.T, secret string) string {
	t.Helper()
	valid := map[string]bool{}
	now := time.Now()
	for d := -3; d <= 3; d++ {
		c, err := totp.GenerateCode(secret, now.Add(time.Duration(d)*30*time.Second))
		if err != nil {
			t.Fatalf("generate code: %v", err)
		}
		valid[c] = true
	}
	for n := 0; ; n++ {
		c := strconv.Itoa(100000 + n*7919%900000)
		if !valid[c] {
			return c
		}
	}
}

// TestAuthTOTP covers two-factor sign-in: Basic needs X-Service-OTP (or its
// X-Gitea-OTP twin), while tokens are unaffected.
func TestAuthTOTP(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	srv.CreateUser("alice", "alice-password")
	tok := authNewToken(t, srv, "alice", "alice-password", "read:user")
	secret := authTOTPSecret(t, srv, "alice")
	basic := testserver.Basic("alice", "alice-password")

	t.Run("basic without code", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", basic), http.StatusUnauthorized, authMsgOTPRequired)
	})
	t.Run("wrong code", func(t *testing.T) {
		is := is.New(t)
		wrong := authWrongTOTPCode(t, secret)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", basic, "X-Service-OTP", wrong),
			http.StatusUnauthorized, authMsgOTPInvalid)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", basic, "X-Gitea-OTP", wrong),
			http.StatusUnauthorized, authMsgOTPInvalid)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", basic, "X-Service-OTP", "abcdef"),
			http.StatusUnauthorized, authMsgOTPInvalid)
	})
	t.Run("right code, wrong password", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "wrong-password"),
			"X-Service-OTP", authTOTPCode(t, secret)), http.StatusUnauthorized, authMsgBadCredentials)
	})
	t.Run("right code in X-Service-OTP", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", basic, "X-Service-OTP", authTOTPCode(t, secret)), "alice")
	})
	t.Run("right code in X-Gitea-OTP", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", basic, "X-Gitea-OTP", authTOTPCode(t, secret)), "alice")
		// The SDK sends the Gitea header.
		me, _, err := srv.Client(gitea.SetBasicAuth("alice", "alice-password"), gitea.SetOTP(authTOTPCode(t, secret))).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "alice")
	})
	t.Run("token management with a code", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/users/alice/tokens", map[string]any{"name": "with-otp", "scopes": []string{"read:user"}},
			"Authorization", basic, "X-Service-OTP", authTOTPCode(t, secret))
		is.Equal(r.Status, http.StatusCreated)
		var created gitea.AccessToken
		r.Decode(t, &created)
		is.True(created.Token != "")
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+created.Token), "alice")

		authWantErr(is, srv.Do("POST", "/users/alice/tokens", map[string]any{"name": "without-otp", "scopes": []string{"read:user"}},
			"Authorization", basic), http.StatusUnauthorized, authMsgOTPRequired)
	})
	t.Run("tokens are unaffected", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token), "alice")
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "Bearer "+tok.Token), "alice")
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", tok.Token)), "alice")
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic(tok.Token, "x-oauth-basic")), "alice")
	})
	t.Run("after disabling", func(t *testing.T) {
		is := is.New(t)
		is.NoErr(srv.App.Users.DisableTOTP(context.Background(), "alice"))
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", basic), "alice")
	})
}

// TestAuthSudo covers acting as another user by the sudo query parameter and
// the Sudo header.
func TestAuthSudo(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	srv.CreateUser("alice", "alice-password")
	srv.CreateUser("bob", "bob-password")
	admin := testserver.Basic("admin", srv.AdminPassword)
	alice := testserver.Basic("alice", "alice-password")

	t.Run("admin by query", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user?sudo=alice", nil, "Authorization", admin), "alice")
	})
	t.Run("admin by header", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", admin, "Sudo", "alice"), "alice")
		me, _, err := srv.Client(gitea.SetBasicAuth("admin", srv.AdminPassword), gitea.SetSudo("bob")).GetMyUserInfo()
		is.NoErr(err)
		is.Equal(me.UserName, "bob")
	})
	t.Run("admin token", func(t *testing.T) {
		is := is.New(t)
		tok := authNewToken(t, srv, "admin", srv.AdminPassword, "all")
		authWantUser(t, is, srv.Do("GET", "/user?sudo=bob", nil, "Authorization", "token "+tok.Token), "bob")
	})
	t.Run("runs as the named user", func(t *testing.T) {
		is := is.New(t)
		// A write through sudo changes the named user, not the admin.
		r := srv.Do("PATCH", "/user/settings", map[string]any{"location": "Sudoland"}, "Authorization", admin, "Sudo", "alice")
		is.Equal(r.Status, http.StatusOK)
		var s gitea.UserSettings
		r.Decode(t, &s)
		is.Equal(s.Location, "Sudoland")
		u := authWantUser(t, is, srv.Do("GET", "/users/alice", nil, "Authorization", alice), "alice")
		is.Equal(u.Location, "Sudoland")
		a := authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", admin), "admin")
		is.Equal(a.Location, "")
		// The named user's own permissions apply: alice is no admin.
		r = srv.Do("GET", "/admin/users", nil, "Authorization", admin, "Sudo", "alice")
		authWantErr(is, r, http.StatusForbidden, "user should be the site admin")
	})
	t.Run("non-admin", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/user?sudo=bob", nil, "Authorization", alice), http.StatusForbidden, authMsgSudoNotAdmin)
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", alice, "Sudo", "bob"), http.StatusForbidden, authMsgSudoNotAdmin)
		tok := authNewToken(t, srv, "alice", "alice-password", "all")
		authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token, "Sudo", "admin"),
			http.StatusForbidden, authMsgSudoNotAdmin)
	})
	t.Run("unknown user", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/user?sudo=nobody", nil, "Authorization", admin)
		is.Equal(r.Status, http.StatusNotFound)
		r = srv.Do("GET", "/user", nil, "Authorization", admin, "Sudo", "nobody")
		is.Equal(r.Status, http.StatusNotFound)
	})
	t.Run("anonymous", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/user?sudo=alice", nil), http.StatusForbidden, authMsgSudoNotAdmin)
		authWantErr(is, srv.Do("GET", "/users/alice", nil, "Sudo", "alice"), http.StatusForbidden, authMsgSudoNotAdmin)
	})
	t.Run("empty sudo is ignored", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user?sudo=", nil, "Authorization", alice), "alice")
	})
}

// TestAuthQueryToken covers the deprecated token and access_token query
// parameters: a warning always, credentials only when the site accepts them.
func TestAuthQueryToken(t *testing.T) {
	t.Parallel()
	t.Run("ignored by default", func(t *testing.T) {
		srv := testserver.Start(t)
		srv.CreateUser("alice", "alice-password")
		tok := authNewToken(t, srv, "alice", "alice-password", "read:user")
		for _, param := range []string{"token", "access_token"} {
			t.Run(param, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/user?"+param+"="+tok.Token, nil)
				authWantErr(is, r, http.StatusUnauthorized, authMsgTokenRequired)
				is.True(r.Header.Get("X-Service-Warning") != "")

				// The request runs anonymous: a public route answers as to anyone.
				r = srv.Do("GET", "/users/alice?"+param+"="+tok.Token, nil)
				u := authWantUser(t, is, r, "alice")
				is.Equal(u.Email, "") // anonymous callers get no e-mail
				is.True(r.Header.Get("X-Service-Warning") != "")
			})
		}
		t.Run("no warning without", func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(r.Header.Get("X-Service-Warning"), "")
		})
	})
	t.Run("accepted when enabled", func(t *testing.T) {
		srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.AcceptQueryToken = true }))
		srv.CreateUser("alice", "alice-password")
		tok := authNewToken(t, srv, "alice", "alice-password", "read:user")
		for _, param := range []string{"token", "access_token"} {
			t.Run(param, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/user?"+param+"="+tok.Token, nil)
				authWantUser(t, is, r, "alice")
				is.True(r.Header.Get("X-Service-Warning") != "")
				// Scopes still apply.
				r = srv.Do("PATCH", "/user/settings?"+param+"="+tok.Token, map[string]any{"location": "x"})
				is.Equal(r.Status, http.StatusForbidden)
				// A wrong one fails like a wrong header token.
				authWantErr(is, srv.Do("GET", "/user?"+param+"="+strings.Repeat("f", 40), nil),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
		}
	})
}

// TestAuthAccountChecks covers the account-state checks of every signed-in
// request, for password and token callers.
func TestAuthAccountChecks(t *testing.T) {
	t.Parallel()
	yes, no := true, false

	type caller struct {
		name   string
		header func(tok string) string
	}
	callers := []caller{
		{"basic", func(string) string { return testserver.Basic("bob", "bob-password") }},
		{"token", authTokenHeader},
	}

	t.Run("default settings", func(t *testing.T) {
		srv := testserver.Start(t)
		srv.CreateUser("bob", "bob-password")
		tok := authNewToken(t, srv, "bob", "bob-password", "all")

		cases := []struct {
			name  string
			set   gitea.EditUserOption
			reset gitea.EditUserOption
			check func(is *is.I, r testserver.Response)
		}{
			{"prohibit login", gitea.EditUserOption{ProhibitLogin: &yes}, gitea.EditUserOption{ProhibitLogin: &no},
				func(is *is.I, r testserver.Response) { authWantErr(is, r, http.StatusForbidden, authMsgProhibited) }},
			{"inactive", gitea.EditUserOption{Active: &no}, gitea.EditUserOption{Active: &yes},
				func(is *is.I, r testserver.Response) { authWantErr(is, r, http.StatusForbidden, authMsgProhibited) }},
			{"must change password", gitea.EditUserOption{MustChangePassword: &yes}, gitea.EditUserOption{MustChangePassword: &no},
				func(is *is.I, r testserver.Response) {
					is.Helper()
					is.Equal(r.Status, http.StatusForbidden)
					is.True(strings.HasPrefix(r.Message(), "You must change your password")) // message
				}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				authEdit(t, srv, "bob", c.set)
				for _, cl := range callers {
					t.Run(cl.name, func(t *testing.T) {
						is := is.New(t)
						c.check(is, srv.Do("GET", "/user", nil, "Authorization", cl.header(tok.Token)))
						c.check(is, srv.Do("GET", "/users/admin", nil, "Authorization", cl.header(tok.Token)))
						c.check(is, srv.Do("GET", "/version", nil, "Authorization", cl.header(tok.Token)))
					})
				}
				t.Run("admin sees the state", func(t *testing.T) {
					is := is.New(t)
					authWantUser(t, is, srv.Do("GET", "/users/bob", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword)), "bob")
				})
				authEdit(t, srv, "bob", c.reset)
				t.Run("restored", func(t *testing.T) {
					is := is.New(t)
					for _, cl := range callers {
						authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", cl.header(tok.Token)), "bob")
					}
				})
			})
		}
		t.Run("sudo to a prohibited user", func(t *testing.T) {
			is := is.New(t)
			authEdit(t, srv, "bob", gitea.EditUserOption{ProhibitLogin: &yes})
			defer authEdit(t, srv, "bob", gitea.EditUserOption{ProhibitLogin: &no})
			authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword), "Sudo", "bob"),
				http.StatusForbidden, authMsgProhibited)
		})
		t.Run("wrong password of a prohibited user", func(t *testing.T) {
			is := is.New(t)
			authEdit(t, srv, "bob", gitea.EditUserOption{ProhibitLogin: &yes})
			defer authEdit(t, srv, "bob", gitea.EditUserOption{ProhibitLogin: &no})
			authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("bob", "wrong-password")),
				http.StatusUnauthorized, authMsgBadCredentials)
		})
	})

	t.Run("email confirmation required", func(t *testing.T) {
		srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.RequireEmailConfirmation = true }))
		srv.CreateUser("bob", "bob-password")
		tok := authNewToken(t, srv, "bob", "bob-password", "all")
		authEdit(t, srv, "bob", gitea.EditUserOption{Active: &no})
		for _, cl := range callers {
			t.Run(cl.name, func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", cl.header(tok.Token)),
					http.StatusForbidden, authMsgNotActivated)
			})
		}
		authEdit(t, srv, "bob", gitea.EditUserOption{Active: &yes, ProhibitLogin: &yes})
		t.Run("prohibited but active", func(t *testing.T) {
			is := is.New(t)
			authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+tok.Token),
				http.StatusForbidden, authMsgProhibited)
		})
	})
}

// TestAuthSignInRequired covers a site that requires sign-in for viewing.
func TestAuthSignInRequired(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.RequireSignInView = true }))
	srv.CreateUser("alice", "alice-password")
	tok := authNewToken(t, srv, "alice", "alice-password", "read:user")

	t.Run("anonymous", func(t *testing.T) {
		for _, path := range []string{"/users/alice", "/users/search?q=al", "/settings/api", "/settings/ui", "/users/nobody"} {
			t.Run(path, func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", path, nil), http.StatusForbidden, authMsgSignInRequired)
			})
		}
	})
	t.Run("version stays public", func(t *testing.T) {
		is := is.New(t)
		v, _, err := srv.Client().ServerVersion()
		is.NoErr(err)
		is.True(v != "")
	})
	t.Run("wrong credentials are 401", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/users/alice", nil, "Authorization", testserver.Basic("alice", "wrong-password")),
			http.StatusUnauthorized, authMsgBadCredentials)
	})
	t.Run("signed in", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/users/alice", nil, "Authorization", testserver.Basic("alice", "alice-password")), "alice")
		authWantUser(t, is, srv.Do("GET", "/users/admin", nil, "Authorization", "token "+tok.Token), "admin")
		r := srv.Do("GET", "/settings/api", nil, "Authorization", "token "+tok.Token)
		is.Equal(r.Status, http.StatusOK)
		var s gitea.GlobalAPISettings
		r.Decode(t, &s)
		is.True(s.MaxResponseItems > 0)
		found, _, err := srv.Client(gitea.SetToken(tok.Token)).SearchUsers(gitea.SearchUsersOption{KeyWord: "ali"})
		is.NoErr(err)
		is.Equal(len(found), 1)
		is.Equal(found[0].UserName, "alice")
	})
}

// TestAuthLastUsed checks that token use is recorded in memory and written
// back only by the batch flush, never on the request path.
func TestAuthLastUsed(t *testing.T) {
	t.Parallel()
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			srv := testserver.Start(t, b.opts...)
			srv.CreateUser("alice", "alice-password")
			used := authNewToken(t, srv, "alice", "alice-password", "read:user")
			idle := authNewToken(t, srv, "alice", "alice-password", "read:user")
			alice := srv.Client(gitea.SetBasicAuth("alice", "alice-password"))

			lastUsed := func() map[string]time.Time {
				list, _, err := alice.ListAccessTokens(gitea.ListAccessTokensOptions{})
				is.NoErr(err)
				out := map[string]time.Time{}
				for _, tk := range list {
					out[tk.Name] = tk.Updated
				}
				return out
			}
			rawHasField := func() bool {
				r := srv.Do("GET", "/users/alice/tokens", nil, "Authorization", testserver.Basic("alice", "alice-password"))
				is.Equal(r.Status, http.StatusOK)
				return strings.Contains(string(r.Body), `"last_used_at"`)
			}

			before := time.Now().Add(-time.Second)
			authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+used.Token), "alice")
			authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+used.Token), "alice")

			lu := lastUsed()
			is.True(lu[used.Name].IsZero()) // not written on the request path
			is.True(lu[idle.Name].IsZero())
			is.True(!rawHasField()) // absent from the JSON, not a zero time

			is.NoErr(srv.App.LastUsed.Flush(context.Background()))
			lu = lastUsed()
			is.True(!lu[used.Name].IsZero()) // written by the flush
			is.True(!lu[used.Name].Before(before))
			is.True(!lu[used.Name].After(time.Now().Add(time.Second)))
			is.True(lu[idle.Name].IsZero()) // an unused token stays unused
			is.True(rawHasField())

			// Nothing pending: a second flush writes nothing and changes nothing.
			is.NoErr(srv.App.LastUsed.Flush(context.Background()))
			is.Equal(lastUsed()[used.Name], lu[used.Name])
		})
	}
}

// TestAuthPasswordChange checks that a remembered password verification does
// not outlive a password change.
func TestAuthPasswordChange(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	srv.CreateUser("alice", "old-password")
	old := testserver.Basic("alice", "old-password")
	authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", old), "alice")
	authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", old), "alice") // now remembered

	authEdit(t, srv, "alice", gitea.EditUserOption{Password: "new-password"})

	authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", old), http.StatusUnauthorized, authMsgBadCredentials)
	authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "new-password")), "alice")
	authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", old), http.StatusUnauthorized, authMsgBadCredentials)

	// Setting the old password back makes it work again, and the interim one fail.
	authEdit(t, srv, "alice", gitea.EditUserOption{Password: "old-password"})
	authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", old), "alice")
	authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "new-password")),
		http.StatusUnauthorized, authMsgBadCredentials)
}

// TestAuthRenamedUser checks that the old name of a renamed user redirects.
func TestAuthRenamedUser(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	srv.CreateUser("alice", "alice-password")
	_, err := srv.AdminClient().AdminRenameUser("alice", gitea.RenameUserOption{NewUsername: "alicia"})
	is.NoErr(err)

	r := srv.Do("GET", "/users/alice", nil)
	is.True(r.Status >= 300 && r.Status < 400) // a redirect
	loc, err := url.Parse(r.Header.Get("Location"))
	is.NoErr(err)
	is.Equal(loc.Path, "/api/v1/users/alicia")

	r = srv.Do("GET", "/users/Alice?x=1", nil)
	is.True(r.Status >= 300 && r.Status < 400)
	is.True(strings.HasSuffix(r.Header.Get("Location"), "/api/v1/users/alicia?x=1"))

	// The SDK follows the redirect.
	u, _, err := srv.Client().GetUserInfo("alice")
	is.NoErr(err)
	is.Equal(u.UserName, "alicia")

	authWantUser(t, is, srv.Do("GET", "/users/alicia", nil), "alicia")
	// The password belongs to the account, not the name.
	authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alicia", "alice-password")), "alicia")
	authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", testserver.Basic("alice", "alice-password")),
		http.StatusUnauthorized, authMsgBadCredentials)

	// A name never used is absent.
	is.Equal(srv.Do("GET", "/users/nobody", nil).Status, http.StatusNotFound)
}
