package contract

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ownerOf is what a repository carries of its owning account.
func ownerOf(u *user.User) repository.Owner {
	return repository.Owner{ID: u.ID, Name: u.Name, Kind: u.Kind, Visibility: u.Visibility}
}

// newRepo is a fully populated public source repository, so a round trip
// checks every column; counters start at zero as a new repository's do.
func newRepo(owner *user.User, name string) *repository.Repository {
	return &repository.Repository{
		Owner: ownerOf(owner), Name: name, LowerName: strings.ToLower(name),
		Description: "about " + name, Website: "https://example.com/" + strings.ToLower(name),
		Empty: true, MirrorInterval: "8h0m0s", OriginalURL: "https://example.org/" + name + ".git",
		DefaultBranch: "trunk", ObjectFormat: "sha1",
		Units: repository.DefaultUnits(),
		Tracker: repository.IssueTracker{
			ExternalURL: "https://tracker.example.com", Format: "https://tracker.example.com/{index}",
			Style: repository.TrackerRegexp, RegexpPattern: `#(\d+)`,
			EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true, EnableIssueDependencies: true,
		},
		ExternalWikiURL: "https://wiki.example.com/" + name,
		Merge: repository.MergeSettings{
			IgnoreWhitespaceConflicts: true, AllowMerge: true, AllowRebase: true, AllowRebaseMerge: true,
			AllowSquash: true, AllowFastForwardOnly: true, AllowRebaseUpdate: true, AllowManualMerge: true,
			AutodetectManualMerge: true, DefaultDeleteBranchAfterMerge: true, DefaultMergeStyle: "squash",
			DefaultAllowMaintainerEdit: true,
		},
		Avatar:  "avatar-" + name,
		Topics:  []string{"go", "hosting"},
		Created: at(10), Updated: at(11),
	}
}

func (f *fixture) repo(owner *user.User, name string, edit ...func(r *repository.Repository)) *repository.Repository {
	f.t.Helper()
	r := newRepo(owner, name)
	for _, e := range edit {
		e(r)
	}
	if err := f.Repos.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create repository %q: %v", name, err)
	}
	if r.ID == 0 {
		f.t.Fatalf("create repository %q: id not set", name)
	}
	return r
}

// getRepo reads a repository back, failing the test when it cannot.
func (f *fixture) getRepo(id int64) *repository.Repository {
	f.t.Helper()
	r, err := f.Repos.GetByID(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get repository %d: %v", id, err)
	}
	return r
}

func repoID(r *repository.Repository) int64 { return r.ID }

func private(r *repository.Repository) { r.Private = true }

var repoTests = map[string]func(t *testing.T, f *fixture){
	"CreateAndGetRoundTripsEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("Owner")
		parent := f.repo(owner, "parent")
		r := f.repo(owner, "Depot", func(r *repository.Repository) {
			r.Private, r.Template, r.Archived, r.ArchivedAt = true, true, true, at(12)
			r.IsMirror, r.ForkID, r.Empty = true, parent.ID, false
		})

		got, err := f.Repos.GetByID(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(*got, *r)

		got, err = f.Repos.GetByName(f.ctx, owner.ID, "Depot")
		is.NoErr(err)
		is.Equal(*got, *r)

		got, err = f.Repos.GetByFullName(f.ctx, "Owner", "Depot")
		is.NoErr(err)
		is.Equal(*got, *r)
		is.Equal(got.FullName(), "Owner/Depot")
	},
	"EmptyListsAndZeroTimesRoundTrip": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "bare", func(r *repository.Repository) {
			r.Units, r.Topics, r.Created, r.Updated, r.ArchivedAt = nil, nil, time.Time{}, time.Time{}, time.Time{}
		})
		got := f.getRepo(r.ID)
		is.Equal(len(got.Units), 0)
		is.Equal(len(got.Topics), 0)
		is.True(got.Created.IsZero())
		is.True(got.Updated.IsZero())
		is.True(got.ArchivedAt.IsZero())
	},
	"UnitsKeepTheirOrder": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		units := []permission.Unit{permission.UnitCode, permission.UnitExtWiki, permission.UnitExtIssues, permission.UnitActions}
		r := f.repo(owner, "units", func(r *repository.Repository) { r.Units = units })
		is.Equal(f.getRepo(r.ID).Units, units)
	},
	"LowerNameIsDerivedWhenEmpty": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		r := f.repo(owner, "MiXeD", func(r *repository.Repository) { r.LowerName = "" })
		is.Equal(r.LowerName, "mixed")
		got, err := f.Repos.GetByName(f.ctx, owner.ID, "mixed")
		is.NoErr(err)
		is.Equal(got.ID, r.ID)
		is.Equal(got.Name, "MiXeD")
	},
	"LookupsAreCaseInsensitive": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("Alice")
		r := f.repo(owner, "Project")
		for _, name := range []string{"project", "PROJECT", "pRoJeCt"} {
			got, err := f.Repos.GetByName(f.ctx, owner.ID, name)
			is.NoErr(err)
			is.Equal(got.ID, r.ID)
			for _, ownerName := range []string{"alice", "ALICE", "Alice"} {
				got, err = f.Repos.GetByFullName(f.ctx, ownerName, name)
				is.NoErr(err)
				is.Equal(got.ID, r.ID)
				is.Equal(got.Name, "Project") // the name keeps its spelling
				is.Equal(got.Owner.Name, "Alice")
			}
		}
	},
	"OwnerComesFromTheUsersTable": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("org", func(u *user.User) { u.Kind = user.KindOrganization; u.Visibility = user.VisibilityLimited })
		r := f.repo(owner, "repo")
		owner.Name, owner.LowerName, owner.Visibility = "Renamed", "renamed", user.VisibilityPrivate
		is.NoErr(f.Users.Update(f.ctx, owner))

		got, err := f.Repos.GetByFullName(f.ctx, "renamed", "repo")
		is.NoErr(err)
		is.Equal(got.Owner, repository.Owner{
			ID: owner.ID, Name: "Renamed", Kind: user.KindOrganization, Visibility: user.VisibilityPrivate,
		})
		is.Equal(f.getRepo(r.ID).Owner, got.Owner)
		_, err = f.Repos.GetByFullName(f.ctx, "org", "repo")
		isCategory(is, err, errs.ErrNotFound, "repository does not exist") // the old owner name is no lookup
	},
	"MissingIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		other := f.user("other")
		f.repo(owner, "mine")
		_, err := f.Repos.GetByID(f.ctx, 424242)
		isCategory(is, err, errs.ErrNotFound, "repository does not exist")
		_, err = f.Repos.GetByName(f.ctx, other.ID, "mine")
		isCategory(is, err, errs.ErrNotFound, "repository does not exist")
		_, err = f.Repos.GetByFullName(f.ctx, "other", "mine")
		isCategory(is, err, errs.ErrNotFound, "repository does not exist")
		_, err = f.Repos.GetByFullName(f.ctx, "nobody", "mine")
		isCategory(is, err, errs.ErrNotFound, "repository does not exist")
	},
	"NamesAreUniquePerOwnerWhateverTheCase": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		other := f.user("other")
		f.repo(owner, "taken")
		err := f.Repos.Create(f.ctx, newRepo(owner, "TAKEN"))
		isCategory(is, err, errs.ErrConflict, "repository already exists")
		f.repo(other, "taken") // another owner may use the name
	},
	"CreateForMissingOwnerIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ghost := newUser("ghost")
		ghost.ID = 424242
		err := f.Repos.Create(f.ctx, newRepo(ghost, "orphan"))
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"UpdateWritesEveryColumnButCountersSizeAndTopics": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		fan := f.user("fan")
		parent := f.repo(owner, "parent")
		r := f.repo(owner, "before")
		is.NoErr(f.Stars.Star(f.ctx, fan.ID, r.ID))
		is.NoErr(f.Repos.SetSize(f.ctx, r.ID, 4096))
		is.NoErr(f.Topics.Replace(f.ctx, r.ID, []string{"kept"}))
		want := f.getRepo(r.ID)

		r.Name, r.LowerName, r.Description, r.Website = "After", "after", "new words", ""
		r.Private, r.Template, r.Archived, r.ArchivedAt = true, true, true, at(20)
		r.Empty, r.IsMirror, r.MirrorInterval, r.OriginalURL, r.ForkID = false, true, "1h0m0s", "", parent.ID
		r.DefaultBranch, r.ObjectFormat, r.Units = "main", "sha256", []permission.Unit{permission.UnitCode}
		r.Tracker = repository.IssueTracker{Style: repository.TrackerNumeric}
		r.ExternalWikiURL, r.Avatar = "", ""
		r.Merge = repository.DefaultMergeSettings()
		r.Updated = at(21)
		// What Update must not write:
		r.NumStars, r.NumWatches, r.NumForks, r.NumIssues, r.NumClosedIssues = 90, 91, 92, 93, 94
		r.NumPulls, r.NumClosedPulls, r.NumMilestones, r.NumClosedMilestones, r.NumReleases = 95, 96, 97, 98, 99
		r.Size, r.Topics = 1, []string{"stale"}
		is.NoErr(f.Repos.Update(f.ctx, r))

		got := f.getRepo(r.ID)
		want.Name, want.LowerName, want.Description, want.Website = r.Name, r.LowerName, r.Description, r.Website
		want.Private, want.Template, want.Archived, want.ArchivedAt = r.Private, r.Template, r.Archived, r.ArchivedAt
		want.Empty, want.IsMirror, want.MirrorInterval, want.OriginalURL = r.Empty, r.IsMirror, r.MirrorInterval, r.OriginalURL
		want.ForkID, want.DefaultBranch, want.ObjectFormat, want.Units = r.ForkID, r.DefaultBranch, r.ObjectFormat, r.Units
		want.Tracker, want.ExternalWikiURL, want.Avatar, want.Merge, want.Updated = r.Tracker, r.ExternalWikiURL, r.Avatar, r.Merge, r.Updated
		is.Equal(*got, *want)
		is.Equal(got.NumStars, 1)
		is.Equal(got.Size, int64(4096))
		is.Equal(got.Topics, []string{"kept"})

		_, err := f.Repos.GetByName(f.ctx, owner.ID, "before")
		is.True(errors.Is(err, errs.ErrNotFound)) // the old name is gone
	},
	"UpdateMovesToANewOwner": func(t *testing.T, f *fixture) {
		is := is.New(t)
		from := f.user("from")
		to := f.user("to")
		r := f.repo(from, "moving")
		r.Owner = ownerOf(to)
		is.NoErr(f.Repos.Update(f.ctx, r))
		got, err := f.Repos.GetByFullName(f.ctx, "to", "moving")
		is.NoErr(err)
		is.Equal(got.Owner, ownerOf(to))
		_, err = f.Repos.GetByFullName(f.ctx, "from", "moving")
		is.True(errors.Is(err, errs.ErrNotFound))
	},
	"UpdateMissingOrToTakenName": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("owner")
		missing := newRepo(owner, "ghost")
		missing.ID = 424242
		isCategory(is, f.Repos.Update(f.ctx, missing), errs.ErrNotFound, "repository does not exist")

		f.repo(owner, "first")
		second := f.repo(owner, "second")
		second.Name, second.LowerName = "FIRST", "first"
		isCategory(is, f.Repos.Update(f.ctx, second), errs.ErrConflict, "repository already exists")
	},
	"DeleteCascadesAndRecounts":     testRepoDeleteCascades,
	"DeleteMissingIsNotFound":       testRepoDeleteMissing,
	"DeleteRollsBackWithItsTx":      testRepoDeleteInTx,
	"CountByOwner":                  testRepoCountByOwner,
	"NamesByOwners":                 testRepoNamesByOwners,
	"Relations":                     testRepoRelations,
	"RecountSocialAndSetSize":       testRepoRecountAndSize,
	"Redirects":                     testRepoRedirects,
	"UserOwningReposCannotBeDelete": testUserOwningRepos,
	"UserDeleteRecountsCounters":    testUserDeleteRecounts,
	"GetByFullNameInsideTx":         testRepoGetByFullNameInTx,
}

func testRepoGetByFullNameInTx(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
		r := newRepo(owner, "pending")
		if err := tx.Repos.Create(ctx, r); err != nil {
			return err
		}
		got, err := tx.Repos.GetByFullName(ctx, "owner", "pending")
		if err != nil {
			return err
		}
		is.Equal(got.ID, r.ID) // uncommitted work is visible inside
		got, err = f.Repos.GetByFullName(ctx, "OWNER", "Pending")
		if err != nil {
			return err
		}
		is.Equal(got.ID, r.ID) // also through the pools' stores given the tx's ctx
		return errBoom
	})
	is.True(errors.Is(err, errBoom))
	_, err = f.Repos.GetByFullName(f.ctx, "owner", "pending")
	is.True(errors.Is(err, errs.ErrNotFound))
}

// firstPage is the first page of fifty, as most listings here ask for it.
var firstPage = ports.ListOptions{Page: 1, Limit: 50}
