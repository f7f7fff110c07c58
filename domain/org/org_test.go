package org_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

func TestOrgsProfileValidate(t *testing.T) {
	ok := org.Profile{Visibility: user.VisibilityPublic, Website: "https://example.com", Email: "o@example.com"}
	cases := []struct {
		name  string
		edit  func(p *org.Profile)
		field string // "" when valid
	}{
		{"valid", func(*org.Profile) {}, ""},
		{"limited", func(p *org.Profile) { p.Visibility = user.VisibilityLimited }, ""},
		{"private", func(p *org.Profile) { p.Visibility = user.VisibilityPrivate }, ""},
		{"bad visibility", func(p *org.Profile) { p.Visibility = "secret" }, "Visibility"},
		{"long full name", func(p *org.Profile) { p.FullName = strings.Repeat("x", 101) }, "FullName"},
		{"long description", func(p *org.Profile) { p.Description = strings.Repeat("x", 256) }, "Description"},
		{"long location", func(p *org.Profile) { p.Location = strings.Repeat("x", 51) }, "Location"},
		{"website not a URL", func(p *org.Profile) { p.Website = "not a url" }, "Website"},
		{"website ftp", func(p *org.Profile) { p.Website = "ftp://example.com" }, "Website"},
		{"no website", func(p *org.Profile) { p.Website = "" }, ""},
		{"bad email", func(p *org.Profile) { p.Email = "nope" }, "Email"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			p := ok
			tc.edit(&p)
			err := p.Validate()
			if tc.field == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.Contains(err.Error(), tc.field))
		})
	}
}

func TestOrgsNameSharesUserRules(t *testing.T) {
	for _, name := range []string{"", "api", "a b", "-x", strings.Repeat("a", 41), "x.git"} {
		is := is.New(t)
		is.True(errors.Is(org.ValidateName("username", name), errs.ErrInvalid)) // name
	}
	is := is.New(t)
	is.NoErr(org.ValidateName("username", "my-org.2"))
}

func TestOrgsNewAndProfileRoundTrip(t *testing.T) {
	is := is.New(t)
	p := org.Profile{FullName: "Org", Description: "d", Website: "https://o.example", Location: "here",
		Visibility: user.VisibilityLimited, RepoAdminChangeTeamAccess: true}
	o := org.New("MyOrg", p)
	is.Equal(o.LowerName, "myorg")
	is.Equal(o.Kind, user.KindOrganization)
	is.True(o.ProhibitLogin) // an organisation never signs in
	is.Equal(o.Profile(), p)
}

func TestOrgsCanSee(t *testing.T) {
	anon := org.Viewer{}
	signed := org.Viewer{UserID: 5}
	publicOnly := org.Viewer{UserID: 5, PublicOnly: true}
	member := org.Viewer{UserID: 5, IsMember: true}
	admin := org.Viewer{UserID: 1, IsAdmin: true}
	cases := []struct {
		name string
		v    org.Viewer
		vis  user.Visibility
		want bool
	}{
		{"public anon", anon, user.VisibilityPublic, true},
		{"limited anon", anon, user.VisibilityLimited, false},
		{"limited signed", signed, user.VisibilityLimited, true},
		{"limited public-only token", publicOnly, user.VisibilityLimited, true}, // refused by the token rule instead
		{"private signed", signed, user.VisibilityPrivate, false},
		{"private member", member, user.VisibilityPrivate, true},
		{"private admin", admin, user.VisibilityPrivate, true},
		{"private anon", anon, user.VisibilityPrivate, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(org.CanSee(tc.v, tc.vis), tc.want)
		})
	}
	is := is.New(t)
	is.Equal(org.VisibleKinds(anon), []user.Visibility{user.VisibilityPublic})
	is.Equal(org.VisibleKinds(signed), []user.Visibility{user.VisibilityPublic, user.VisibilityLimited})
	is.Equal(org.VisibleKinds(admin), nil)
}

func TestOrgsCanCreate(t *testing.T) {
	is := is.New(t)
	is.True(org.CanCreate(&user.User{IsAdmin: true}))
	is.True(org.CanCreate(&user.User{AllowCreateOrganization: true}))
	is.True(!org.CanCreate(&user.User{}))
	is.True(!org.CanCreate(&user.User{AllowCreateOrganization: true, IsRestricted: true}))
}

func TestOrgsTeamRules(t *testing.T) {
	owners := org.NewOwnersTeam(7)
	is := is.New(t)
	is.True(owners.IsOwnersTeam())
	is.Equal(owners.Mode, permission.ModeOwner)
	is.True(owners.IncludesAllRepositories && owners.CanCreateOrgRepo)
	is.Equal(owners.Units[permission.UnitCode], permission.ModeOwner)
	is.NoErr(owners.Validate())
	is.True(errors.Is(owners.CheckDelete(), errs.ErrInvalid))         // owners team stays
	is.True(errors.Is(owners.CheckRemoveMember(1), errs.ErrConflict)) // last owner stays
	is.NoErr(owners.CheckRemoveMember(2))                             // another owner remains
	is.True(errors.Is(owners.CheckRename("Admins"), errs.ErrInvalid)) // nor renamed
	dev := &org.Team{Name: "dev", Mode: permission.ModeWrite}
	is.NoErr(dev.CheckDelete())
	is.NoErr(dev.CheckRemoveMember(1))
	is.True(errors.Is(dev.CheckRename(org.OwnersTeamName), errs.ErrInvalid)) // nor impersonated

	cases := []struct {
		name  string
		team  org.Team
		field string
	}{
		{"valid", org.Team{Name: "dev.team_1", Mode: permission.ModeWrite}, ""},
		{"units", org.Team{Name: "dev", Units: map[permission.Unit]permission.AccessMode{permission.UnitCode: permission.ModeAdmin}}, ""},
		{"empty name", org.Team{}, "name"},
		{"bad name", org.Team{Name: "a b"}, "name"},
		{"reserved", org.Team{Name: "New"}, "name"},
		{"long name", org.Team{Name: strings.Repeat("a", 256)}, "name"},
		{"long description", org.Team{Name: "d", Description: strings.Repeat("a", 256)}, "description"},
		{"owner mode", org.Team{Name: "d", Mode: permission.ModeOwner}, "permission"},
		{"unknown unit", org.Team{Name: "d", Units: map[permission.Unit]permission.AccessMode{"repo.nope": permission.ModeRead}}, "units_map"},
		{"owner unit", org.Team{Name: "d", Units: map[permission.Unit]permission.AccessMode{permission.UnitCode: permission.ModeOwner}}, "units_map"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := tc.team.Validate()
			if tc.field == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(strings.Contains(err.Error(), tc.field))
		})
	}
}

func TestOrgsParseMode(t *testing.T) {
	is := is.New(t)
	for _, s := range []string{"none", "read", "write", "admin", "owner"} {
		m, ok := org.ParseMode(s)
		is.True(ok)
		is.Equal(m.String(), s)
	}
	_, ok := org.ParseMode("root")
	is.True(!ok)
}

func TestOrgRestrictedViewer(t *testing.T) {
	restricted := org.Viewer{UserID: 7, Restricted: true}
	restrictedMember := org.Viewer{UserID: 7, Restricted: true, IsMember: true}
	restrictedAdmin := org.Viewer{UserID: 7, Restricted: true, IsAdmin: true}
	for _, vis := range []user.Visibility{user.VisibilityPublic, user.VisibilityLimited, user.VisibilityPrivate} {
		t.Run(string(vis), func(t *testing.T) {
			is := is.New(t)
			is.True(!org.CanSee(restricted, vis))      // hidden even when public
			is.True(org.CanSee(restrictedMember, vis)) // members see their organisation
			is.True(org.CanSee(restrictedAdmin, vis))  // admin wins
		})
	}
}

func TestOrgListFilterFor(t *testing.T) {
	public := []user.Visibility{user.VisibilityPublic}
	signedKinds := []user.Visibility{user.VisibilityPublic, user.VisibilityLimited}
	cases := []struct {
		name string
		v    org.Viewer
		want org.ListFilter
	}{
		{"anonymous", org.Viewer{}, org.ListFilter{Kinds: public}},
		{"signed", org.Viewer{UserID: 5}, org.ListFilter{Kinds: signedKinds, WithMemberships: true}},
		{"public-only token", org.Viewer{UserID: 5, PublicOnly: true}, org.ListFilter{Kinds: public}},
		{"admin", org.Viewer{UserID: 1, IsAdmin: true}, org.ListFilter{}},
		{"admin public-only", org.Viewer{UserID: 1, IsAdmin: true, PublicOnly: true}, org.ListFilter{Kinds: public}},
		{"restricted", org.Viewer{UserID: 7, Restricted: true}, org.ListFilter{MembershipsOnly: true}},
		{"restricted public-only", org.Viewer{UserID: 7, Restricted: true, PublicOnly: true},
			org.ListFilter{Kinds: public, MembershipsOnly: true}},
		{"restricted admin", org.Viewer{UserID: 7, Restricted: true, IsAdmin: true}, org.ListFilter{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(org.ListFilterFor(tc.v), tc.want)
		})
	}
}
