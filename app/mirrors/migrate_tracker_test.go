package mirrors

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

func TestSourceRepo(t *testing.T) {
	for _, c := range []struct{ addr, base, owner, name string }{
		{"http://127.0.0.1:3000/alice/pub.git", "http://127.0.0.1:3000", "alice", "pub"},
		{"https://git.example.com/alice/pub", "https://git.example.com", "alice", "pub"},
		{"https://example.com/gitea/alice/pub.git/", "https://example.com/gitea", "alice", "pub"},
	} {
		t.Run(c.addr, func(t *testing.T) {
			is := is.New(t)
			r, err := sourceRepo(c.addr)
			is.NoErr(err)
			is.Equal(r.BaseURL, c.base)
			is.Equal(r.Owner, c.owner)
			is.Equal(r.Name, c.name)
		})
	}
	for _, addr := range []string{"https://example.com/pub.git", "https://example.com/", "https://example.com//pub"} {
		t.Run(addr, func(t *testing.T) {
			is := is.New(t)
			_, err := sourceRepo(addr)
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.HasPrefix(errs.Message(err), "CloneAddr: "))
		})
	}
}

func TestUnsupportedExtras(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      MigrateExtras
		mirror bool
		want   string
	}{
		{"nothing asked", MigrateExtras{Service: "git"}, false, ""},
		{"tracker from gitea", MigrateExtras{Service: "gitea", Labels: true, Milestones: true, Issues: true}, false, ""},
		{"tracker from forgejo, any case", MigrateExtras{Service: "Forgejo", Issues: true}, false, ""},
		{"tracker from gogs", MigrateExtras{Service: "gogs", Labels: true}, false, ""},
		{"tracker from plain git", MigrateExtras{Service: "git", Labels: true, Issues: true}, false, "Labels Issues"},
		{"tracker without a service", MigrateExtras{Milestones: true}, false, "Milestones"},
		{"tracker from github", MigrateExtras{Service: "github", Issues: true}, false, "Issues"},
		{"tracker into a mirror", MigrateExtras{Service: "gitea", Labels: true}, true, "Labels"},
		{"what Depot does not keep", MigrateExtras{Service: "gitea", Wiki: true, PullRequests: true, Releases: true, LFS: true}, false,
			"Wiki PullRequests Releases LFS"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(strings.Join(c.x.unsupported(c.mirror), " "), c.want)
		})
	}
}
