package mirrors

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

func TestMirrorRemoteSplit(t *testing.T) {
	for _, c := range []struct {
		name      string
		in        remoteAddress
		clean     string
		user, pwd string
	}{
		{"plain", remoteAddress{Raw: "https://example.com/a/b.git"}, "https://example.com/a/b.git", "", ""},
		{"userinfo", remoteAddress{Raw: "https://u:p%40ss@example.com/a.git"}, "https://example.com/a.git", "u", "p@ss"},
		{"apart wins", remoteAddress{Raw: "https://u:p@example.com/a.git", Username: "v", Password: "q"},
			"https://example.com/a.git", "v", "q"},
		{"token alone", remoteAddress{Raw: " http://example.com:3000/a.git ", Password: "tok"},
			"http://example.com:3000/a.git", "", "tok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			clean, r, err := c.in.split("CloneAddr")
			is.NoErr(err)
			is.Equal(clean, c.clean)
			is.Equal(r, ports.Remote{URL: c.clean, Username: c.user, Password: c.pwd})
		})
	}
	for _, raw := range []string{"", "   ", "not a url", "/srv/git/a.git", "file:///etc", "https://", "://x", "git@example.com:a/b.git"} {
		_, _, err := remoteAddress{Raw: raw}.split("CloneAddr")
		var e *errs.Error
		if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || e.Fields[0] != "CloneAddr" {
			t.Errorf("split(%q) = %v, want a 422 naming CloneAddr", raw, err)
		}
	}
}

func TestMirrorScrub(t *testing.T) {
	is := is.New(t)
	r := ports.Remote{URL: "https://example.com/alice/a.git", Username: "alice", Password: "s3cr et/+"}
	msg := scrub("fatal: https://alice:s3cr%20et%2F+@example.com/alice/a.git: bad password s3cr et/+ (s3cr+et%2F%2B)", r)
	is.Equal(msg, "fatal: https://example.com/alice/a.git: bad password <credentials> (<credentials>)")
	// A user name alone is the secret (a token given as the user name).
	is.Equal(scrub("token 0123abcd refused", ports.Remote{Username: "0123abcd"}), "token <credentials> refused")
	is.Equal(syncMessage(nil, r), "")
	is.Equal(syncMessage(errs.Invalid("refused", "url"), r), "url: refused")
}
