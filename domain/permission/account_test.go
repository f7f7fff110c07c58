package permission_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
)

func TestCheckAccount(t *testing.T) {
	const (
		notActivated = "This account is not activated."
		prohibited   = "This account is prohibited from signing in, please contact your site administrator."
		mustChange   = "You must change your password. Change it at: http://h:3000/user/change_password"
	)
	adjust := func(change func(*permission.Actor)) permission.Actor {
		a := plainUser()
		change(&a)
		return a
	}
	cases := []struct {
		name    string
		actor   permission.Actor
		confirm bool
		want    outcome
	}{
		{"anonymous", anonymous(), true, pass},
		{"workflow run", workflowRun(repoID, false), true, pass},
		{"healthy user", plainUser(), true, pass},
		{"site admin", siteAdmin(), true, pass},
		{"unconfirmed, confirmation required", adjust(func(a *permission.Actor) { a.IsActivated = false }), true, forbidden(notActivated)},
		{"unconfirmed, confirmation not required", adjust(func(a *permission.Actor) { a.IsActivated = false }), false, pass},
		{"unconfirmed and inactive, required", adjust(func(a *permission.Actor) { a.IsActivated, a.IsActive = false, false }), true, forbidden(notActivated)},
		{"unconfirmed and inactive, not required", adjust(func(a *permission.Actor) { a.IsActivated, a.IsActive = false, false }), false, forbidden(prohibited)},
		{"inactive", adjust(func(a *permission.Actor) { a.IsActive = false }), true, forbidden(prohibited)},
		{"prohibit login", adjust(func(a *permission.Actor) { a.ProhibitLogin = true }), false, forbidden(prohibited)},
		{"prohibited admin", func() permission.Actor { a := siteAdmin(); a.ProhibitLogin = true; return a }(), false, forbidden(prohibited)},
		{"must change password", adjust(func(a *permission.Actor) { a.MustChangePassword = true }), false, forbidden(mustChange)},
		{"prohibited beats must change", adjust(func(a *permission.Actor) { a.MustChangePassword, a.ProhibitLogin = true, true }), false, forbidden(prohibited)},
		{"unconfirmed beats must change", adjust(func(a *permission.Actor) { a.MustChangePassword, a.IsActivated = true, false }), true, forbidden(notActivated)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := permission.CheckAccount(tc.actor, tc.confirm, "http://h:3000/user/change_password")
			checkOutcome(is, err, tc.want)
		})
	}
}

func TestCheckSignInRequired(t *testing.T) {
	refused := forbidden("Only signed in user is allowed to call APIs.")
	cases := []struct {
		name     string
		actor    permission.Actor
		required bool
		want     outcome
	}{
		{"anonymous, required", anonymous(), true, refused},
		{"anonymous, not required", anonymous(), false, pass},
		{"user, required", plainUser(), true, pass},
		{"restricted, required", restrictedUser(), true, pass},
		{"workflow run, required", workflowRun(repoID, true), true, pass},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			checkOutcome(is, permission.CheckSignInRequired(tc.actor, tc.required), tc.want)
		})
	}
}

func TestCheckRepoVisible(t *testing.T) {
	cases := []struct {
		name  string
		actor permission.Actor
		repo  permission.Repo
		rel   permission.Relations
		want  outcome
	}{
		{"anonymous, public", anonymous(), repo(), permission.Relations{}, pass},
		{"anonymous, private", anonymous(), repo(private), permission.Relations{}, notFound},
		{"anonymous, public repo of limited org", anonymous(), repo(orgOwned, ownerVis("limited")), permission.Relations{}, notFound},
		{"user, private", plainUser(), repo(private), permission.Relations{}, notFound},
		{"user, public repo of private org", plainUser(), repo(orgOwned, ownerVis("private")), permission.Relations{}, notFound},
		{"restricted, public", restrictedUser(), repo(), permission.Relations{}, notFound},
		{"restricted collaborator", restrictedUser(), repo(), permission.Relations{CollaboratorMode: read}, pass},
		{"collaborator, private", plainUser(), repo(private), permission.Relations{CollaboratorMode: read}, pass},
		{"team member with one unit", orgUser(), repo(orgOwned, private), permission.Relations{IsOrgMember: true, TeamUnits: map[permission.Unit]permission.AccessMode{wiki: read}}, pass},
		{"org member without teams, private", orgUser(), repo(orgOwned, private), permission.Relations{IsOrgMember: true}, notFound},
		{"owner of a repo without units", repoOwner(), repo(private, units()), permission.Relations{}, pass},
		{"site admin, private", siteAdmin(), repo(private, ownerVis("private")), permission.Relations{}, pass},
		{"workflow run, own repo", workflowRun(repoID, false), repo(private), permission.Relations{}, pass},
		{"workflow run from fork, own repo", workflowRun(repoID, true), repo(private), permission.Relations{}, pass},
		{"workflow run, other public repo", workflowRun(otherRepoID, false), repo(), permission.Relations{}, notFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			p := permission.Compute(tc.actor, tc.repo, tc.rel)
			checkOutcome(is, permission.CheckRepoVisible(tc.actor, tc.repo, p), tc.want)
		})
	}
}

func TestCheckRepoVisibleIgnoresPermissionForForeignRun(t *testing.T) {
	is := is.New(t)
	// Even a permission built elsewhere cannot let a run into another repository.
	p := permission.Permission{Mode: permission.ModeWrite}
	err := permission.CheckRepoVisible(workflowRun(otherRepoID, false), repo(), p)
	checkOutcome(is, err, notFound)
}

func TestCheckScope(t *testing.T) {
	basic := plainUser() // signed in with a password: scopes do not apply
	cases := []struct {
		name  string
		actor permission.Actor
		write bool
		cats  []token.Category
		want  outcome
	}{
		{"anonymous", anonymous(), true, []token.Category{token.CategoryRepository}, pass},
		{"password sign-in", basic, true, []token.Category{token.CategoryAdmin}, pass},
		{"workflow run", workflowRun(repoID, false), true, []token.Category{token.CategoryRepository}, pass},
		{"token read ok", tokenUser("read:repository"), false, []token.Category{token.CategoryRepository}, pass},
		{"token write refused", tokenUser("read:repository"), true, []token.Category{token.CategoryRepository},
			forbidden("token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository")},
		{"token without category", tokenUser("write:issue"), false, []token.Category{token.CategoryNotification},
			forbidden("token does not have at least one of required scope(s), required=[read:notification], token scope=write:issue")},
		{"token all", tokenUser("all"), true, []token.Category{token.CategoryAdmin}, pass},
		{"no category needed", tokenUser("read:user"), true, nil, pass},
		{"public-only all passes the scope check", tokenUser("public-only", "all"), true, []token.Category{token.CategoryOrganization}, pass},
		{"two categories, one held", tokenUser("read:user"), false, []token.Category{token.CategoryUser, token.CategoryOrganization},
			forbidden("token does not have at least one of required scope(s), required=[read:user read:organization], token scope=read:user")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			checkOutcome(is, permission.CheckScope(tc.actor, tc.write, tc.cats...), tc.want)
		})
	}
}

func TestCheckPublicOnly(t *testing.T) {
	po := tokenUser("public-only", "all")
	full := tokenUser("all")
	privateRepo := permission.PublicTarget{RepoPrivate: true}
	cats := func(cs ...token.Category) []token.Category { return cs }
	cases := []struct {
		name   string
		actor  permission.Actor
		cats   []token.Category
		target permission.PublicTarget
		want   outcome
	}{
		{"private repo", po, cats(token.CategoryRepository), privateRepo, forbidden("token scope is limited to public repos")},
		{"private repo, issue route", po, cats(token.CategoryIssue), privateRepo, forbidden("token scope is limited to public issues")},
		{"private repo, notification route", po, cats(token.CategoryNotification), privateRepo, forbidden("token scope is limited to public notifications")},
		{"non-public org", po, cats(token.CategoryOrganization), permission.PublicTarget{OrgNotPublic: true}, forbidden("token scope is limited to public orgs")},
		{"non-public user", po, cats(token.CategoryUser), permission.PublicTarget{UserNotPublic: true}, forbidden("token scope is limited to public users")},
		{"non-public user, activitypub", po, cats(token.CategoryActivityPub), permission.PublicTarget{UserNotPublic: true}, forbidden("token scope is limited to public activitypub")},
		{"private package", po, cats(token.CategoryPackage), permission.PublicTarget{PackageOwnerNotPublic: true}, forbidden("token scope is limited to public packages")},
		{"user and org route, org private", po, cats(token.CategoryUser, token.CategoryOrganization), permission.PublicTarget{OrgNotPublic: true}, forbidden("token scope is limited to public orgs")},
		{"public repo", po, cats(token.CategoryRepository), permission.PublicTarget{}, pass},
		{"private repo on an org route", po, cats(token.CategoryOrganization), privateRepo, pass},
		{"admin route", po, cats(token.CategoryAdmin), privateRepo, pass},
		{"no category", po, nil, privateRepo, pass},
		{"full token", full, cats(token.CategoryRepository), privateRepo, pass},
		{"password sign-in", plainUser(), cats(token.CategoryRepository), privateRepo, pass},
		{"anonymous", anonymous(), cats(token.CategoryRepository), privateRepo, pass},
		{"workflow run", workflowRun(repoID, false), cats(token.CategoryRepository), privateRepo, pass},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			checkOutcome(is, permission.CheckPublicOnly(tc.actor, tc.cats, tc.target), tc.want)
		})
	}
}

func TestAdminOnlyError(t *testing.T) {
	is := is.New(t)
	checkOutcome(is, permission.AdminOnlyError(), outcome{errs.ErrForbidden, "You have no permission to request for this."})
}
