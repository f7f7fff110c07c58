package orgs

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Members are the use cases of an organisation's members and public members.
type Members struct{ *Service }

// Members returns the organisation membership use cases.
func (s *Service) Members() Members { return Members{s} }

// errNotMember is the 404 of a membership check for a non-member.
var errNotMember = errs.NotFound("user is not a member of the organization")

// List lists the organisation's members as a.Caller may see them: all of
// them to members and site admins, the public ones to everybody else.
func (s Members) List(ctx context.Context, a *Access, publicOnly bool, opts ports.ListOptions) ([]*user.User, int64, error) {
	if !a.Membership.IsMember && !a.Caller.IsAdmin() {
		publicOnly = true
	}
	return s.stores.Orgs.Members(ctx, a.Org.ID, publicOnly, opts)
}

// CanSeeAllMembers reports whether a.Caller sees concealed memberships.
func (a *Access) CanSeeAllMembers() bool { return a.Membership.IsMember || a.Caller.IsAdmin() }

// Check answers whether u is a member (publicOnly: a public member)
// of the organisation: nil, or errs.ErrNotFound.
func (s Members) Check(ctx context.Context, a *Access, u *user.User, publicOnly bool) error {
	m, err := s.stores.Orgs.Membership(ctx, a.Org.ID, u.ID)
	if err != nil {
		return err
	}
	if !m.IsMember || publicOnly && !m.IsPublic {
		return errNotMember
	}
	return nil
}

// SetPublic shows or conceals u's membership. Only u may change it, as in
// Gitea (a site admin too).
func (s Members) SetPublic(ctx context.Context, a *Access, u *user.User, public bool) error {
	if a.Caller.UserID() != u.ID && !a.Caller.IsAdmin() {
		return errs.Forbidden("Cannot publicize another member")
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Orgs.SetPublic(ctx, a.Org.ID, u.ID, public)
	})
}

// Remove takes u out of the organisation and all its teams; the last
// owner stays.
func (s Members) Remove(ctx context.Context, a *Access, u *user.User) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		m, err := tx.Orgs.Membership(ctx, a.Org.ID, u.ID)
		if err != nil {
			return err
		}
		if !m.IsMember {
			return errNotMember
		}
		// The store checks that an owner remains, under a lock.
		err = tx.Orgs.RemoveMember(ctx, a.Org.ID, u.ID)
		if errors.Is(err, errs.ErrNotFound) {
			return errNotMember
		}
		return err
	})
}
