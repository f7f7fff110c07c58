package site

import (
	"testing"

	"github.com/matryer/is"
)

func TestCloneURLs(t *testing.T) {
	for _, c := range []struct{ base, listen, https, ssh string }{
		{"http://example.test:3000/", "0.0.0.0:2222", "http://example.test:3000/o/r.git", "ssh://git@example.test:2222/o/r.git"},
		{"https://example.test", ":22", "https://example.test/o/r.git", "git@example.test:o/r.git"},
		{"https://example.test", "", "https://example.test/o/r.git", "git@example.test:o/r.git"},
		{"http://[::1]:3000", "[::1]:2022", "http://[::1]:3000/o/r.git", "ssh://git@[::1]:2022/o/r.git"},
		{"http://[::1]:3000", "[::]:22", "http://[::1]:3000/o/r.git", "git@[::1]:o/r.git"},
		{"", "127.0.0.1:2022", "/o/r.git", "ssh://git@localhost:2022/o/r.git"},
	} {
		is := is.New(t)
		s := Settings{BaseURL: c.base, SSHListen: c.listen}
		is.Equal(s.HTTPSCloneURL("o", "r"), c.https)
		is.Equal(s.SSHCloneURL("o", "r"), c.ssh)
	}
}
