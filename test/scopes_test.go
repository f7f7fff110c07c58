package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

const (
	scopeMsgPrefix      = "token does not have at least one of required scope(s)"
	scopeMsgPublicUsers = "token scope is limited to public users"
)

// scopeWantDenied checks a 403 scope refusal naming the required scope.
func scopeWantDenied(is *is.I, r testserver.Response, required, held string) {
	is.Helper()
	is.Equal(r.Status, http.StatusForbidden) // status
	is.True(strings.HasPrefix(r.Message(), scopeMsgPrefix))
	is.Equal(r.Message(), scopeMsgPrefix+", required=["+required+"], token scope="+held)
}

// TestScopes covers the scope categories and levels of access tokens, on both backends.
func TestScopes(t *testing.T) {
	t.Parallel()
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			srv := testserver.Start(t, b.opts...)
			srv.CreateUser("alice", "alice-password")
			tok := func(name, password string, scopes ...string) string {
				t.Helper()
				return "token " + authNewToken(t, srv, name, password, scopes...).Token
			}
			readUser := tok("alice", "alice-password", "read:user")
			writeUser := tok("alice", "alice-password", "write:user")
			aliceAll := tok("alice", "alice-password", "all")
			adminReadUser := tok("admin", srv.AdminPassword, "read:user")
			adminReadAdmin := tok("admin", srv.AdminPassword, "read:admin")
			adminWriteAdmin := tok("admin", srv.AdminPassword, "write:admin")
			adminAll := tok("admin", srv.AdminPassword, "all")
			settings := map[string]any{"location": "Scopeville"}

			t.Run("read:user reads", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", readUser), "alice")
				authWantUser(t, is, srv.Do("GET", "/users/admin", nil, "Authorization", readUser), "admin")
				is.Equal(srv.Do("GET", "/user/settings", nil, "Authorization", readUser).Status, http.StatusOK)
			})
			t.Run("read:user cannot write", func(t *testing.T) {
				is := is.New(t)
				scopeWantDenied(is, srv.Do("PATCH", "/user/settings", settings, "Authorization", readUser), "write:user", "read:user")
				scopeWantDenied(is, srv.Do("POST", "/user/emails", map[string]any{"emails": []string{"a2@example.com"}},
					"Authorization", readUser), "write:user", "read:user")
			})
			t.Run("write:user writes", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("PATCH", "/user/settings", settings, "Authorization", writeUser)
				is.Equal(r.Status, http.StatusOK)
				var s gitea.UserSettings
				r.Decode(t, &s)
				is.Equal(s.Location, "Scopeville")
				// write implies read
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", writeUser), "alice")
				loc := "Elsewhere"
				got, _, err := srv.Client(gitea.SetToken(strings.TrimPrefix(writeUser, "token "))).
					UpdateUserSettings(gitea.UserSettingsOptions{Location: &loc})
				is.NoErr(err)
				is.Equal(got.Location, "Elsewhere")
			})
			t.Run("user scope does not reach admin routes", func(t *testing.T) {
				is := is.New(t)
				scopeWantDenied(is, srv.Do("GET", "/admin/users", nil, "Authorization", adminReadUser), "read:admin", "read:user")
				scopeWantDenied(is, srv.Do("GET", "/admin/emails", nil, "Authorization", adminReadUser), "read:admin", "read:user")
			})
			t.Run("admin scope does not reach user routes", func(t *testing.T) {
				is := is.New(t)
				scopeWantDenied(is, srv.Do("GET", "/user", nil, "Authorization", adminWriteAdmin), "read:user", "write:admin")
			})
			t.Run("read:admin reads but cannot write", func(t *testing.T) {
				is := is.New(t)
				is.Equal(srv.Do("GET", "/admin/users", nil, "Authorization", adminReadAdmin).Status, http.StatusOK)
				scopeWantDenied(is, srv.Do("PATCH", "/admin/users/alice", map[string]any{"location": "x"},
					"Authorization", adminReadAdmin), "write:admin", "read:admin")
			})
			t.Run("write:admin works", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/admin/users", nil, "Authorization", adminWriteAdmin)
				is.Equal(r.Status, http.StatusOK)
				var list []gitea.User
				r.Decode(t, &list)
				is.True(len(list) >= 2)
				r = srv.Do("POST", "/admin/users", map[string]any{"username": "carol", "email": "carol@example.com",
					"password": "carol-password", "must_change_password": false}, "Authorization", adminWriteAdmin)
				is.Equal(r.Status, http.StatusCreated)
				var carol gitea.User
				r.Decode(t, &carol)
				is.Equal(carol.UserName, "carol")
			})
			t.Run("scope does not make an admin", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/admin/users", nil, "Authorization", aliceAll),
					http.StatusForbidden, "user should be the site admin")
			})
			t.Run("all works everywhere", func(t *testing.T) {
				is := is.New(t)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", aliceAll), "alice")
				is.Equal(srv.Do("PATCH", "/user/settings", settings, "Authorization", aliceAll).Status, http.StatusOK)
				is.Equal(srv.Do("GET", "/admin/users", nil, "Authorization", adminAll).Status, http.StatusOK)
				is.Equal(srv.Do("PATCH", "/admin/users/carol", map[string]any{"location": "x"},
					"Authorization", adminAll).Status, http.StatusOK)
			})
			t.Run("scopes are shown normalised", func(t *testing.T) {
				is := is.New(t)
				created := authNewToken(t, srv, "alice", "alice-password", "read:user,write:user", "read:admin")
				got := make([]string, 0, len(created.Scopes))
				for _, s := range created.Scopes {
					got = append(got, string(s))
				}
				is.Equal(strings.Join(got, ","), "read:admin,write:user")
			})
			t.Run("invalid scopes", func(t *testing.T) {
				basic := testserver.Basic("alice", "alice-password")
				for _, c := range []struct {
					name   string
					scopes any
				}{
					{"none", []string{}},
					{"missing", nil},
					{"blank", []string{" ", ""}},
					{"unknown", []string{"read:user", "bogus"}},
					{"unknown category", []string{"write:everything"}},
					{"legacy", []string{"repo"}},
				} {
					t.Run(c.name, func(t *testing.T) {
						is := is.New(t)
						body := map[string]any{"name": "bad-" + strings.ReplaceAll(c.name, " ", "-")}
						if c.scopes != nil {
							body["scopes"] = c.scopes
						}
						r := srv.Do("POST", "/users/alice/tokens", body, "Authorization", basic)
						is.Equal(r.Status, http.StatusUnprocessableEntity)
						is.True(strings.HasPrefix(r.Message(), "Scopes: ")) // names the field
					})
				}
			})
		})
	}
}

// TestScopesTokenManagement checks that only Basic with a password manages
// tokens, and only for oneself unless a site admin.
func TestScopesTokenManagement(t *testing.T) {
	t.Parallel()
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			srv := testserver.Start(t, b.opts...)
			srv.CreateUser("alice", "alice-password")
			srv.CreateUser("bob", "bob-password")
			aliceTok := authNewToken(t, srv, "alice", "alice-password", "all")
			bobTok := authNewToken(t, srv, "bob", "bob-password", "read:user")
			adminTok := authNewToken(t, srv, "admin", srv.AdminPassword, "all")
			newToken := map[string]any{"name": "minted", "scopes": []string{"all"}}
			aliceTokPath := "/users/alice/tokens/" + strconv.FormatInt(aliceTok.ID, 10)

			t.Run("with a token", func(t *testing.T) {
				for _, c := range []struct{ name, header string }{
					{"header token", "token " + aliceTok.Token},
					{"bearer", "Bearer " + aliceTok.Token},
					{"basic token as password", testserver.Basic("alice", aliceTok.Token)},
					{"basic token as username", testserver.Basic(aliceTok.Token, "x-oauth-basic")},
				} {
					t.Run(c.name, func(t *testing.T) {
						is := is.New(t)
						authWantErr(is, srv.Do("GET", "/users/alice/tokens", nil, "Authorization", c.header),
							http.StatusUnauthorized, authMsgAuthRequired)
						authWantErr(is, srv.Do("POST", "/users/alice/tokens", newToken, "Authorization", c.header),
							http.StatusUnauthorized, authMsgAuthRequired)
						authWantErr(is, srv.Do("DELETE", aliceTokPath, nil, "Authorization", c.header),
							http.StatusUnauthorized, authMsgAuthRequired)
					})
				}
				t.Run("admin token", func(t *testing.T) {
					is := is.New(t)
					authWantErr(is, srv.Do("GET", "/users/bob/tokens", nil, "Authorization", "token "+adminTok.Token),
						http.StatusUnauthorized, authMsgAuthRequired)
				})
				t.Run("token still works", func(t *testing.T) {
					is := is.New(t)
					authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+aliceTok.Token), "alice")
				})
			})
			t.Run("anonymous", func(t *testing.T) {
				is := is.New(t)
				authWantErr(is, srv.Do("GET", "/users/alice/tokens", nil), http.StatusUnauthorized, authMsgAuthRequired)
				authWantErr(is, srv.Do("POST", "/users/alice/tokens", newToken), http.StatusUnauthorized, authMsgAuthRequired)
				authWantErr(is, srv.Do("DELETE", aliceTokPath, nil), http.StatusUnauthorized, authMsgAuthRequired)
			})
			t.Run("another user's tokens", func(t *testing.T) {
				is := is.New(t)
				bob := testserver.Basic("bob", "bob-password")
				authWantErr(is, srv.Do("GET", "/users/alice/tokens", nil, "Authorization", bob), http.StatusForbidden, authMsgSelfOrAdmin)
				authWantErr(is, srv.Do("POST", "/users/alice/tokens", newToken, "Authorization", bob), http.StatusForbidden, authMsgSelfOrAdmin)
				authWantErr(is, srv.Do("DELETE", aliceTokPath, nil, "Authorization", bob), http.StatusForbidden, authMsgSelfOrAdmin)
				// alice's token survived
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+aliceTok.Token), "alice")
			})
			t.Run("another user's token id under one's own name", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("DELETE", "/users/bob/tokens/"+strconv.FormatInt(aliceTok.ID, 10), nil,
					"Authorization", testserver.Basic("bob", "bob-password"))
				is.Equal(r.Status, http.StatusNotFound)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+aliceTok.Token), "alice")
			})
			t.Run("own tokens", func(t *testing.T) {
				is := is.New(t)
				list, _, err := srv.Client(gitea.SetBasicAuth("bob", "bob-password")).ListAccessTokens(gitea.ListAccessTokensOptions{})
				is.NoErr(err)
				is.Equal(len(list), 1)
				is.Equal(list[0].ID, bobTok.ID)
				is.Equal(list[0].Token, "") // the secret is shown once only
				is.Equal(list[0].TokenLastEight, bobTok.Token[len(bobTok.Token)-8:])
			})
			t.Run("admin lists another user's tokens", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/users/bob/tokens", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword))
				is.Equal(r.Status, http.StatusOK)
				var list []gitea.AccessToken
				r.Decode(t, &list)
				is.Equal(len(list), 1)
				is.Equal(list[0].ID, bobTok.ID)
				is.Equal(list[0].Name, bobTok.Name)
				is.Equal(list[0].Token, "")
			})
			t.Run("admin manages another user's tokens", func(t *testing.T) {
				is := is.New(t)
				admin := testserver.Basic("admin", srv.AdminPassword)
				r := srv.Do("POST", "/users/bob/tokens", map[string]any{"name": "by-admin", "scopes": []string{"read:user"}},
					"Authorization", admin)
				is.Equal(r.Status, http.StatusCreated)
				var created gitea.AccessToken
				r.Decode(t, &created)
				authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", "token "+created.Token), "bob")
				r = srv.Do("DELETE", "/users/bob/tokens/"+strconv.FormatInt(created.ID, 10), nil, "Authorization", admin)
				is.Equal(r.Status, http.StatusNoContent)
				authWantErr(is, srv.Do("GET", "/user", nil, "Authorization", "token "+created.Token),
					http.StatusUnauthorized, authMsgBadCredentials)
			})
			t.Run("sudo manages as the named user", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/users/bob/tokens", nil, "Authorization", testserver.Basic("admin", srv.AdminPassword), "Sudo", "alice")
				authWantErr(is, r, http.StatusForbidden, authMsgSelfOrAdmin)
			})
			t.Run("duplicate name", func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("POST", "/users/bob/tokens", map[string]any{"name": bobTok.Name, "scopes": []string{"read:user"}},
					"Authorization", testserver.Basic("bob", "bob-password"))
				is.Equal(r.Status, http.StatusUnprocessableEntity)
				is.True(strings.HasPrefix(r.Message(), "Name"))
			})
		})
	}
}

// TestScopesPublicOnly covers tokens limited to public resources (spec
// section 5 rule 5): non-public individual users answer 403 and searches
// list public users only.
func TestScopesPublicOnly(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	srv.CreateUser("alice", "alice-password")
	for name, vis := range map[string]gitea.VisibleType{
		"pubuser": gitea.VisibleTypePublic, "limuser": gitea.VisibleTypeLimited, "privuser": gitea.VisibleTypePrivate,
	} {
		no := false
		_, _, err := srv.AdminClient().AdminCreateUser(gitea.CreateUserOption{Username: name, Email: name + "@example.com",
			Password: name + "-password", MustChangePassword: &no, Visibility: &vis})
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
	}
	publicOnly := "token " + authNewToken(t, srv, "alice", "alice-password", "public-only", "read:user").Token
	full := "token " + authNewToken(t, srv, "alice", "alice-password", "read:user").Token
	adminPublicOnly := "token " + authNewToken(t, srv, "admin", srv.AdminPassword, "public-only", "all").Token

	t.Run("public user", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/users/pubuser", nil, "Authorization", publicOnly), "pubuser")
	})
	t.Run("limited user", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/users/limuser", nil, "Authorization", publicOnly), http.StatusForbidden, scopeMsgPublicUsers)
		authWantErr(is, srv.Do("GET", "/users/limuser", nil, "Authorization", adminPublicOnly), http.StatusForbidden, scopeMsgPublicUsers)
		authWantUser(t, is, srv.Do("GET", "/users/limuser", nil, "Authorization", full), "limuser")
		is.Equal(srv.Do("GET", "/users/limuser", nil).Status, http.StatusNotFound)
	})
	t.Run("private user", func(t *testing.T) {
		is := is.New(t)
		authWantErr(is, srv.Do("GET", "/users/privuser", nil, "Authorization", publicOnly), http.StatusForbidden, scopeMsgPublicUsers)
		authWantErr(is, srv.Do("GET", "/users/privuser", nil, "Authorization", adminPublicOnly), http.StatusForbidden, scopeMsgPublicUsers)
		is.Equal(srv.Do("GET", "/users/privuser", nil, "Authorization", full).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/users/privuser", nil).Status, http.StatusNotFound)
	})
	t.Run("unknown user", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("GET", "/users/nobody", nil, "Authorization", publicOnly).Status, http.StatusNotFound)
	})
	t.Run("search lists public users only", func(t *testing.T) {
		is := is.New(t)
		search := func(header string) []string {
			r := srv.Do("GET", "/users/search?q=user", nil, "Authorization", header)
			is.Equal(r.Status, http.StatusOK)
			var res struct {
				OK   bool          `json:"ok"`
				Data []*gitea.User `json:"data"`
			}
			r.Decode(t, &res)
			is.True(res.OK)
			var names []string
			for _, u := range res.Data {
				names = append(names, u.UserName)
			}
			return names
		}
		is.Equal(strings.Join(search(publicOnly), ","), "pubuser")
		is.Equal(strings.Join(search(adminPublicOnly), ","), "pubuser")
		got := search(full)
		is.Equal(len(got), 2) // pubuser and limuser
		is.True(!strings.Contains(strings.Join(got, ","), "privuser"))
	})
	t.Run("own account", func(t *testing.T) {
		is := is.New(t)
		authWantUser(t, is, srv.Do("GET", "/user", nil, "Authorization", publicOnly), "alice")
	})
	t.Run("public-only alone grants nothing", func(t *testing.T) {
		is := is.New(t)
		only := "token " + authNewToken(t, srv, "alice", "alice-password", "public-only").Token
		scopeWantDenied(is, srv.Do("GET", "/users/pubuser", nil, "Authorization", only), "read:user", "public-only")
	})
}
