package permission_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// onRepo builds the facts of a repository route, computing the permission.
func onRepo(a permission.Actor, r permission.Repo, rel permission.Relations) permission.Facts {
	return permission.Facts{Actor: a, Perm: permission.Compute(a, r, rel), Repo: &r}
}

// off builds the facts of a route without a repository.
func off(a permission.Actor) permission.Facts { return permission.Facts{Actor: a} }

// with adjusts facts.
func with(f permission.Facts, adjust func(*permission.Facts)) permission.Facts {
	adjust(&f)
	return f
}

func mustCode(t *testing.T, s string) permission.Code {
	t.Helper()
	c, err := permission.ParseCode(s)
	if err != nil {
		t.Fatalf("ParseCode(%q): %v", s, err)
	}
	return c
}

// outcome is what a check should give: nil, or a category and message.
type outcome struct {
	kind error
	msg  string
}

var pass = outcome{}

func forbidden(msg string) outcome { return outcome{errs.ErrForbidden, msg} }

const notFoundMsg = "The target couldn't be found."

var (
	unauthenticated = outcome{errs.ErrUnauthenticated, "token is required"}
	notFound        = outcome{errs.ErrNotFound, notFoundMsg}
)

func checkOutcome(is *is.I, err error, want outcome) {
	if want.kind == nil {
		is.NoErr(err)
		return
	}
	is.True(err != nil)
	is.True(errors.Is(err, want.kind))
	is.Equal(err.Error(), want.msg)
}

func TestCodeCheck(t *testing.T) {
	const (
		msgRR = "user should have specific read permission or be a repo admin or a site admin"
		msgAR = "user should have any permission to read repository or permissions of site admin"
		msgRW = "user should have a permission to write to a repo"
		msgBW = "user should have a permission to write to this branch"
		msgRA = "user should be an owner or a collaborator with admin write of a repository"
		msgRO = "user should be the owner of the repo"
		msgSA = "user should be the site admin"
		msgSO = "doer should be the site admin or be same as the contextUser"
		msgOO = "Must be an organization owner"
		msgOM = "Must be an organization member"
		msgTM = "Must be a team member"
		msgWH = "webhooks disabled by administrator"
		msgST = "stars disabled by administrator"
	)
	collab := func(m permission.AccessMode) permission.Relations {
		return permission.Relations{CollaboratorMode: m}
	}
	team := func(m map[permission.Unit]permission.AccessMode) permission.Relations {
		return permission.Relations{IsOrgMember: true, TeamUnits: m}
	}
	norel := permission.Relations{}
	publicOnly := tokenUser("public-only", "all")
	branch := func(f permission.Facts) permission.Facts {
		return with(f, func(f *permission.Facts) { f.BranchWritable = true })
	}

	cases := []struct {
		name  string
		code  string
		facts permission.Facts
		want  outcome
	}{
		// T
		{"T anonymous", "T", off(anonymous()), unauthenticated},
		{"T anonymous on a public repo", "T", onRepo(anonymous(), repo(), norel), unauthenticated},
		{"T user", "T", off(plainUser()), pass},
		{"T restricted user", "T", off(restrictedUser()), pass},
		{"T token user", "T", off(publicOnly), pass},
		{"T workflow run", "T", off(workflowRun(repoID, false)), pass},
		{"T admin", "T", off(siteAdmin()), pass},

		// RR(u)
		{"RR anonymous public", "RR(code)", onRepo(anonymous(), repo(), norel), pass},
		{"RR anonymous unit disabled", "RR(code)", onRepo(anonymous(), repo(units(issues)), norel), forbidden(msgRR)},
		{"RR user public", "RR(releases)", onRepo(plainUser(), repo(), norel), pass},
		{"RR user unit disabled", "RR(actions)", onRepo(plainUser(), repo(), norel), forbidden(msgRR)},
		{"RR restricted public", "RR(code)", onRepo(restrictedUser(), repo(), norel), forbidden(msgRR)},
		{"RR collaborator read", "RR(code)", onRepo(plainUser(), repo(private), collab(read)), pass},
		{"RR repo admin on a disabled unit", "RR(actions)", onRepo(plainUser(), repo(private), collab(admin)), pass},
		{"RR owner on a disabled unit", "RR(actions)", onRepo(repoOwner(), repo(), norel), pass},
		{"RR site admin on a disabled unit", "RR(actions)", onRepo(siteAdmin(), repo(), norel), pass},
		{"RR team member without the unit", "RR(code)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{issues: read})), forbidden(msgRR)},
		{"RR team member with the unit", "RR(issues)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{issues: read})), pass},
		{"RR any of several units", "RR(code, issues)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{issues: read})), pass},
		{"RR workflow run from fork", "RR(actions)", onRepo(workflowRun(repoID, true), repo(units(code, actions)), norel), pass},
		{"RR workflow run on another repo", "RR(code)", onRepo(workflowRun(otherRepoID, false), repo(), norel), forbidden(msgRR)},
		{"RR public-only token", "RR(code)", onRepo(publicOnly, repo(), norel), pass},

		// AR
		{"AR anonymous public", "AR", onRepo(anonymous(), repo(), norel), pass},
		{"AR anonymous private", "AR", onRepo(anonymous(), repo(private), norel), forbidden(msgAR)},
		{"AR user public", "AR", onRepo(plainUser(), repo(), norel), pass},
		{"AR restricted", "AR", onRepo(restrictedUser(), repo(), norel), forbidden(msgAR)},
		{"AR non-member of private org", "AR", onRepo(plainUser(), repo(orgOwned, ownerVis(user.VisibilityPrivate)), norel), forbidden(msgAR)},
		{"AR collaborator", "AR", onRepo(plainUser(), repo(private), collab(read)), pass},
		{"AR team member", "AR", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{wiki: read})), pass},
		{"AR owner of a repo without units", "AR", onRepo(repoOwner(), repo(units()), norel), pass},
		{"AR site admin", "AR", onRepo(siteAdmin(), repo(private), norel), pass},
		{"AR site admin with an empty permission", "AR", permission.Facts{Actor: siteAdmin(), Repo: &permission.Repo{}}, pass},

		// RW(u)
		{"RW anonymous", "RW(code)", onRepo(anonymous(), repo(), norel), forbidden(msgRW)},
		{"RW user on public repo", "RW(code)", onRepo(plainUser(), repo(), norel), forbidden(msgRW)},
		{"RW collaborator read", "RW(code)", onRepo(plainUser(), repo(private), collab(read)), forbidden(msgRW)},
		{"RW collaborator write", "RW(code)", onRepo(plainUser(), repo(private), collab(write)), pass},
		{"RW collaborator write, unit disabled", "RW(wiki)", onRepo(plainUser(), repo(private, units(code)), collab(write)), forbidden(msgRW)},
		{"RW collaborator admin, unit disabled", "RW(wiki)", onRepo(plainUser(), repo(private, units(code)), collab(admin)), pass},
		{"RW owner", "RW(releases)", onRepo(repoOwner(), repo(), norel), pass},
		{"RW org owner", "RW(code)", onRepo(orgUser(), repo(orgOwned, private), permission.Relations{IsOrgOwner: true}), pass},
		{"RW team write on another unit", "RW(code)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{issues: write, code: read})), forbidden(msgRW)},
		{"RW issues and pull requests, pulls writer", "RW(issues and pull requests)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{pulls: write})), pass},
		{"RW issues and pull requests, reader", "RW(issues and pull requests)", onRepo(orgUser(), repo(orgOwned, private), team(map[permission.Unit]permission.AccessMode{pulls: read, issues: read})), forbidden(msgRW)},
		{"RW site admin", "RW(code)", onRepo(siteAdmin(), repo(private), norel), pass},
		{"RW workflow run", "RW(code)", onRepo(workflowRun(repoID, false), repo(private), norel), pass},
		{"RW workflow run from fork", "RW(code)", onRepo(workflowRun(repoID, true), repo(private), norel), forbidden(msgRW)},
		{"RW restricted collaborator write", "RW(code)", onRepo(restrictedUser(), repo(), collab(write)), pass},
		{"RW archived still passes (NA refuses)", "RW(code)", onRepo(plainUser(), repo(archived), collab(write)), pass},

		// BW
		{"BW not writable", "BW", onRepo(plainUser(), repo(), collab(write)), forbidden(msgBW)},
		{"BW writable", "BW", branch(onRepo(plainUser(), repo(), collab(write))), pass},
		{"BW repo owner, branch protected", "BW", onRepo(repoOwner(), repo(), norel), forbidden(msgBW)},
		{"BW site admin, branch protected", "BW", onRepo(siteAdmin(), repo(), norel), pass},
		{"BW anonymous", "BW", onRepo(anonymous(), repo(), norel), forbidden(msgBW)},

		// RA
		{"RA anonymous", "RA", onRepo(anonymous(), repo(), norel), forbidden(msgRA)},
		{"RA user", "RA", onRepo(plainUser(), repo(), norel), forbidden(msgRA)},
		{"RA collaborator write", "RA", onRepo(plainUser(), repo(), collab(write)), forbidden(msgRA)},
		{"RA collaborator admin", "RA", onRepo(plainUser(), repo(), collab(admin)), pass},
		{"RA owner", "RA", onRepo(repoOwner(), repo(), norel), pass},
		{"RA org owner", "RA", onRepo(orgUser(), repo(orgOwned), permission.Relations{IsOrgOwner: true}), pass},
		{"RA org member", "RA", onRepo(orgUser(), repo(orgOwned), permission.Relations{IsOrgMember: true}), forbidden(msgRA)},
		{"RA write team", "RA", onRepo(orgUser(), repo(orgOwned), team(map[permission.Unit]permission.AccessMode{code: write})), forbidden(msgRA)},
		{"RA admin team", "RA", onRepo(orgUser(), repo(orgOwned), team(map[permission.Unit]permission.AccessMode{code: admin})), pass},
		{"RA site admin", "RA", onRepo(siteAdmin(), repo(), norel), pass},
		{"RA workflow run", "RA", onRepo(workflowRun(repoID, false), repo(), norel), forbidden(msgRA)},

		// RO
		{"RO collaborator admin", "RO", onRepo(plainUser(), repo(), collab(admin)), forbidden(msgRO)},
		{"RO owner", "RO", onRepo(repoOwner(), repo(), norel), pass},
		{"RO org owner", "RO", onRepo(orgUser(), repo(orgOwned), permission.Relations{IsOrgOwner: true}), pass},
		{"RO admin team", "RO", onRepo(orgUser(), repo(orgOwned), team(map[permission.Unit]permission.AccessMode{code: admin})), pass},
		{"RO site admin", "RO", onRepo(siteAdmin(), repo(), norel), pass},
		{"RO user", "RO", onRepo(plainUser(), repo(), norel), forbidden(msgRO)},
		{"RO anonymous", "RO", onRepo(anonymous(), repo(), norel), forbidden(msgRO)},

		// NA
		{"NA not archived", "NA", onRepo(plainUser(), repo(), norel), pass},
		{"NA archived", "NA", onRepo(repoOwner(), repo(archived), norel), outcome{errs.ErrLocked, "alice/demo is archived"}},
		{"NA archived, site admin too", "NA", onRepo(siteAdmin(), repo(archived, orgOwned), norel), outcome{errs.ErrLocked, "acme/demo is archived"}},
		{"NA archived, workflow run", "NA", onRepo(workflowRun(repoID, false), repo(archived), norel), outcome{errs.ErrLocked, "alice/demo is archived"}},

		// SA
		{"SA anonymous", "SA", off(anonymous()), forbidden(msgSA)},
		{"SA user", "SA", off(plainUser()), forbidden(msgSA)},
		{"SA repo owner", "SA", onRepo(repoOwner(), repo(), norel), forbidden(msgSA)},
		{"SA admin", "SA", off(siteAdmin()), pass},
		{"SA workflow run", "SA", off(workflowRun(repoID, false)), forbidden(msgSA)},

		// SOA
		{"SOA self", "SOA", with(off(plainUser()), func(f *permission.Facts) { f.SubjectUserID = plainID }), pass},
		{"SOA other", "SOA", with(off(plainUser()), func(f *permission.Facts) { f.SubjectUserID = ownerID }), forbidden(msgSO)},
		{"SOA admin for other", "SOA", with(off(siteAdmin()), func(f *permission.Facts) { f.SubjectUserID = ownerID }), pass},
		{"SOA anonymous, no subject", "SOA", off(anonymous()), forbidden(msgSO)},
		{"SOA workflow run", "SOA", off(workflowRun(repoID, false)), forbidden(msgSO)},

		// OO
		{"OO owner", "OO", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgOwner, f.IsOrgMember = true, true }), pass},
		{"OO member", "OO", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgMember = true }), forbidden(msgOO)},
		{"OO outsider", "OO", off(plainUser()), forbidden(msgOO)},
		{"OO member on a team route", "OO", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgMember, f.IsTeamMember, f.TeamRoute = true, true, true }), notFound},
		{"OO owner on a team route", "OO", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgOwner, f.TeamRoute = true, true }), pass},
		{"OO site admin", "OO", off(siteAdmin()), pass},
		{"OO site admin on a team route", "OO", with(off(siteAdmin()), func(f *permission.Facts) { f.TeamRoute = true }), pass},

		// OM
		{"OM member", "OM", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgMember = true }), pass},
		{"OM owner", "OM", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgOwner = true }), pass},
		{"OM outsider", "OM", off(plainUser()), forbidden(msgOM)},
		{"OM outsider on a team route", "OM", with(off(plainUser()), func(f *permission.Facts) { f.TeamRoute = true }), notFound},
		{"OM site admin", "OM", off(siteAdmin()), pass},
		{"OM restricted member", "OM", with(off(restrictedUser()), func(f *permission.Facts) { f.IsOrgMember = true }), pass},

		// TM
		{"TM team member", "TM", with(off(orgUser()), func(f *permission.Facts) { f.IsTeamMember, f.IsOrgMember, f.TeamRoute = true, true, true }), pass},
		{"TM org owner", "TM", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgOwner, f.IsOrgMember, f.TeamRoute = true, true, true }), pass},
		{"TM org member of another team", "TM", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgMember, f.TeamRoute = true, true }), forbidden(msgTM)},
		{"TM outsider", "TM", with(off(plainUser()), func(f *permission.Facts) { f.TeamRoute = true }), notFound},
		{"TM site admin", "TM", with(off(siteAdmin()), func(f *permission.Facts) { f.TeamRoute = true }), pass},

		// WH, ST
		{"WH enabled", "WH", with(off(plainUser()), func(f *permission.Facts) { f.WebhooksEnabled = true }), pass},
		{"WH disabled", "WH", off(plainUser()), forbidden(msgWH)},
		{"WH disabled, site admin", "WH", off(siteAdmin()), forbidden(msgWH)},
		{"ST enabled", "ST", with(off(anonymous()), func(f *permission.Facts) { f.StarsEnabled = true }), pass},
		{"ST disabled", "ST", off(plainUser()), forbidden(msgST)},
		{"ST disabled, site admin", "ST", off(siteAdmin()), forbidden(msgST)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := mustCode(t, tc.code).Check(tc.facts)
			checkOutcome(is, err, tc.want)
		})
	}
}

func TestCodeCheckMisuse(t *testing.T) {
	cases := []struct {
		name  string
		code  permission.Code
		facts permission.Facts
	}{
		{"RR without repo", permission.Code{Kind: permission.CodeRR, Units: []permission.Unit{code}}, off(siteAdmin())},
		{"AR without repo", permission.Code{Kind: permission.CodeAR}, off(siteAdmin())},
		{"RW without repo", permission.Code{Kind: permission.CodeRW, Units: []permission.Unit{code}}, off(siteAdmin())},
		{"BW without repo", permission.Code{Kind: permission.CodeBW}, off(siteAdmin())},
		{"RA without repo", permission.Code{Kind: permission.CodeRA}, off(siteAdmin())},
		{"RO without repo", permission.Code{Kind: permission.CodeRO}, off(siteAdmin())},
		{"NA without repo", permission.Code{Kind: permission.CodeNA}, off(siteAdmin())},
		{"RR without units", permission.Code{Kind: permission.CodeRR}, onRepo(siteAdmin(), repo(), permission.Relations{})},
		{"RW without units", permission.Code{Kind: permission.CodeRW}, onRepo(siteAdmin(), repo(), permission.Relations{})},
		{"unknown kind", permission.Code{Kind: "XX"}, off(siteAdmin())},
		{"zero code", permission.Code{}, off(siteAdmin())},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := tc.code.Check(tc.facts)
			is.True(err != nil)
			// A misuse is a programming error: no category, so the HTTP layer answers 500.
			for _, kind := range []error{errs.ErrNotFound, errs.ErrUnauthenticated, errs.ErrForbidden, errs.ErrInvalid, errs.ErrBadRequest, errs.ErrLocked, errs.ErrConflict, errs.ErrTooLarge} {
				is.True(!errors.Is(err, kind))
			}
		})
	}
}

func TestCheckAll(t *testing.T) {
	codes := func(s string) []permission.Code {
		cs, err := permission.ParseCodes(s)
		if err != nil {
			t.Fatalf("ParseCodes(%q): %v", s, err)
		}
		return cs
	}
	cases := []struct {
		name  string
		codes string
		facts permission.Facts
		want  outcome
	}{
		{"no codes", "-", off(anonymous()), pass},
		{"anonymous stops at T", "T, RW(code), NA", onRepo(anonymous(), repo(archived), permission.Relations{}), unauthenticated},
		{"reader stops at RW", "T, RW(code), NA", onRepo(plainUser(), repo(archived), permission.Relations{}), forbidden("user should have a permission to write to a repo")},
		{"writer stops at NA", "T, RW(code), NA", onRepo(plainUser(), repo(archived), permission.Relations{CollaboratorMode: write}),
			outcome{errs.ErrLocked, "alice/demo is archived"}},
		{"declaration order wins", "T, NA, RW(code)", onRepo(plainUser(), repo(archived), permission.Relations{}),
			outcome{errs.ErrLocked, "alice/demo is archived"}},
		{"writer passes all", "T, RW(code), NA", onRepo(plainUser(), repo(), permission.Relations{CollaboratorMode: write}), pass},
		{"branch write", "T, RR(code), BW, NA", onRepo(plainUser(), repo(), permission.Relations{CollaboratorMode: write}),
			forbidden("user should have a permission to write to this branch")},
		{"admin hooks, webhooks off", "T, RA, WH", onRepo(repoOwner(), repo(), permission.Relations{}), forbidden("webhooks disabled by administrator")},
		{"org hooks, member", "T, OO, WH", with(off(orgUser()), func(f *permission.Facts) { f.IsOrgMember, f.WebhooksEnabled = true, true }),
			forbidden("Must be an organization owner")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			checkOutcome(is, permission.CheckAll(codes(tc.codes), tc.facts), tc.want)
		})
	}
}

func TestParseCode(t *testing.T) {
	u := func(us ...permission.Unit) []permission.Unit { return us }
	cases := []struct {
		in      string
		want    permission.Code
		str     string
		wantErr bool
	}{
		{in: "T", want: permission.Code{Kind: permission.CodeT}, str: "T"},
		{in: " NA ", want: permission.Code{Kind: permission.CodeNA}, str: "NA"},
		{in: "AR", want: permission.Code{Kind: permission.CodeAR}, str: "AR"},
		{in: "BW", want: permission.Code{Kind: permission.CodeBW}, str: "BW"},
		{in: "RA", want: permission.Code{Kind: permission.CodeRA}, str: "RA"},
		{in: "RO", want: permission.Code{Kind: permission.CodeRO}, str: "RO"},
		{in: "SA", want: permission.Code{Kind: permission.CodeSA}, str: "SA"},
		{in: "SOA", want: permission.Code{Kind: permission.CodeSOA}, str: "SOA"},
		{in: "OO", want: permission.Code{Kind: permission.CodeOO}, str: "OO"},
		{in: "OM", want: permission.Code{Kind: permission.CodeOM}, str: "OM"},
		{in: "TM", want: permission.Code{Kind: permission.CodeTM}, str: "TM"},
		{in: "WH", want: permission.Code{Kind: permission.CodeWH}, str: "WH"},
		{in: "ST", want: permission.Code{Kind: permission.CodeST}, str: "ST"},
		{in: "RR(code)", want: permission.Code{Kind: permission.CodeRR, Units: u(code)}, str: "RR(code)"},
		{in: "RR(actions)", want: permission.Code{Kind: permission.CodeRR, Units: u(actions)}, str: "RR(actions)"},
		{in: "RR(repo.releases)", want: permission.Code{Kind: permission.CodeRR, Units: u(releases)}, str: "RR(releases)"},
		{in: "RW(wiki)", want: permission.Code{Kind: permission.CodeRW, Units: u(wiki)}, str: "RW(wiki)"},
		{in: "RW(issues and pull requests)", want: permission.Code{Kind: permission.CodeRW, Units: u(issues, pulls)}, str: "RW(issues,pulls)"},
		{in: "RW( issues , pulls )", want: permission.Code{Kind: permission.CodeRW, Units: u(issues, pulls)}, str: "RW(issues,pulls)"},
		{in: "", wantErr: true},
		{in: "-", wantErr: true},
		{in: "XX", wantErr: true},
		{in: "t", wantErr: true},
		{in: "RR", wantErr: true},
		{in: "RW", wantErr: true},
		{in: "RR()", wantErr: true},
		{in: "RR(code", wantErr: true},
		{in: "RR(code))", wantErr: true},
		{in: "RR(nope)", wantErr: true},
		{in: "RR(code,)", wantErr: true},
		{in: "T(code)", wantErr: true},
		{in: "NA(code)", wantErr: true},
		{in: "Basic auth", wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			got, err := permission.ParseCode(tc.in)
			if tc.wantErr {
				is.True(err != nil)
				return
			}
			is.NoErr(err)
			is.Equal(got, tc.want)
			is.Equal(got.String(), tc.str)
			back, err := permission.ParseCode(got.String())
			is.NoErr(err)
			is.Equal(back, got)
		})
	}
}

func TestParseCodes(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{in: "", want: nil},
		{in: "-", want: nil},
		{in: "T", want: []string{"T"}},
		{in: "T, RR(code), BW, NA", want: []string{"T", "RR(code)", "BW", "NA"}},
		{in: "NA, T, RW(wiki)", want: []string{"NA", "T", "RW(wiki)"}},
		{in: "T, RW(issues, pulls), NA", want: []string{"T", "RW(issues,pulls)", "NA"}},
		{in: "T, RW(issues and pull requests)", want: []string{"T", "RW(issues,pulls)"}},
		{in: "T,RR(actions),RW(actions)", want: []string{"T", "RR(actions)", "RW(actions)"}},
		{in: "T, SOA, Basic auth", wantErr: true},
		{in: "T, issues enabled", wantErr: true},
		{in: "T,", wantErr: true},
		{in: "T, RR(code", wantErr: true},
		{in: "T, RR(code))", wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			got, err := permission.ParseCodes(tc.in)
			if tc.wantErr {
				is.True(err != nil)
				return
			}
			is.NoErr(err)
			var names []string
			for _, c := range got {
				names = append(names, c.String())
			}
			is.Equal(names, tc.want)
		})
	}
}
