package repos_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// Forks: into the caller's account, or an organisation the caller owns or
// may create repositories in; never into the parent's owner, twice into one
// account, over a taken name or into another individual's account.
func TestForkPolicyIntoOwnAccount(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	parent := w.repo(alice, "tool")

	fork, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{})
	is.NoErr(err)
	is.Equal(fork.Owner.ID, bob.ID)
	is.Equal(fork.Name, "tool")
	is.Equal(fork.ForkID, parent.ID)
	is.Equal(w.stored(parent.ID).NumForks, 1)
	is.True(w.git.has(pathOf("bob", "tool")))
	watch, err := w.Stores.Watches.Get(w.Ctx, bob.ID, fork.ID)
	is.NoErr(err) // the creator watches its fork
	is.Equal(watch.RepoID, fork.ID)

	_, err = w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{Name: "tool-2"})
	is.True(errors.Is(err, errs.ErrConflict)) // one fork per account
}

func TestForkPolicyNotIntoTheParentsOwner(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice := w.User("alice")
	parent := w.repo(alice, "tool")

	_, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(alice, parent), repos.ForkInput{Name: "tool-copy"})
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(errs.Message(err), "cannot fork a repository into its own owner")
	is.Equal(w.stored(parent.ID).NumForks, 0)
}

func TestForkPolicyNameTakenInTarget(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	parent := w.repo(alice, "tool")
	w.repo(bob, "tool")

	_, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{})
	is.True(errors.Is(err, errs.ErrConflict))
	is.Equal(errs.Message(err), "repository with the same name already exists")

	fork, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{Name: "tool-fork"})
	is.NoErr(err) // under another name it goes
	is.Equal(fork.Name, "tool-fork")
}

func TestForkPolicyIntoAnotherUsersAccountIsForbidden(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, bob, carol := w.User("alice"), w.User("bob"), w.User("carol")
	parent := w.repo(alice, "tool")

	_, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{Organization: carol.Name})
	is.True(errors.Is(err, errs.ErrForbidden))
	_, err = w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{Organization: "nobody"})
	is.True(errors.Is(err, errs.ErrInvalid))
	n, err := w.Stores.Repos.CountByOwner(w.Ctx, carol.ID)
	is.NoErr(err)
	is.Equal(n, int64(0))
}

func TestForkPolicyIntoOrganisation(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	alice, owner, creator, member, outsider := w.User("alice"), w.User("owner"), w.User("creator"), w.User("member"), w.User("outsider")
	parent := w.repo(alice, "tool")
	o := w.org("acme", owner)
	w.team(o, "builders", permission.ModeWrite, true, creator)
	w.team(o, "readers", permission.ModeRead, false, member)

	_, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(outsider, parent), repos.ForkInput{Organization: "acme"})
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "Must be an organization member")

	_, err = w.svc.Forks().Create(w.Ctx, w.mustOpen(member, parent), repos.ForkInput{Organization: "acme"})
	is.True(errors.Is(err, errs.ErrForbidden))
	is.Equal(errs.Message(err), "Given user is not allowed to create repository in organization acme.")

	fork, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(creator, parent), repos.ForkInput{Organization: "acme"})
	is.NoErr(err) // a team allowed to create repositories
	is.Equal(fork.Owner.ID, o.ID)

	other := w.repo(alice, "lib")
	fork, err = w.svc.Forks().Create(w.Ctx, w.mustOpen(owner, other), repos.ForkInput{Organization: "ACME"})
	is.NoErr(err) // an owner of the organisation
	is.Equal(fork.Owner.ID, o.ID)
}

func TestForkPolicyOfPrivateOrganisationStaysPrivate(t *testing.T) {
	is := is.New(t)
	w := newWorld(t)
	owner, bob := w.User("owner"), w.User("bob")
	o := w.org("hidden", owner)
	o.Visibility = "private"
	w.Must(w.Stores.Orgs.Update(w.Ctx, o))
	team := w.team(o, "readers", permission.ModeRead, false, bob)
	parent := w.repo(&o.User, "tool")
	w.Must(w.Stores.Orgs.AddTeamRepo(w.Ctx, team.ID, parent.ID))

	fork, err := w.svc.Forks().Create(w.Ctx, w.mustOpen(bob, parent), repos.ForkInput{})
	is.NoErr(err)
	is.True(fork.Private) // it would otherwise publish what the organisation hides
}
