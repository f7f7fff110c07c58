// Package orgs holds the organisation use cases: creating, viewing, editing
// and deleting organisations, their members and public members, and the
// repositories they own. Policy lives in domain/org; this package gathers
// the facts through ports and writes inside one transaction. The
// organisation itself is Service's (orgs.go); each sub-resource has a
// focused type reached from Service (Members, Teams, TeamMembers, TeamRepos,
// RepoTeams, Avatars), and what they share (opening the path's organisation
// or team) stays on Service.
package orgs

import (
	"context"
	"errors"
	"log/slog"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/ports"
)

// Service runs the organisation use cases.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	clock  ports.Clock
	users  *users.Service
	repos  *repos.Service
	// avatars stores organisation avatars; log reports the failed removal
	// of a replaced one.
	avatars ports.Avatars
	log     *slog.Logger
}

// NewService builds the organisation use cases.
func NewService(stores ports.Stores, tx ports.Transactor, clock ports.Clock, us *users.Service, rs *repos.Service, avatars ports.Avatars, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, clock: clock, users: us, repos: rs, avatars: avatars, log: log}
}

// errOrgNotFound is the answer for an absent organisation and for one the
// caller may not see.
var errOrgNotFound = errs.NotFound("organization does not exist")

// Access is an organisation as one caller reaches it.
type Access struct {
	Org        *org.Organization
	Membership org.Membership
	Caller     auth.Caller
}

// viewer returns the visibility facts of c for an organisation it has
// membership m in.
func viewer(c auth.Caller, m org.Membership) org.Viewer {
	v := users.Viewer(c)
	return org.Viewer{UserID: v.ID, IsAdmin: v.IsAdmin, PublicOnly: v.PublicOnly,
		Restricted: c.User != nil && c.User.IsRestricted, IsMember: m.IsMember}
}

// narrow applies c's listing filter to q (Gitea's BuildCanSeeUserCondition
// and public-only token rule).
func narrow(c auth.Caller, q *ports.OrgSearch) {
	f := org.ListFilterFor(viewer(c, org.Membership{}))
	q.Visibilities = f.Kinds
	if f.WithMemberships {
		q.IncludeMemberID = c.UserID()
	}
	if f.MembershipsOnly {
		q.ViewerMemberID = c.UserID()
	}
}

// Open resolves the organisation called name for caller c with c's
// membership: 404 when absent or hidden from c (limited to signed-in
// callers, private to members). A renamed organisation c may see answers
// a *users.RenamedError naming its new name (the adapter redirects).
func (s *Service) Open(ctx context.Context, c auth.Caller, name string) (*Access, error) {
	o, err := s.stores.Orgs.GetByName(ctx, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, s.renamed(ctx, c, name)
	}
	if err != nil {
		return nil, err
	}
	m, err := s.stores.Orgs.Membership(ctx, o.ID, c.UserID())
	if err != nil {
		return nil, err
	}
	if !org.CanSee(viewer(c, m), o.Visibility) {
		return nil, errOrgNotFound
	}
	return &Access{Org: o, Membership: m, Caller: c}, nil
}

// renamed is the answer for an organisation name that is not in use: a
// redirect when the name was an organisation's before a rename and c may
// see that organisation, else 404 (a redirect would reveal where a hidden
// organisation went).
func (s *Service) renamed(ctx context.Context, c auth.Caller, name string) error {
	id, err := s.stores.Users.LookupRedirect(ctx, name)
	if errors.Is(err, errs.ErrNotFound) {
		return errOrgNotFound
	}
	if err != nil {
		return err
	}
	o, err := s.stores.Orgs.Get(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return errOrgNotFound // the name went to an individual
	}
	if err != nil {
		return err
	}
	m, err := s.stores.Orgs.Membership(ctx, o.ID, c.UserID())
	if err != nil {
		return err
	}
	if !org.CanSee(viewer(c, m), o.Visibility) {
		return errOrgNotFound
	}
	return &users.RenamedError{OldName: name, NewName: o.Name}
}
