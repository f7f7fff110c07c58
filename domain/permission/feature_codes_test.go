package permission_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// TestFeatureCodes checks the codes of the catalogue's prose rules: a
// switched-off feature is 404 (or 403 for Git hooks) for everyone the rule
// names, site admins included, and passes otherwise.
func TestFeatureCodes(t *testing.T) {
	code, issues, pulls := permission.UnitCode, permission.UnitIssues, permission.UnitPulls
	mirror := func(r *permission.Repo) { r.IsMirror = true }
	attachOn := func(f *permission.Facts) { f.AttachmentsEnabled = true }
	hooksOn := func(f *permission.Facts) { f.GitHooksEnabled = true }
	hooksAllowed := func(f *permission.Facts) { f.GitHooksEnabled, f.AllowGitHook = true, true }
	hooksOffAllowed := func(f *permission.Facts) { f.AllowGitHook = true }
	issuesOff := outcome{errs.ErrNotFound, "issues are disabled or not readable"}
	trackerOff := outcome{errs.ErrNotFound, "issues and pull requests are disabled or not readable"}
	attachOff := outcome{errs.ErrNotFound, "attachments are disabled"}
	hooksDenied := forbidden("must be allowed to edit Git hooks")
	blockedByOwner := func(f *permission.Facts) { f.BlockedByOwner = true }
	blocked := forbidden("user is blocked")
	wiki := permission.UnitWiki
	wikiOff := outcome{errs.ErrNotFound, "wiki is disabled or not readable"}
	cases := []struct {
		name, code string
		facts      permission.Facts
		want       outcome
	}{
		{"IssuesOrPulls, both on, anonymous", "IssuesOrPulls", onRepo(anonymous(), repo(), permission.Relations{}), pass},
		{"IssuesOrPulls, pulls only, reader", "IssuesOrPulls", onRepo(plainUser(), repo(units(code, pulls)), permission.Relations{}), pass},
		{"IssuesOrPulls, pulls only on a mirror, owner", "IssuesOrPulls", onRepo(repoOwner(), repo(units(code, pulls), mirror), permission.Relations{}), trackerOff},
		{"IssuesOrPulls, both off, site admin", "IssuesOrPulls", onRepo(siteAdmin(), repo(units(code)), permission.Relations{}), trackerOff},
		{"IssuesOrPulls, private, stranger", "IssuesOrPulls", onRepo(plainUser(), repo(private), permission.Relations{}), trackerOff},

		{"IssuesEnabled, on, anonymous", "IssuesEnabled", onRepo(anonymous(), repo(), permission.Relations{}), pass},
		{"IssuesEnabled, on, private, site admin", "IssuesEnabled", onRepo(siteAdmin(), repo(private), permission.Relations{}), pass},
		{"IssuesEnabled, off, pulls on, owner", "IssuesEnabled", onRepo(repoOwner(), repo(units(code, pulls)), permission.Relations{}), issuesOff},
		{"IssuesEnabled, off, site admin", "IssuesEnabled", onRepo(siteAdmin(), repo(units(code, pulls)), permission.Relations{}), issuesOff},
		{"IssuesEnabled, private, stranger", "IssuesEnabled", onRepo(plainUser(), repo(private, units(code, issues)), permission.Relations{}), issuesOff},

		{"Wiki, on, anonymous", "Wiki", onRepo(anonymous(), repo(), permission.Relations{}), pass},
		{"Wiki, on, private, site admin", "Wiki", onRepo(siteAdmin(), repo(private), permission.Relations{}), pass},
		{"Wiki, on, private, stranger", "Wiki", onRepo(plainUser(), repo(private), permission.Relations{}), wikiOff},
		{"Wiki, off, owner", "Wiki", onRepo(repoOwner(), repo(units(code, issues)), permission.Relations{}), wikiOff},
		{"Wiki, off, site admin", "Wiki", onRepo(siteAdmin(), repo(units(code)), permission.Relations{}), wikiOff},
		{"Wiki, on, private, collaborator", "Wiki", onRepo(plainUser(), repo(private, units(code, wiki)), permission.Relations{CollaboratorMode: permission.ModeRead}), pass},

		{"Attachments, on, anonymous", "Attachments", with(off(anonymous()), attachOn), pass},
		{"Attachments, off, anonymous", "Attachments", off(anonymous()), attachOff},
		{"Attachments, off, site admin", "Attachments", onRepo(siteAdmin(), repo(), permission.Relations{}), attachOff},

		{"GitHooks, on, site admin", "GitHooks", with(off(siteAdmin()), hooksOn), pass},
		{"GitHooks, on, allowed user", "GitHooks", with(off(repoOwner()), hooksAllowed), pass},
		{"GitHooks, on, user not allowed", "GitHooks", with(off(repoOwner()), hooksOn), hooksDenied},
		{"GitHooks, off, site admin", "GitHooks", off(siteAdmin()), hooksDenied},
		{"GitHooks, off, allowed user", "GitHooks", with(off(repoOwner()), hooksOffAllowed), hooksDenied},

		{"NotBlocked, not blocked", "NotBlocked", onRepo(plainUser(), repo(), permission.Relations{}), pass},
		{"NotBlocked, blocked by the owner", "NotBlocked", with(onRepo(plainUser(), repo(), permission.Relations{}), blockedByOwner), blocked},
		{"NotBlocked, blocked site admin", "NotBlocked", with(onRepo(siteAdmin(), repo(), permission.Relations{}), blockedByOwner), pass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			checkOutcome(is, mustCode(t, c.code).Check(c.facts), c.want)
		})
	}
	t.Run("repository codes need a repository", func(t *testing.T) {
		is := is.New(t)
		for _, s := range []string{"IssuesOrPulls", "IssuesEnabled"} {
			err := mustCode(t, s).Check(off(siteAdmin()))
			var cat *errs.Error
			is.True(err != nil)
			is.True(!errors.As(err, &cat)) // a route-table mistake, not a refusal
		}
	})
	t.Run("parsed and written back", func(t *testing.T) {
		is := is.New(t)
		codes, err := permission.ParseCodes("IssuesOrPulls, Attachments, T, NA")
		is.NoErr(err)
		is.Equal(len(codes), 4)
		is.Equal(codes[0].String(), "IssuesOrPulls")
		is.Equal(codes[1].String(), "Attachments")
		_, err = permission.ParseCode("IssuesOrPulls(issues)")
		is.True(err != nil)
	})
}
