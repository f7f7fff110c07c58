package orgs_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/orgs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/user"
)

// Creating organisations, seeing them, and their members: who may create
// one, who sees a private one and its concealed members, who publicises a
// membership, and that the last owner stays.
func TestMembershipPolicyWhoCreatesOrganisations(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	plain, allowed := w.User("plain"), w.User("allowed", mayCreateOrgs)
	restricted := w.User("restricted", mayCreateOrgs, func(u *user.User) { u.IsRestricted = true })

	for _, u := range []*user.User{plain, restricted} {
		_, err := w.svc.Create(w.Ctx, caller(u), u, orgs.CreateInput{Name: "club-" + u.Name})
		is.True(errors.Is(err, errs.ErrForbidden))
	}
	o, err := w.svc.Create(w.Ctx, caller(allowed), allowed, orgs.CreateInput{Name: "club"})
	is.NoErr(err)
	m, err := w.Stores.Orgs.Membership(w.Ctx, o.ID, allowed.ID)
	is.NoErr(err)
	is.True(m.IsOwner) // the creator owns it

	_, err = w.svc.Create(w.Ctx, caller(allowed), allowed, orgs.CreateInput{Name: "CLUB"})
	is.True(errors.Is(err, errs.ErrInvalid)) // the name is taken, case-insensitively
	_, err = w.svc.Create(w.Ctx, caller(allowed), &o.User, orgs.CreateInput{Name: "sub-club"})
	is.True(errors.Is(err, errs.ErrInvalid)) // an organisation owns no organisation
}

func TestMembershipPolicyPrivateOrganisationHiddenFromNonMembers(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, member, outsider, root := w.User("owner"), w.User("member"), w.User("outsider"), w.User("root", admin)
	w.org("hidden", owner, user.VisibilityPrivate)
	w.team(w.mustOpen(owner, "hidden"), orgs.TeamInput{Name: "crew", Permission: "read"}, member)

	_, err := w.open(outsider, "hidden")
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.open(nil, "hidden")
	is.True(errors.Is(err, errs.ErrNotFound))
	for _, u := range []*user.User{owner, member, root} {
		_, err := w.open(u, "hidden")
		is.NoErr(err)
	}

	w.org("limited", owner, user.VisibilityLimited)
	_, err = w.open(outsider, "limited")
	is.NoErr(err) // limited: any signed-in user
	_, err = w.open(nil, "limited")
	is.True(errors.Is(err, errs.ErrNotFound))
}

func TestMembershipPolicyConcealedMembersShowToMembersOnly(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, shy, proud, outsider := w.User("owner"), w.User("shy"), w.User("proud"), w.User("outsider")
	w.org("acme", owner, user.VisibilityPublic)
	w.team(w.mustOpen(owner, "acme"), orgs.TeamInput{Name: "crew", Permission: "read"}, shy, proud)
	is.NoErr(w.svc.Members().SetPublic(w.Ctx, w.mustOpen(proud, "acme"), proud, true))

	list, total, err := w.svc.Members().List(w.Ctx, w.mustOpen(outsider, "acme"), false, pageOne)
	is.NoErr(err)
	is.Equal(names(list), []string{"proud"}) // others see the public members only
	is.Equal(total, int64(1))

	list, _, err = w.svc.Members().List(w.Ctx, w.mustOpen(shy, "acme"), false, pageOne)
	is.NoErr(err)
	is.Equal(names(list), []string{"owner", "proud", "shy"})

	a := w.mustOpen(outsider, "acme")
	is.True(errors.Is(w.svc.Members().Check(w.Ctx, a, shy, true), errs.ErrNotFound))
	is.NoErr(w.svc.Members().Check(w.Ctx, a, proud, true))
	is.True(errors.Is(w.svc.Members().Check(w.Ctx, a, outsider, false), errs.ErrNotFound))
}

func TestMembershipPolicyOnlyTheMemberPublicisesItself(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, member, root := w.User("owner"), w.User("member"), w.User("root", admin)
	w.org("acme", owner, user.VisibilityPublic)
	w.team(w.mustOpen(owner, "acme"), orgs.TeamInput{Name: "crew", Permission: "read"}, member)

	err := w.svc.Members().SetPublic(w.Ctx, w.mustOpen(owner, "acme"), member, true)
	is.True(errors.Is(err, errs.ErrForbidden)) // not even an owner
	m, err := w.Stores.Orgs.Membership(w.Ctx, w.mustOpen(owner, "acme").Org.ID, member.ID)
	is.NoErr(err)
	is.True(!m.IsPublic)

	is.NoErr(w.svc.Members().SetPublic(w.Ctx, w.mustOpen(root, "acme"), member, true)) // a site admin may
	is.NoErr(w.svc.Members().SetPublic(w.Ctx, w.mustOpen(member, "acme"), member, false))
	is.True(!w.mustOpen(member, "acme").Membership.IsPublic)
}

func TestMembershipPolicyLastOwnerStays(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, second, member := w.User("owner"), w.User("second"), w.User("member")
	o := w.org("acme", owner, user.VisibilityPublic)
	a := w.mustOpen(owner, "acme")
	crew := w.team(a, orgs.TeamInput{Name: "crew", Permission: "write"}, member)

	err := w.svc.Members().Remove(w.Ctx, a, owner)
	is.True(errors.Is(err, org.ErrLastOwner))
	is.True(errors.Is(err, errs.ErrConflict))

	owners, err := w.Stores.Orgs.OwnersTeam(w.Ctx, o.ID)
	is.NoErr(err)
	ownersAccess, err := w.svc.OpenTeam(w.Ctx, caller(owner), owners.ID)
	is.NoErr(err)
	is.NoErr(w.svc.TeamMembers().Add(w.Ctx, ownersAccess, second))
	is.NoErr(w.svc.Members().Remove(w.Ctx, a, owner)) // another owner remains
	m, err := w.Stores.Orgs.Membership(w.Ctx, o.ID, owner.ID)
	is.NoErr(err)
	is.True(!m.IsMember)

	is.NoErr(w.svc.Members().Remove(w.Ctx, a, member))
	is.True(errors.Is(w.svc.TeamMembers().Check(w.Ctx, crew, member), errs.ErrNotFound)) // out of its teams too
	err = w.svc.Members().Remove(w.Ctx, a, member)
	is.True(errors.Is(err, errs.ErrNotFound)) // no longer a member
}
