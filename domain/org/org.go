// Package org holds the organisation aggregate: organisations (accounts of
// kind user.KindOrganization, so that names are one namespace with users),
// their teams and memberships, and the rules for who may see and manage
// them. It is pure: no I/O.
package org

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// Field limits, as Gitea's CreateOrgOption and EditOrgOption bind them.
const (
	MaxFullNameLength    = 100
	MaxDescriptionLength = 255
	MaxWebsiteLength     = 255
	MaxLocationLength    = 50
)

// Profile is the editable part of an organisation.
type Profile struct {
	FullName    string
	Email       string
	Description string
	Website     string
	Location    string
	Visibility  user.Visibility
	// RepoAdminChangeTeamAccess lets repository admins change which teams
	// reach their repository.
	RepoAdminChangeTeamAccess bool
}

// ValidateName checks an organisation name with the user rules: both kinds
// share one table and one namespace.
func ValidateName(field, name string) error { return user.ValidateName(field, name) }

// Validate checks a profile; the field names are Gitea's option fields.
func (p Profile) Validate() error {
	if utf8.RuneCountInString(p.FullName) > MaxFullNameLength {
		return errs.Invalid("MaxSize", "FullName")
	}
	if utf8.RuneCountInString(p.Description) > MaxDescriptionLength {
		return errs.Invalid("MaxSize", "Description")
	}
	if utf8.RuneCountInString(p.Location) > MaxLocationLength {
		return errs.Invalid("MaxSize", "Location")
	}
	if err := ValidateWebsite(p.Website); err != nil {
		return err
	}
	if p.Email != "" {
		if err := user.ValidateEmail("Email", p.Email); err != nil {
			return err
		}
	}
	return user.ValidateVisibility("Visibility", p.Visibility)
}

// ValidateWebsite accepts an empty website or an absolute http(s) URL.
func ValidateWebsite(site string) error {
	if site == "" {
		return nil
	}
	if utf8.RuneCountInString(site) > MaxWebsiteLength {
		return errs.Invalid("MaxSize", "Website")
	}
	u, err := url.Parse(site)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsAny(site, " \t\n") {
		return errs.Invalid("ValidUrl", "Website")
	}
	return nil
}

// Organization is an organisation: its account row (Kind is
// user.KindOrganization) and the settings only organisations have.
type Organization struct {
	user.User
	// RepoAdminChangeTeamAccess lets repository admins change which teams
	// reach their repository.
	RepoAdminChangeTeamAccess bool
}

// New builds an organisation called name with profile p; the caller sets
// the times and stores it.
func New(name string, p Profile) *Organization {
	o := &Organization{User: user.User{
		Name: name, LowerName: strings.ToLower(name), Kind: user.KindOrganization,
		IsActive: true, ProhibitLogin: true, MaxRepoCreation: -1,
	}}
	p.Apply(o)
	return o
}

// Profile returns the editable part of o.
func (o *Organization) Profile() Profile {
	return Profile{FullName: o.FullName, Email: o.Email, Description: o.Description, Website: o.Website,
		Location: o.Location, Visibility: o.Visibility, RepoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}
}

// Apply copies p onto the organisation.
func (p Profile) Apply(o *Organization) {
	o.FullName, o.Email, o.Description, o.Website, o.Location = p.FullName, p.Email, p.Description, p.Website, p.Location
	o.Visibility = p.Visibility
	o.RepoAdminChangeTeamAccess = p.RepoAdminChangeTeamAccess
}

// Viewer is who looks at an organisation: the facts its visibility rule needs.
type Viewer struct {
	UserID  int64 // 0 when anonymous
	IsAdmin bool
	// PublicOnly is set for tokens limited to public resources.
	PublicOnly bool
	// Restricted is set for restricted accounts, which see only the
	// organisations they belong to, public ones included.
	Restricted bool
	// IsMember is whether the viewer belongs to the organisation (any team).
	IsMember bool
}

// CanSee reports whether v may know that the organisation exists (Gitea's
// HasOrgOrUserVisible): a public one everybody, a limited one signed-in
// callers, a private one its members and site admins; a restricted account
// only those it belongs to. Everyone else is told it does not exist (404).
// A public-only token does not hide a limited organisation from its signed-in
// owner: the routes refuse it with the token rule (403), as Gitea does.
func CanSee(v Viewer, visibility user.Visibility) bool {
	if v.IsAdmin || v.IsMember {
		return true
	}
	if v.Restricted && v.UserID != 0 {
		return false
	}
	switch visibility {
	case user.VisibilityPublic:
		return true
	case user.VisibilityLimited:
		return v.UserID != 0
	}
	return false
}

// VisibleKinds returns the visibilities an organisation listing may show to
// a viewer who is no member of them; nil means all. A restricted viewer
// sees no organisation it is no member of whatever this answers: see
// ListFilterFor.
func VisibleKinds(v Viewer) []user.Visibility {
	switch {
	case v.PublicOnly || v.UserID == 0:
		return []user.Visibility{user.VisibilityPublic}
	case v.IsAdmin:
		return nil
	}
	return []user.Visibility{user.VisibilityPublic, user.VisibilityLimited}
}

// ListFilter narrows an organisation listing for one viewer (Gitea's
// BuildCanSeeUserCondition with the public-only token rule).
type ListFilter struct {
	// Kinds are the visibilities shown; nil means all.
	Kinds []user.Visibility
	// WithMemberships also shows the organisations the viewer belongs to,
	// whatever Kinds says (members see their private organisations).
	WithMemberships bool
	// MembershipsOnly keeps only the organisations the viewer belongs to
	// (restricted accounts).
	MembershipsOnly bool
}

// ListFilterFor returns how an organisation listing is narrowed for v. A
// public-only token sees public organisations only, even those its owner
// belongs to; a restricted account only the organisations it belongs to.
func ListFilterFor(v Viewer) ListFilter {
	f := ListFilter{Kinds: VisibleKinds(v)}
	switch {
	case v.UserID == 0:
	case v.IsAdmin && !v.PublicOnly:
	case v.Restricted:
		f.MembershipsOnly = true
		if !v.PublicOnly {
			f.Kinds = nil // every organisation it belongs to
		}
	case !v.PublicOnly:
		f.WithMemberships = true
	}
	return f
}

// CanCreate reports whether an account may create an organisation: site
// admins always, others when allowed to (AllowCreateOrganization) and not
// restricted.
func CanCreate(u *user.User) bool {
	if u.IsAdmin {
		return true
	}
	return u.AllowCreateOrganization && !u.IsRestricted
}

// Membership relates one user to one organisation.
type Membership struct {
	IsOwner  bool
	IsMember bool
	// IsPublic is whether the user shows the membership to others.
	IsPublic bool
	// CanCreateRepo is whether one of the user's teams may create repositories.
	CanCreateRepo bool
	// MaxMode is the highest team permission the user holds in the organisation.
	MaxMode permission.AccessMode
}
