package repos_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// Repository transfers: an offer to another user waits for that user; a
// transfer the caller administers both ends of (a site admin, or to itself,
// or to an organisation it may create repositories in) happens at once;
// blocked recipients, other organisations, the current owner and a taken
// name are refused. (Who may start
// a transfer at all, the owner, is the route's access code.)
func TestTransferPolicyOfferWaitsForTheRecipient(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool")

	res, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), "bob")
	is.NoErr(err)
	is.True(res.Pending)
	got := w.stored(r.ID)
	is.Equal(got.Owner.ID, alice.ID) // not moved yet
	is.Equal(got.PendingTransferTo, bob.ID)
	tr, err := w.Stores.Transfers.Get(w.Ctx, r.ID)
	is.NoErr(err)
	is.Equal([]int64{tr.DoerID, tr.RecipientID}, []int64{alice.ID, bob.ID})

	// A second offer waits for the first to be answered.
	carol := w.User("carol")
	_, err = w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), carol.Name)
	is.True(errors.Is(err, errs.ErrConflict))
}

func TestTransferPolicyRecipientAcceptsAndOthersMayNot(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, mallory := w.User("alice"), w.User("bob"), w.User("mallory")
	r := w.repo(alice, "tool")
	w.Must(w.Stores.Collaborators.Set(w.Ctx, repository.Collaborator{RepoID: r.ID, UserID: bob.ID, Mode: permission.ModeWrite}))
	w.Must(w.Stores.Collaborators.Set(w.Ctx, repository.Collaborator{RepoID: r.ID, UserID: mallory.ID, Mode: permission.ModeRead}))
	_, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), "bob")
	is.NoErr(err)

	_, err = w.svc.Transfers().Accept(w.Ctx, w.mustOpen(mallory, r))
	is.True(errors.Is(err, errs.ErrForbidden)) // only the recipient answers
	_, err = w.svc.Transfers().Accept(w.Ctx, w.mustOpen(alice, r))
	is.True(errors.Is(err, errs.ErrForbidden)) // nor does the one who offered

	moved, err := w.svc.Transfers().Accept(w.Ctx, w.mustOpen(bob, r))
	is.NoErr(err)
	is.Equal(moved.Owner.ID, bob.ID)
	got := w.stored(r.ID)
	is.Equal(got.Owner.ID, bob.ID)
	is.Equal(got.PendingTransferTo, int64(0))
	_, err = w.Stores.Collaborators.Get(w.Ctx, r.ID, bob.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // the new owner needs no collaboration
	id, err := w.Stores.Repos.LookupRedirect(w.Ctx, alice.ID, "tool")
	is.NoErr(err)
	is.Equal(id, r.ID) // the old path redirects
	is.True(w.git.has(pathOf("bob", "tool")))
	is.True(!w.git.has(pathOf("alice", "tool")))
}

func TestTransferPolicyRecipientRejects(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool")
	_, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), "bob")
	is.NoErr(err)

	_, err = w.svc.Transfers().Reject(w.Ctx, w.mustOpen(bob, r))
	is.NoErr(err)
	_, err = w.Stores.Transfers.Get(w.Ctx, r.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(w.stored(r.ID).Owner.ID, alice.ID)
}

func TestTransferPolicyRecipientSeesOfferedPrivateRepository(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "secret", private)
	_, err := w.open(bob, r)
	is.True(errors.Is(err, errs.ErrNotFound))

	_, err = w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), "bob")
	is.NoErr(err)
	a, err := w.open(bob, r)
	is.NoErr(err)
	is.True(a.Perm.CanRead(permission.UnitCode)) // read while the offer stands
	is.True(!a.Perm.CanWrite(permission.UnitCode))
}

func TestTransferPolicyBlockedRecipientRefuses(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool")
	w.block(bob, alice)

	_, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(alice, r), "bob")
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "user is blocked")
	is.Equal(w.stored(r.ID).PendingTransferTo, int64(0))
}

func TestTransferPolicyOrganisationTakesWhatItsCreatorsBring(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, carol, root := w.User("alice"), w.User("bob"), w.User("carol"), w.User("root", admin)
	o := w.org("acme", alice)
	w.team(o, "makers", permission.ModeWrite, true, bob)
	w.team(o, "readers", permission.ModeRead, false, carol)

	// A member who may not create repositories in the organisation cannot
	// offer one to it: 403, nothing moves.
	r := w.repo(carol, "tool")
	_, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(carol, r), o.Name)
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(w.stored(r.ID).Owner.ID, carol.ID)

	// An owner, a member of a team that creates repositories and a site
	// administrator each move one at once, as Gitea's StartRepositoryTransfer.
	for _, u := range []*user.User{alice, bob, root} {
		r := w.repo(u, "tool-"+u.Name)
		if u == root {
			r = w.repo(carol, "tool-of-carol")
		}
		res, err := w.svc.Transfers().Start(w.Ctx, w.mustOpen(u, r), o.Name)
		is.NoErr(err)
		is.True(!res.Pending)
		is.Equal(w.stored(r.ID).Owner.ID, o.ID)
	}
}

func TestTransferPolicyRefusesCurrentOwnerTakenNameAndUnknownUser(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "tool")
	w.repo(bob, "tool")
	a := w.mustOpen(alice, r)

	_, err := w.svc.Transfers().Start(w.Ctx, a, "alice")
	is.True(errors.Is(err, errs.ErrInvalid)) // the current owner
	_, err = w.svc.Transfers().Start(w.Ctx, a, "bob")
	is.True(errors.Is(err, errs.ErrInvalid)) // bob has a "tool" already
	_, err = w.svc.Transfers().Start(w.Ctx, a, "nobody")
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = w.Stores.Transfers.Get(w.Ctx, r.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // no offer was recorded
}
