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
	"Relations":                     testRepoRelations,
	"RecountSocialAndSetSize":       testRepoRecountAndSize,
	"Redirects":                     testRepoRedirects,
	"UserOwningReposCannotBeDelete": testUserOwningRepos,
	"UserDeleteRecountsCounters":    testUserDeleteRecounts,
	"GetByFullNameInsideTx":         testRepoGetByFullNameInTx,
}

func testRepoDeleteCascades(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	parent := f.repo(owner, "parent")
	gone := f.repo(owner, "gone", func(r *repository.Repository) { r.ForkID = parent.ID })
	sibling := f.repo(owner, "sibling", func(r *repository.Repository) { r.ForkID = parent.ID })
	child := f.repo(fan, "child", func(r *repository.Repository) { r.ForkID = gone.ID })
	is.NoErr(f.Repos.RecountSocial(f.ctx, parent.ID))
	is.Equal(f.getRepo(parent.ID).NumForks, 2)

	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: gone.ID, UserID: fan.ID, Mode: permission.ModeWrite}))
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: sibling.ID, UserID: fan.ID, Mode: permission.ModeRead}))
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, gone.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, gone.ID))
	is.NoErr(f.DeployKeys.Create(f.ctx, newDeployKey(gone.ID, "ci", "SHA256:gone")))
	is.NoErr(f.Transfers.Create(f.ctx, &repository.Transfer{RepoID: gone.ID, DoerID: owner.ID, RecipientID: fan.ID, Created: at(30)}))
	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "old-gone", gone.ID))
	is.NoErr(f.Topics.Replace(f.ctx, gone.ID, []string{"shared", "only-gone"}))
	is.NoErr(f.Topics.Replace(f.ctx, sibling.ID, []string{"shared"}))

	is.NoErr(f.Repos.Delete(f.ctx, gone.ID))

	_, err := f.Repos.GetByID(f.ctx, gone.ID)
	isCategory(is, err, errs.ErrNotFound, "repository does not exist")
	_, err = f.Collaborators.Get(f.ctx, gone.ID, fan.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	starred, err := f.Stars.IsStarred(f.ctx, fan.ID, gone.ID)
	is.NoErr(err)
	is.True(!starred)
	_, err = f.Watches.Get(f.ctx, fan.ID, gone.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	keys, total, err := f.DeployKeys.List(f.ctx, gone.ID, "", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(keys), 0)
	is.Equal(total, int64(0))
	_, err = f.Transfers.Get(f.ctx, gone.ID)
	is.True(errors.Is(err, errs.ErrNotFound))
	_, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old-gone")
	is.True(errors.Is(err, errs.ErrNotFound))

	is.Equal(f.getRepo(parent.ID).NumForks, 1)     // the parent's counter is recounted
	is.Equal(f.getRepo(child.ID).ForkID, int64(0)) // a fork of the deleted repository stands alone
	topics, _, err := f.Topics.Search(f.ctx, "", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(topicCounts(topics), map[string]int{"shared": 1}) // only-gone is no longer used

	// The rest is untouched.
	c, err := f.Collaborators.Get(f.ctx, sibling.ID, fan.ID)
	is.NoErr(err)
	is.Equal(c.Mode, permission.ModeRead)
}

func testRepoDeleteMissing(t *testing.T, f *fixture) {
	is := is.New(t)
	isCategory(is, f.Repos.Delete(f.ctx, 424242), errs.ErrNotFound, "repository does not exist")
}

func testRepoDeleteInTx(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	parent := f.repo(owner, "parent")
	fork := f.repo(owner, "fork", func(r *repository.Repository) { r.ForkID = parent.ID })
	is.NoErr(f.Repos.RecountSocial(f.ctx, parent.ID))
	is.NoErr(f.Topics.Replace(f.ctx, fork.ID, []string{"t"}))

	err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.Delete(ctx, fork.ID); err != nil {
			return err
		}
		if _, err := tx.Repos.GetByID(ctx, fork.ID); !errors.Is(err, errs.ErrNotFound) {
			return errors.New("the delete is not visible inside its transaction")
		}
		return errBoom
	})
	is.True(errors.Is(err, errBoom))
	is.Equal(f.getRepo(fork.ID).Topics, []string{"t"}) // everything came back
	is.Equal(f.getRepo(parent.ID).NumForks, 1)
	topics, _, err := f.Topics.Search(f.ctx, "t", ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(topicCounts(topics), map[string]int{"t": 1})
}

func testRepoCountByOwner(t *testing.T, f *fixture) {
	is := is.New(t)
	a := f.user("a")
	b := f.user("b")
	f.repo(a, "one")
	f.repo(a, "two", private)
	f.repo(b, "three")
	for _, tc := range []struct {
		owner int64
		want  int64
	}{{a.ID, 2}, {b.ID, 1}, {424242, 0}} {
		n, err := f.Repos.CountByOwner(f.ctx, tc.owner)
		is.NoErr(err)
		is.Equal(n, tc.want)
	}
}

func testRepoRelations(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	collab := f.user("collab")
	stranger := f.user("stranger")
	r := f.repo(owner, "repo")
	other := f.repo(owner, "other")
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: collab.ID, Mode: permission.ModeAdmin}))

	cases := []struct {
		name string
		repo *repository.Repository
		user int64
		want permission.Relations
	}{
		{"owner", r, owner.ID, permission.Relations{IsOwner: true}},
		{"collaborator", r, collab.ID, permission.Relations{CollaboratorMode: permission.ModeAdmin}},
		{"collaborator elsewhere", other, collab.ID, permission.Relations{}},
		{"stranger", r, stranger.ID, permission.Relations{}},
		{"anonymous", r, 0, permission.Relations{}},
	}
	for _, tc := range cases {
		got, err := f.Repos.Relations(f.ctx, tc.repo.Facts(), tc.user)
		is.NoErr(err)
		is.Equal(got, tc.want) // tc.name
		pair := other
		if tc.repo.ID == other.ID {
			pair = r
		}
		many, err := f.Repos.RelationsMany(f.ctx, []permission.Repo{tc.repo.Facts(), pair.Facts()}, tc.user)
		is.NoErr(err)
		is.Equal(len(many), 2)
		is.Equal(many[tc.repo.ID], tc.want) // RelationsMany agrees with Relations
	}
	none, err := f.Repos.RelationsMany(f.ctx, nil, collab.ID)
	is.NoErr(err)
	is.Equal(len(none), 0)
}

func testRepoRecountAndSize(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	r := f.repo(owner, "repo")
	f.repo(fan, "fork1", func(x *repository.Repository) { x.ForkID = r.ID })
	f.repo(owner, "fork2", func(x *repository.Repository) { x.ForkID = r.ID })
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, r.ID))
	is.NoErr(f.Watches.Watch(f.ctx, owner.ID, r.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, r.ID))
	is.Equal(f.getRepo(r.ID).NumForks, 0) // creating a fork leaves the parent's counter to the caller

	is.NoErr(f.Repos.RecountSocial(f.ctx, r.ID))
	got := f.getRepo(r.ID)
	is.Equal([]int{got.NumStars, got.NumWatches, got.NumForks}, []int{1, 2, 2})
	isCategory(is, f.Repos.RecountSocial(f.ctx, 424242), errs.ErrNotFound, "repository does not exist")

	is.NoErr(f.Repos.SetSize(f.ctx, r.ID, 1<<40))
	is.Equal(f.getRepo(r.ID).Size, int64(1<<40)) // sizes beyond 32 bits
	isCategory(is, f.Repos.SetSize(f.ctx, 424242, 1), errs.ErrNotFound, "repository does not exist")
}

func testRepoRedirects(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	other := f.user("other")
	first := f.repo(owner, "first")
	second := f.repo(owner, "second")

	_, err := f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound))

	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "Old", first.ID))
	id, err := f.Repos.LookupRedirect(f.ctx, owner.ID, "OLD")
	is.NoErr(err)
	is.Equal(id, first.ID) // case-insensitive both ways
	_, err = f.Repos.LookupRedirect(f.ctx, other.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound)) // per owner

	is.NoErr(f.Repos.AddRedirect(f.ctx, owner.ID, "old", second.ID))
	id, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.NoErr(err)
	is.Equal(id, second.ID) // the latest rename wins

	is.NoErr(f.Repos.DeleteRedirect(f.ctx, owner.ID, "oLd"))
	_, err = f.Repos.LookupRedirect(f.ctx, owner.ID, "old")
	is.True(errors.Is(err, errs.ErrNotFound))
	is.NoErr(f.Repos.DeleteRedirect(f.ctx, owner.ID, "old")) // forgetting an absent name is fine

	err = f.Repos.AddRedirect(f.ctx, owner.ID, "dangling", 424242)
	is.True(errors.Is(err, errs.ErrNotFound)) // a redirect to no repository is refused
}

func testUserOwningRepos(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	r := f.repo(owner, "repo")
	isCategory(is, f.Users.Delete(f.ctx, owner.ID), errs.ErrConflict, "user still owns repositories")
	_, err := f.Users.GetByID(f.ctx, owner.ID)
	is.NoErr(err) // nothing was deleted
	f.getRepo(r.ID)

	is.NoErr(f.Repos.Delete(f.ctx, r.ID))
	is.NoErr(f.Users.Delete(f.ctx, owner.ID)) // once the repositories are gone it may go
}

func testUserDeleteRecounts(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	fan := f.user("fan")
	stays := f.user("stays")
	a := f.repo(owner, "a")
	b := f.repo(owner, "b")
	is.NoErr(f.Stars.Star(f.ctx, fan.ID, a.ID))
	is.NoErr(f.Stars.Star(f.ctx, stays.ID, a.ID))
	is.NoErr(f.Watches.Watch(f.ctx, fan.ID, b.ID))
	is.NoErr(f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: a.ID, UserID: fan.ID, Mode: permission.ModeWrite}))
	is.Equal(f.getRepo(a.ID).NumStars, 2)
	is.Equal(f.getRepo(b.ID).NumWatches, 1)

	is.NoErr(f.Users.Delete(f.ctx, fan.ID))

	is.Equal(f.getRepo(a.ID).NumStars, 1)
	is.Equal(f.getRepo(b.ID).NumWatches, 0)
	_, err := f.Collaborators.Get(f.ctx, a.ID, fan.ID)
	is.True(errors.Is(err, errs.ErrNotFound)) // collaborations go with the user
	gazers, total, err := f.Stars.Stargazers(f.ctx, a.ID, ports.ListOptions{Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(ids(gazers, userID), []int64{stays.ID})
	is.Equal(total, int64(1))
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

func topicCounts(ts []ports.TopicCount) map[string]int {
	out := map[string]int{}
	for _, t := range ts {
		out[t.Name] = t.RepoCount
	}
	return out
}

// searchWorld is a site with owners of every visibility, their public and
// private repositories, and a collaborator on two of the private ones.
type searchWorld struct {
	pub, lim, priv, other, collab *user.User
	// a..f: pub's public and private, lim's public and private, priv's public and private.
	a, b, c, d, e, g *repository.Repository
}

func newSearchWorld(f *fixture) *searchWorld {
	f.t.Helper()
	w := &searchWorld{}
	w.pub = f.user("pub")
	w.lim = f.user("lim", func(u *user.User) { u.Visibility = user.VisibilityLimited })
	w.priv = f.user("priv", func(u *user.User) { u.Visibility = user.VisibilityPrivate })
	w.other = f.user("other")
	w.collab = f.user("collab")
	w.a = f.repo(w.pub, "a")
	w.b = f.repo(w.pub, "b", private)
	w.c = f.repo(w.lim, "c")
	w.d = f.repo(w.lim, "d", private)
	w.e = f.repo(w.priv, "e")
	w.g = f.repo(w.priv, "g", private)
	for _, r := range []*repository.Repository{w.b, w.g} {
		if err := f.Collaborators.Set(f.ctx, repository.Collaborator{RepoID: r.ID, UserID: w.collab.ID, Mode: permission.ModeRead}); err != nil {
			f.t.Fatalf("set collaborator: %v", err)
		}
	}
	return w
}

// searchIDs runs a search with a large page and checks the total matches.
func searchIDs(t *testing.T, f *fixture, q ports.RepoSearch) []int64 {
	t.Helper()
	if q.Limit == 0 {
		q.ListOptions = ports.ListOptions{Page: 1, Limit: 50}
	}
	got, total, err := f.Repos.Search(f.ctx, q)
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	if total != int64(len(got)) {
		t.Fatalf("search: total %d for %d results on one page", total, len(got))
	}
	return ids(got, repoID)
}

func rids(rs ...*repository.Repository) []int64 {
	out := []int64{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

var repoSearchTests = map[string]func(t *testing.T, f *fixture){
	"Visibility": func(t *testing.T, f *fixture) {
		w := newSearchWorld(f)
		cases := []struct {
			name   string
			viewer ports.RepoViewer
			want   []int64
		}{
			{"anonymous", ports.RepoViewer{}, rids(w.a)},
			{"public-only token", ports.RepoViewer{UserID: w.other.ID, PublicOnly: true}, rids(w.a)},
			{"public-only token of a limited owner", ports.RepoViewer{UserID: w.lim.ID, PublicOnly: true}, rids(w.a)},
			{"public-only admin", ports.RepoViewer{UserID: w.other.ID, IsAdmin: true, PublicOnly: true}, rids(w.a)},
			{"other user", ports.RepoViewer{UserID: w.other.ID}, rids(w.a, w.c)},
			{"collaborator", ports.RepoViewer{UserID: w.collab.ID}, rids(w.a, w.b, w.c, w.g)},
			{"limited owner", ports.RepoViewer{UserID: w.lim.ID}, rids(w.a, w.c, w.d)},
			{"private owner", ports.RepoViewer{UserID: w.priv.ID}, rids(w.a, w.c, w.e, w.g)},
			{"admin", ports.RepoViewer{UserID: w.other.ID, IsAdmin: true}, rids(w.a, w.b, w.c, w.d, w.e, w.g)},
			{"restricted collaborator", ports.RepoViewer{UserID: w.collab.ID, Restricted: true}, rids(w.b, w.g)},
			{"restricted owner", ports.RepoViewer{UserID: w.pub.ID, Restricted: true}, rids(w.a, w.b)},
			{"restricted stranger", ports.RepoViewer{UserID: w.other.ID, Restricted: true}, rids()},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				is := is.New(t)
				is.Equal(searchIDs(t, f, ports.RepoSearch{Viewer: tc.viewer}), tc.want)
			})
		}
	},
	"Filters": func(t *testing.T, f *fixture) {
		w := newSearchWorld(f)
		yes, no := true, false
		tmpl := f.repo(w.pub, "Tmpl_100%", func(r *repository.Repository) {
			r.Template, r.Description = true, "A Template for Widgets"
		})
		arch := f.repo(w.pub, "archived", func(r *repository.Repository) { r.Archived = true })
		mirror := f.repo(w.pub, "mirror", func(r *repository.Repository) { r.IsMirror = true })
		fork := f.repo(w.other, "a-fork", func(r *repository.Repository) { r.ForkID = w.a.ID })
		otherFork := f.repo(w.other, "b-fork", func(r *repository.Repository) { r.ForkID = tmpl.ID })
		if err := f.Topics.Replace(f.ctx, mirror.ID, []string{"widgets", "go"}); err != nil {
			t.Fatalf("topics: %v", err)
		}
		if err := f.Topics.Replace(f.ctx, w.c.ID, []string{"widgets-extra"}); err != nil {
			t.Fatalf("topics: %v", err)
		}
		for _, r := range []*repository.Repository{w.c, arch} {
			if err := f.Stars.Star(f.ctx, w.other.ID, r.ID); err != nil {
				t.Fatalf("star: %v", err)
			}
		}
		for _, r := range []*repository.Repository{mirror, w.b} {
			if err := f.Watches.Watch(f.ctx, w.collab.ID, r.ID); err != nil {
				t.Fatalf("watch: %v", err)
			}
		}
		if err := f.Watches.Watch(f.ctx, w.collab.ID, w.a.ID); err != nil {
			t.Fatalf("watch: %v", err)
		}
		if err := f.Watches.Unwatch(f.ctx, w.collab.ID, w.a.ID); err != nil {
			t.Fatalf("unwatch: %v", err)
		}
		admin := ports.RepoViewer{UserID: w.other.ID, IsAdmin: true}

		cases := []struct {
			name string
			q    ports.RepoSearch
			want []int64
		}{
			{"keyword in name, any case", ports.RepoSearch{Keyword: "FORK"}, rids(fork, otherFork)},
			{"keyword in a topic, not in descriptions by default", ports.RepoSearch{Keyword: "widgets"}, rids(mirror)},
			{"keyword in description", ports.RepoSearch{Keyword: "WIDGETS", IncludeDescription: true}, rids(tmpl, mirror)},
			{"keyword pieces", ports.RepoSearch{Keyword: "widgets,,FORK"}, rids(mirror, fork, otherFork)},
			{"percent is literal", ports.RepoSearch{Keyword: "100%"}, rids(tmpl)},
			{"underscore is literal", ports.RepoSearch{Keyword: "_"}, rids(tmpl)},
			{"topic must match exactly", ports.RepoSearch{Keyword: "Widgets", TopicOnly: true, Viewer: admin}, rids(mirror)},
			{"topic only ignores names", ports.RepoSearch{Keyword: "fork", TopicOnly: true}, rids()},
			{"owned or collaborated", ports.RepoSearch{OwnerID: w.collab.ID, Viewer: admin}, rids(w.b, w.g)},
			{"owned only", ports.RepoSearch{OwnerID: w.pub.ID, Exclusive: true}, rids(w.a, tmpl, arch, mirror)},
			{"owned only, as the owner", ports.RepoSearch{OwnerID: w.pub.ID, Exclusive: true, Viewer: ports.RepoViewer{UserID: w.pub.ID}},
				rids(w.a, w.b, tmpl, arch, mirror)},
			{"collaborative", ports.RepoSearch{OwnerID: w.collab.ID, Collaborative: true, Viewer: admin}, rids(w.b, w.g)},
			{"collaborative, seen by the collaborator", ports.RepoSearch{
				OwnerID: w.collab.ID, Collaborative: true, Viewer: ports.RepoViewer{UserID: w.collab.ID},
			}, rids(w.b, w.g)},
			{"exclude private", ports.RepoSearch{OwnerID: w.pub.ID, Exclusive: true, ExcludePrivate: true, Viewer: admin},
				rids(w.a, tmpl, arch, mirror)},
			{"private", ports.RepoSearch{IsPrivate: &yes, Viewer: admin}, rids(w.b, w.d, w.g)},
			{"template", ports.RepoSearch{Template: &yes}, rids(tmpl)},
			{"not archived", ports.RepoSearch{Archived: &no, OwnerID: w.pub.ID, Exclusive: true}, rids(w.a, tmpl, mirror)},
			{"archived", ports.RepoSearch{Archived: &yes}, rids(arch)},
			{"mirror", ports.RepoSearch{Mirror: &yes}, rids(mirror)},
			{"forks", ports.RepoSearch{Fork: &yes}, rids(fork, otherFork)},
			{"sources", ports.RepoSearch{Fork: &no, OwnerID: w.other.ID}, rids()},
			{"fork of", ports.RepoSearch{ForkOf: w.a.ID}, rids(fork)},
			{"starred by", ports.RepoSearch{StarredBy: w.other.ID, Viewer: ports.RepoViewer{UserID: w.other.ID}}, rids(w.c, arch)},
			{"watched by", ports.RepoSearch{WatchedBy: w.collab.ID, Viewer: admin}, rids(w.b, mirror)},
			{"watched by, seen anonymously", ports.RepoSearch{WatchedBy: w.collab.ID}, rids(mirror)},
			{"filters combine", ports.RepoSearch{Keyword: "a", OwnerID: w.pub.ID, Exclusive: true, Archived: &no}, rids(w.a)},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				is := is.New(t)
				is.Equal(searchIDs(t, f, tc.q), tc.want)
			})
		}
	},
	"Sorts": func(t *testing.T, f *fixture) {
		owner := f.user("owner")
		fan1 := f.user("fan1")
		fan2 := f.user("fan2")
		// Values per repository: name, created, updated, size, stars, forks.
		r1 := f.repo(owner, "Charlie", func(r *repository.Repository) { r.Created, r.Updated = at(3), at(4) })
		r2 := f.repo(owner, "alpha", func(r *repository.Repository) { r.Created, r.Updated = at(1), at(9) })
		r3 := f.repo(owner, "Bravo", func(r *repository.Repository) { r.Created, r.Updated = at(2), at(1) })
		r4 := f.repo(owner, "delta", func(r *repository.Repository) { r.Created, r.Updated = at(3), at(4) })
		f.repo(fan1, "fork-a", func(r *repository.Repository) { r.ForkID = r3.ID; r.Created = at(50); r.Updated = at(50) })
		f.repo(fan2, "fork-b", func(r *repository.Repository) { r.ForkID = r3.ID; r.Created = at(50); r.Updated = at(50) })
		f.repo(fan1, "fork-c", func(r *repository.Repository) { r.ForkID = r1.ID; r.Created = at(50); r.Updated = at(50) })
		for _, r := range []*repository.Repository{r1, r3} {
			if err := f.Repos.RecountSocial(f.ctx, r.ID); err != nil {
				t.Fatalf("recount: %v", err)
			}
		}
		for _, s := range []struct{ user, repo int64 }{{fan1.ID, r4.ID}, {fan2.ID, r4.ID}, {fan1.ID, r2.ID}} {
			if err := f.Stars.Star(f.ctx, s.user, s.repo); err != nil {
				t.Fatalf("star: %v", err)
			}
		}
		for _, s := range []struct{ repo, size int64 }{{r1.ID, 300}, {r2.ID, 100}, {r3.ID, 400}, {r4.ID, 200}} {
			if err := f.Repos.SetSize(f.ctx, s.repo, s.size); err != nil {
				t.Fatalf("set size: %v", err)
			}
		}
		cases := []struct {
			sort string
			want []int64 // ascending; Desc must be the exact reverse
		}{
			{"", rids(r1, r2, r3, r4)},
			{"id", rids(r1, r2, r3, r4)},
			{"alpha", rids(r2, r3, r1, r4)},
			{"created", rids(r2, r3, r1, r4)}, // r1 and r4 tie, broken by id
			{"updated", rids(r3, r1, r4, r2)}, // r1 and r4 tie, broken by id
			{"size", rids(r2, r4, r1, r3)},
			{"stars", rids(r1, r3, r2, r4)},        // r1 and r3 have none
			{"forks", rids(r2, r4, r1, r3)},        // r2 and r4 have none
			{"no-such-sort", rids(r1, r2, r3, r4)}, // unknown sorts fall back to id
		}
		for _, tc := range cases {
			t.Run("sort "+tc.sort, func(t *testing.T) {
				is := is.New(t)
				q := ports.RepoSearch{Sort: tc.sort, OwnerID: owner.ID, Exclusive: true}
				is.Equal(searchIDs(t, f, q), tc.want)
				q.Desc = true
				desc := make([]int64, len(tc.want))
				for i, id := range tc.want {
					desc[len(desc)-1-i] = id
				}
				is.Equal(searchIDs(t, f, q), desc)
			})
		}
	},
	"Pagination": func(t *testing.T, f *fixture) {
		owner := f.user("owner")
		var all []int64
		for _, n := range []string{"r1", "r2", "r3", "r4", "r5"} {
			all = append(all, f.repo(owner, n).ID)
		}
		f.repo(owner, "hidden", private)
		cases := []struct {
			page, limit int
			want        []int64
		}{
			{1, 2, all[0:2]},
			{2, 2, all[2:4]},
			{3, 2, all[4:5]},
			{4, 2, []int64{}},
			{0, 3, all[0:3]},
			{1, 10, all},
		}
		for _, tc := range cases {
			is := is.New(t)
			got, total, err := f.Repos.Search(f.ctx, ports.RepoSearch{ListOptions: ports.ListOptions{Page: tc.page, Limit: tc.limit}})
			is.NoErr(err)
			is.Equal(ids(got, repoID), tc.want)
			is.Equal(total, int64(5)) // the total ignores the page but not visibility
		}
	},
	"ResultsCarryOwnerAndTopics": func(t *testing.T, f *fixture) {
		is := is.New(t)
		owner := f.user("Owner", func(u *user.User) { u.Visibility = user.VisibilityLimited })
		r := f.repo(owner, "repo")
		is.NoErr(f.Topics.Replace(f.ctx, r.ID, []string{"b", "a"}))
		got, _, err := f.Repos.Search(f.ctx, ports.RepoSearch{Viewer: ports.RepoViewer{UserID: owner.ID}})
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].Owner, ownerOf(owner))
		is.Equal(got[0].Topics, []string{"a", "b"})
		want := *f.getRepo(r.ID)
		is.Equal(*got[0], want) // the listing reads the same row as a lookup
	},
}
