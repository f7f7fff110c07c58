package user_test

import (
	"testing"

	"github.com/depothq/depot/domain/user"
	"github.com/matryer/is"
)

func TestCanSee(t *testing.T) {
	pub := &user.User{ID: 1, Visibility: user.VisibilityPublic}
	lim := &user.User{ID: 2, Visibility: user.VisibilityLimited}
	priv := &user.User{ID: 3, Visibility: user.VisibilityPrivate}
	anon := user.Viewer{}
	other := user.Viewer{ID: 9}
	admin := user.Viewer{ID: 8, IsAdmin: true}
	publicOnly := user.Viewer{ID: 9, PublicOnly: true}
	cases := []struct {
		name string
		v    user.Viewer
		u    *user.User
		want bool
	}{
		{"anon public", anon, pub, true},
		{"anon limited", anon, lim, false},
		{"anon private", anon, priv, false},
		{"user limited", other, lim, true},
		{"user private", other, priv, false},
		{"self private", user.Viewer{ID: 3}, priv, true},
		{"admin private", admin, priv, true},
		{"public-only token limited", publicOnly, lim, false},
		{"public-only token public", publicOnly, pub, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.CanSee(c.v, c.u), c.want)
		})
	}
}

func TestShownEmail(t *testing.T) {
	u := &user.User{ID: 1, LowerName: "ann", Email: "ann@example.com", HideEmail: true}
	cases := []struct {
		name string
		v    user.Viewer
		want string
	}{
		{"anonymous sees nothing", user.Viewer{}, ""},
		{"others see placeholder", user.Viewer{ID: 2}, "ann@noreply.example.org"},
		{"self sees address", user.Viewer{ID: 1}, "ann@example.com"},
		{"admin sees address", user.Viewer{ID: 5, IsAdmin: true}, "ann@example.com"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.ShownEmail(c.v, u, "noreply.example.org"), c.want)
		})
	}
}

func TestValidateName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"alice", true}, {"a.b-c_d", true}, {"A1", true},
		{"", false}, {"-a", false}, {"a-", false}, {"a..b", false}, {"a/b", false},
		{"../x", false}, {"api", false}, {"x.git", false}, {"ünï", false},
		{"abcdefghijabcdefghijabcdefghijabcdefghijk", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(user.ValidateName("Username", c.name) == nil, c.ok)
		})
	}
}
