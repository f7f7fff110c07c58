package contract

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// tagRule makes a rule of repoID with these allowlists.
func (f *fixture) tagRule(repoID int64, pattern string, users, teams []int64) *protection.TagRule {
	f.t.Helper()
	r := &protection.TagRule{RepoID: repoID, NamePattern: pattern, AllowlistUserIDs: users, AllowlistTeamIDs: teams,
		Created: at(20), Updated: at(21)}
	if err := f.TagProtections.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create tag protection %q: %v", pattern, err)
	}
	if r.ID == 0 {
		f.t.Fatalf("create tag protection %q: id not set", pattern)
	}
	return r
}

func tagRuleID(r *protection.TagRule) int64 { return r.ID }

var tagProtectionTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndList": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		devs := f.orgTeam(o, "devs", permission.ModeWrite, false, bob)
		r := f.repo(&o.User, "code")
		other := f.repo(&o.User, "other")
		// Allowlists come back sorted by id, without repeats.
		r1 := f.tagRule(r.ID, "v*", []int64{bob.ID, alice.ID, bob.ID}, []int64{devs.ID})
		r2 := f.tagRule(r.ID, "/^rc-[0-9]+$/", []int64{alice.ID}, nil)
		r3 := f.tagRule(r.ID, "frozen", nil, []int64{devs.ID})
		f.tagRule(other.ID, "v*", nil, nil) // patterns are unique per repository only

		got, err := f.TagProtections.Get(f.ctx, r.ID, r1.ID)
		is.NoErr(err)
		is.Equal(got.NamePattern, "v*")
		is.Equal(got.RepoID, r.ID)
		is.Equal(got.AllowlistUserIDs, []int64{alice.ID, bob.ID})
		is.Equal(got.AllowlistTeamIDs, []int64{devs.ID})
		is.True(got.Created.Equal(at(20)))
		is.True(got.Updated.Equal(at(21)))
		_, err = f.TagProtections.Get(f.ctx, other.ID, r1.ID)
		isCategory(is, err, errs.ErrNotFound, "tag protection does not exist") // another repository's rule

		list, total, err := f.TagProtections.List(f.ctx, r.ID, firstPage)
		is.NoErr(err)
		is.Equal(ids(list, tagRuleID), []int64{r1.ID, r2.ID, r3.ID})
		is.Equal(total, int64(3))
		is.Equal(list[1].AllowlistUserIDs, []int64{alice.ID})
		is.Equal(len(list[1].AllowlistTeamIDs), 0)
		is.Equal(len(list[2].AllowlistUserIDs), 0)
		is.Equal(list[2].AllowlistTeamIDs, []int64{devs.ID})

		list, total, err = f.TagProtections.List(f.ctx, r.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, tagRuleID), []int64{r3.ID})
		is.Equal(total, int64(3))

		all, err := f.TagProtections.ListAll(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(ids(all, tagRuleID), []int64{r1.ID, r2.ID, r3.ID})
		is.Equal(all[0].AllowlistUserIDs, []int64{alice.ID, bob.ID})

		none, err := f.TagProtections.ListAll(f.ctx, f.repo(alice, "empty").ID)
		is.NoErr(err)
		is.Equal(len(none), 0)
	},
	"PatternIsUniquePerRepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "repo")
		f.tagRule(r.ID, "v*", []int64{alice.ID}, nil)
		err := f.TagProtections.Create(f.ctx, &protection.TagRule{RepoID: r.ID, NamePattern: "v*", Created: at(1), Updated: at(1)})
		isCategory(is, err, errs.ErrConflict, "tag protection already exists")
		// Patterns compare exactly: another case is another pattern.
		f.tagRule(r.ID, "V*", nil, nil)
		all, err := f.TagProtections.ListAll(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(len(all), 2) // the refused rule left nothing behind
	},
	"UpdateReplacesAllowlists": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		devs := f.orgTeam(o, "devs", permission.ModeWrite, false)
		ops := f.orgTeam(o, "ops", permission.ModeWrite, false)
		r := f.repo(&o.User, "code")
		rule := f.tagRule(r.ID, "v*", []int64{alice.ID, bob.ID}, []int64{devs.ID})
		taken := f.tagRule(r.ID, "rc-*", nil, nil)

		rule.NamePattern = "/^v[0-9]+$/"
		rule.AllowlistUserIDs = []int64{carol.ID}
		rule.AllowlistTeamIDs = []int64{ops.ID, devs.ID}
		rule.Updated = at(30)
		is.NoErr(f.TagProtections.Update(f.ctx, rule))
		got, err := f.TagProtections.Get(f.ctx, r.ID, rule.ID)
		is.NoErr(err)
		is.Equal(got.NamePattern, "/^v[0-9]+$/")
		is.Equal(got.AllowlistUserIDs, []int64{carol.ID})
		is.Equal(got.AllowlistTeamIDs, []int64{devs.ID, ops.ID})
		is.True(got.Created.Equal(at(20))) // kept
		is.True(got.Updated.Equal(at(30)))

		got.AllowlistUserIDs, got.AllowlistTeamIDs = nil, nil
		is.NoErr(f.TagProtections.Update(f.ctx, got))
		got, err = f.TagProtections.Get(f.ctx, r.ID, rule.ID)
		is.NoErr(err)
		is.Equal(len(got.AllowlistUserIDs)+len(got.AllowlistTeamIDs), 0) // emptied

		// Taking another rule's pattern is a conflict and changes nothing.
		got.NamePattern, got.AllowlistUserIDs = taken.NamePattern, []int64{alice.ID}
		err = f.TagProtections.Update(f.ctx, got)
		isCategory(is, err, errs.ErrConflict, "tag protection already exists")
		got, err = f.TagProtections.Get(f.ctx, r.ID, rule.ID)
		is.NoErr(err)
		is.Equal(got.NamePattern, "/^v[0-9]+$/")
		is.Equal(len(got.AllowlistUserIDs), 0)

		// Another repository's rule cannot be updated through this one.
		stray := *got
		stray.RepoID = f.repo(alice, "mine").ID
		err = f.TagProtections.Update(f.ctx, &stray)
		isCategory(is, err, errs.ErrNotFound, "tag protection does not exist")
	},
	"MissingUsersAndTeamsAreRefused": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "repo")
		err := f.TagProtections.Create(f.ctx, &protection.TagRule{RepoID: r.ID, NamePattern: "v*",
			AllowlistUserIDs: []int64{alice.ID, alice.ID + 1000}, Created: at(1), Updated: at(1)})
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
		err = f.TagProtections.Create(f.ctx, &protection.TagRule{RepoID: r.ID, NamePattern: "v*",
			AllowlistTeamIDs: []int64{4242}, Created: at(1), Updated: at(1)})
		isCategory(is, err, errs.ErrNotFound, "team does not exist")
		err = f.TagProtections.Create(f.ctx, &protection.TagRule{RepoID: r.ID + 1000, NamePattern: "v*", Created: at(1), Updated: at(1)})
		is.True(errors.Is(err, errs.ErrNotFound)) // no such repository
		all, err := f.TagProtections.ListAll(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(len(all), 0) // nothing half-written
	},
	"DeleteAndCascades": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
		o := f.orgCreate("acme", alice, user.VisibilityPublic)
		devs := f.orgTeam(o, "devs", permission.ModeWrite, false)
		ops := f.orgTeam(o, "ops", permission.ModeWrite, false)
		r := f.repo(&o.User, "code")
		keep := f.tagRule(r.ID, "v*", []int64{bob.ID, carol.ID}, []int64{devs.ID, ops.ID})
		gone := f.tagRule(r.ID, "rc-*", []int64{bob.ID}, nil)

		err := f.TagProtections.Delete(f.ctx, f.repo(alice, "mine").ID, gone.ID)
		isCategory(is, err, errs.ErrNotFound, "tag protection does not exist") // another repository's
		is.NoErr(f.TagProtections.Delete(f.ctx, r.ID, gone.ID))
		_, err = f.TagProtections.Get(f.ctx, r.ID, gone.ID)
		isCategory(is, err, errs.ErrNotFound, "tag protection does not exist")
		err = f.TagProtections.Delete(f.ctx, r.ID, gone.ID)
		isCategory(is, err, errs.ErrNotFound, "tag protection does not exist")

		// A deleted user or team leaves the allowlists.
		is.NoErr(f.Users.Delete(f.ctx, carol.ID))
		is.NoErr(f.Orgs.DeleteTeam(f.ctx, ops.ID))
		got, err := f.TagProtections.Get(f.ctx, r.ID, keep.ID)
		is.NoErr(err)
		is.Equal(got.AllowlistUserIDs, []int64{bob.ID})
		is.Equal(got.AllowlistTeamIDs, []int64{devs.ID})

		// The rules go with their repository.
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		all, err := f.TagProtections.ListAll(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(len(all), 0)
	},
	"WritesJoinTheTransaction": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "repo")
		boom := errors.New("boom")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.TagProtections.Create(ctx, &protection.TagRule{RepoID: r.ID, NamePattern: "v*",
				AllowlistUserIDs: []int64{alice.ID}, Created: at(1), Updated: at(1)}); err != nil {
				return err
			}
			return boom
		})
		is.True(errors.Is(err, boom))
		all, err := f.TagProtections.ListAll(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(len(all), 0) // rolled back
	},
}
