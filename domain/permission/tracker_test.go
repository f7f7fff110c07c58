package permission_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// TestIssueTrackerReadable follows Gitea's mustEnableIssuesOrPulls: the
// issues unit readable, or the pulls unit readable on a repository that can
// take pull requests (CanEnablePulls: neither a mirror nor empty). A
// disabled unit is None for everyone, so the owner and a site admin get no
// exception.
func TestIssueTrackerReadable(t *testing.T) {
	mirror := func(r *permission.Repo) { r.IsMirror = true }
	empty := func(r *permission.Repo) { r.Empty = true }
	code, issues, pulls := permission.UnitCode, permission.UnitIssues, permission.UnitPulls
	cases := []struct {
		name  string
		actor permission.Actor
		repo  permission.Repo
		want  bool
	}{
		{"both on, anonymous", anonymous(), repo(), true},
		{"both on, owner", repoOwner(), repo(), true},
		{"issues off, pulls on, owner", repoOwner(), repo(units(code, pulls)), true},
		{"issues off, pulls on, anonymous", anonymous(), repo(units(code, pulls)), true},
		{"pulls off, issues on, owner", repoOwner(), repo(units(code, issues)), true},
		{"both off, owner", repoOwner(), repo(units(code)), false},
		{"both off, site admin", siteAdmin(), repo(units(code)), false},
		{"both off, anonymous", anonymous(), repo(units(code)), false},
		{"issues off, pulls on, mirror, owner", repoOwner(), repo(units(code, pulls), mirror), false},
		{"issues off, pulls on, empty, site admin", siteAdmin(), repo(units(code, pulls), empty), false},
		{"issues on, mirror, anonymous", anonymous(), repo(mirror), true},
		{"private, stranger", plainUser(), repo(private), false},
		{"private, site admin", siteAdmin(), repo(private), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			f := onRepo(c.actor, c.repo, permission.Relations{})
			is.Equal(permission.IssueTrackerReadable(f), c.want)
			err := permission.CheckIssueTracker(f)
			if c.want {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrNotFound))
		})
	}
	t.Run("no repository", func(t *testing.T) {
		is.New(t).True(!permission.IssueTrackerReadable(off(siteAdmin())))
	})
}
