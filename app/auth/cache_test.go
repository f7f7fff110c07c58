package auth_test

import (
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/matryer/is"
)

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func TestTokenCache(t *testing.T) {
	secret := "0123456789abcdef0123456789abcdef01234567"
	tok := &token.AccessToken{ID: 7, UserID: 3}
	u := &user.User{ID: 3, Name: "ann"}
	cases := []struct {
		name  string
		after func(c *auth.TokenCache, clk *fakeClock)
		hit   bool
	}{
		{"fresh entry hits", func(*auth.TokenCache, *fakeClock) {}, true},
		{"expired entry misses", func(_ *auth.TokenCache, clk *fakeClock) { clk.now = clk.now.Add(11 * time.Second) }, false},
		{"forgotten token misses", func(c *auth.TokenCache, _ *fakeClock) { c.Forget(7) }, false},
		{"forgotten user misses", func(c *auth.TokenCache, _ *fakeClock) { c.ForgetUser(3) }, false},
		{"another user forgotten still hits", func(c *auth.TokenCache, _ *fakeClock) { c.ForgetUser(4) }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			clk := &fakeClock{now: time.Unix(1000, 0)}
			c := auth.NewTokenCache(clk, 10*time.Second)
			c.Put(secret, tok, u)
			tc.after(c, clk)
			gotTok, gotUser, ok := c.Get(secret)
			is.Equal(ok, tc.hit)
			if ok {
				is.Equal(gotTok.ID, int64(7))
				is.Equal(gotUser.Name, "ann")
				gotUser.Name = "changed" // the copy is the caller's own
				_, again, _ := c.Get(secret)
				is.Equal(again.Name, "ann")
			}
		})
	}
}

func TestVerifierCache(t *testing.T) {
	base := user.User{ID: 1, PasswordHash: "h1", PasswordVersion: 1}
	cases := []struct {
		name   string
		change func(u *user.User, clk *fakeClock)
		pw     string
		hit    bool
	}{
		{"same credentials hit", func(*user.User, *fakeClock) {}, "secret", true},
		{"other password misses", func(*user.User, *fakeClock) {}, "Secret", false},
		{"password version bump misses", func(u *user.User, _ *fakeClock) { u.PasswordVersion++ }, "secret", false},
		{"new hash misses", func(u *user.User, _ *fakeClock) { u.PasswordHash = "h2" }, "secret", false},
		{"expired misses", func(_ *user.User, clk *fakeClock) { clk.now = clk.now.Add(6 * time.Minute) }, "secret", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			clk := &fakeClock{now: time.Unix(1000, 0)}
			c := auth.NewVerifierCache(clk, 5*time.Minute)
			u := base
			c.Remember(&u, "secret")
			tc.change(&u, clk)
			is.Equal(c.Check(&u, tc.pw), tc.hit)
		})
	}
}
