package contract

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// block records blocker's block of blockee.
func (f *fixture) block(blocker, blockee *user.User, note string) *user.Block {
	f.t.Helper()
	b := &user.Block{BlockerID: blocker.ID, BlockeeID: blockee.ID, Note: note, Created: at(40)}
	if err := f.Blocks.Block(f.ctx, b); err != nil {
		f.t.Fatalf("block %q by %q: %v", blockee.Name, blocker.Name, err)
	}
	if b.ID == 0 {
		f.t.Fatalf("block %q by %q: id not set", blockee.Name, blocker.Name)
	}
	return b
}

var blockTests = map[string]func(t *testing.T, f *fixture){
	"BlockCheckAndUnblock": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		f.block(alice, bob, "spam")

		ok, err := f.Blocks.IsBlocked(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.True(ok)
		ok, err = f.Blocks.IsBlocked(f.ctx, bob.ID, alice.ID)
		is.NoErr(err)
		is.True(!ok) // one direction only

		is.NoErr(f.Blocks.Unblock(f.ctx, alice.ID, bob.ID))
		ok, err = f.Blocks.IsBlocked(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.True(!ok)
		isCategory(is, f.Blocks.Unblock(f.ctx, alice.ID, bob.ID), errs.ErrNotFound, "user is not blocked")
		isCategory(is, f.Blocks.Unblock(f.ctx, alice.ID, carol.ID), errs.ErrNotFound, "user is not blocked")
	},
	"PairOnce": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		f.block(alice, bob, "")
		err := f.Blocks.Block(f.ctx, &user.Block{BlockerID: alice.ID, BlockeeID: bob.ID, Created: at(41)})
		isCategory(is, err, errs.ErrConflict, "user is already blocked")
		f.block(bob, alice, "") // the other direction is another pair
	},
	"MissingAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		err := f.Blocks.Block(f.ctx, &user.Block{BlockerID: alice.ID, BlockeeID: alice.ID + 1000, Created: at(41)})
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
	},
	"AnyAndEither": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol, dave := f.user("alice"), f.user("bob"), f.user("carol"), f.user("dave")
		f.block(carol, bob, "")

		ok, err := f.Blocks.IsBlockedByAny(f.ctx, bob.ID, []int64{alice.ID, carol.ID})
		is.NoErr(err)
		is.True(ok)
		ok, err = f.Blocks.IsBlockedByAny(f.ctx, bob.ID, []int64{alice.ID, dave.ID})
		is.NoErr(err)
		is.True(!ok)
		ok, err = f.Blocks.IsBlockedByAny(f.ctx, bob.ID, nil)
		is.NoErr(err)
		is.True(!ok)

		for _, pair := range [][2]*user.User{{carol, bob}, {bob, carol}} {
			ok, err = f.Blocks.IsBlockedEither(f.ctx, pair[0].ID, pair[1].ID)
			is.NoErr(err)
			is.True(ok) // whichever way round
		}
		ok, err = f.Blocks.IsBlockedEither(f.ctx, carol.ID, dave.ID)
		is.NoErr(err)
		is.True(!ok)
	},
	"ListInBlockOrderPaged": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		zed, bob, carol, other := f.user("zed"), f.user("bob"), f.user("carol"), f.user("other")
		for _, u := range []*user.User{zed, bob, carol} {
			f.block(alice, u, "")
		}
		f.block(other, bob, "")

		list, total, err := f.Blocks.List(f.ctx, alice.ID, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(ids(list, func(u *user.User) int64 { return u.ID }), []int64{zed.ID, bob.ID})
		is.Equal(list[0].Name, "zed") // whole accounts come back
		list, _, err = f.Blocks.List(f.ctx, alice.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, func(u *user.User) int64 { return u.ID }), []int64{carol.ID})
		list, total, err = f.Blocks.List(f.ctx, zed.ID, firstPage)
		is.NoErr(err)
		is.Equal(total, int64(0))
		is.Equal(len(list), 0)
	},
	"CascadeWithAccounts": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		f.block(alice, bob, "")
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		_, total, err := f.Blocks.List(f.ctx, alice.ID, firstPage)
		is.NoErr(err)
		is.Equal(total, int64(0))
	},
	"OrganisationBlocks": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner, bob := f.user("owner"), f.user("bob")
		o := f.orgCreate("acme", owner, user.VisibilityPublic)
		f.block(&o.User, bob, "")
		ok, err := f.Blocks.IsBlockedByAny(f.ctx, bob.ID, []int64{o.ID})
		is.NoErr(err)
		is.True(ok)
	},
	"SeverTies": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		ra, ra2 := f.repo(alice, "ra"), f.repo(alice, "ra2")
		rb := f.repo(bob, "rb")
		rc := f.repo(carol, "rc")
		// Ties between alice and bob, both ways, and ties with carol that stay.
		for _, s := range []struct {
			u *user.User
			r *repository.Repository
		}{{bob, ra}, {bob, ra2}, {alice, rb}, {carol, ra}, {bob, rc}, {alice, ra}} {
			is.NoErr(f.Stars.Star(f.ctx, s.u.ID, s.r.ID))
			is.NoErr(f.Watches.Watch(f.ctx, s.u.ID, s.r.ID))
		}
		for _, c := range []struct {
			u *user.User
			r *repository.Repository
		}{{bob, ra}, {alice, rb}, {carol, ra}, {bob, rc}} {
			is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: c.r.ID, UserID: c.u.ID, Mode: permission.ModeWrite}))
		}
		is.NoErr(f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: ra2.ID, DoerID: alice.ID, RecipientID: bob.ID, Created: at(30)}))
		is.NoErr(f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: rc.ID, DoerID: carol.ID, RecipientID: bob.ID, Created: at(30)}))
		// Issue assignments: bob and carol on alice's issue, alice on bob's.
		onRA := &issue.Issue{RepoID: ra.ID, PosterID: alice.ID, Title: "a", CreatedAt: at(31), UpdatedAt: at(31)}
		onRB := &issue.Issue{RepoID: rb.ID, PosterID: bob.ID, Title: "b", CreatedAt: at(31), UpdatedAt: at(31)}
		is.NoErr(f.Issues.Create(f.ctx, onRA))
		is.NoErr(f.Issues.Create(f.ctx, onRB))
		is.NoErr(f.Issues.SetAssignees(f.ctx, onRA.ID, []int64{bob.ID, carol.ID}))
		is.NoErr(f.Issues.SetAssignees(f.ctx, onRB.ID, []int64{alice.ID, bob.ID}))

		got, err := f.Blocks.SeverTies(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.Equal(got, ports.SeveredTies{Stars: 3, Watches: 3, Collaborations: 2, Transfers: 1, Assignments: 2})
		assigned, err := f.Issues.Assignees(f.ctx, []int64{onRA.ID, onRB.ID})
		is.NoErr(err)
		is.Equal(assigned[onRA.ID], []int64{carol.ID})
		is.Equal(assigned[onRB.ID], []int64{bob.ID})

		starred := func(u *user.User, r *repository.Repository) bool {
			ok, err := f.Stars.IsStarred(f.ctx, u.ID, r.ID)
			is.NoErr(err)
			return ok
		}
		is.True(!starred(bob, ra) && !starred(bob, ra2) && !starred(alice, rb))
		is.True(starred(carol, ra) && starred(bob, rc) && starred(alice, ra)) // others' and own stay
		_, err = f.Watches.Get(f.ctx, bob.ID, ra.ID)
		isCategory(is, err, errs.ErrNotFound, "watch does not exist")
		_, err = f.Watches.Get(f.ctx, carol.ID, ra.ID)
		is.NoErr(err)
		_, err = f.Collaborators.Get(f.ctx, ra.ID, bob.ID)
		isCategory(is, err, errs.ErrNotFound, "collaborator does not exist")
		_, err = f.Collaborators.Get(f.ctx, rb.ID, alice.ID)
		isCategory(is, err, errs.ErrNotFound, "collaborator does not exist")
		_, err = f.Collaborators.Get(f.ctx, rc.ID, bob.ID)
		is.NoErr(err)
		_, err = f.Transfers.Get(f.ctx, ra2.ID)
		isCategory(is, err, errs.ErrNotFound, "no pending transfer")
		_, err = f.Transfers.Get(f.ctx, rc.ID)
		is.NoErr(err)

		// The counters were recounted in the same call.
		r := f.getRepo(ra.ID)
		is.Equal([2]int{r.NumStars, r.NumWatches}, [2]int{2, 2}) // carol and alice
		r = f.getRepo(ra2.ID)
		is.Equal([2]int{r.NumStars, r.NumWatches}, [2]int{0, 0})
		is.Equal(f.getRepo(rb.ID).NumStars, 0)
		is.Equal(f.getRepo(rc.ID).NumStars, 1)
		for _, c := range []struct {
			u    *user.User
			want int
		}{{alice, 1}, {bob, 1}, {carol, 1}} {
			u, err := f.Users.GetByID(f.ctx, c.u.ID)
			is.NoErr(err)
			is.Equal(u.NumStars, c.want) // starred_repos_count
		}

		got, err = f.Blocks.SeverTies(f.ctx, bob.ID, alice.ID)
		is.NoErr(err)
		is.Equal(got, ports.SeveredTies{}) // nothing left to sever
	},
	"SeverTiesInTransaction": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		ra := f.repo(alice, "ra")
		is.NoErr(f.Stars.Star(f.ctx, bob.ID, ra.ID))
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if _, err := tx.Blocks.SeverTies(ctx, alice.ID, bob.ID); err != nil {
				return err
			}
			if err := tx.Blocks.Block(ctx, &user.Block{BlockerID: alice.ID, BlockeeID: bob.ID, Created: at(40)}); err != nil {
				return err
			}
			return errs.Conflict("roll back")
		})
		isCategory(is, err, errs.ErrConflict, "roll back")
		ok, err := f.Stars.IsStarred(f.ctx, bob.ID, ra.ID)
		is.NoErr(err)
		is.True(ok) // the severance rolled back with the block
		ok, err = f.Blocks.IsBlocked(f.ctx, alice.ID, bob.ID)
		is.NoErr(err)
		is.True(!ok)
		is.Equal(f.getRepo(ra.ID).NumStars, 1)
	},
}
