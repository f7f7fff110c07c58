package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/release"
)

// release stores a release of repoID for tag, created at minute m, edited by edit.
func (f *fixture) release(repoID, publisherID int64, tag string, m int, edit ...func(r *release.Release)) *release.Release {
	f.t.Helper()
	r := &release.Release{RepoID: repoID, PublisherID: publisherID, TagName: tag, Target: "main",
		Title: "Release " + tag, Note: "notes", Sha1: "0123456789abcdef0123456789abcdef01234567",
		Created: at(m), Published: at(m)}
	for _, e := range edit {
		e(r)
	}
	if err := f.Releases.Create(f.ctx, r); err != nil {
		f.t.Fatalf("create release %q: %v", tag, err)
	}
	return r
}

func releaseID(r *release.Release) int64 { return r.ID }

func draft(r *release.Release)      { r.IsDraft, r.Published, r.Sha1 = true, time.Time{}, "" }
func prerelease(r *release.Release) { r.IsPrerelease = true }

var releaseTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndByTag": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r, other := f.repo(alice, "code"), f.repo(alice, "other")
		v1 := f.release(r.ID, alice.ID, "v1.0", 1, func(r *release.Release) { r.HideArchiveLinks = true })
		d := f.release(r.ID, alice.ID, "v2.0", 2, draft)

		got, err := f.Releases.Get(f.ctx, r.ID, v1.ID)
		is.NoErr(err)
		is.Equal(*got, *v1)
		got, err = f.Releases.GetByTag(f.ctx, r.ID, "v2.0")
		is.NoErr(err)
		is.Equal(got.ID, d.ID)
		is.True(got.IsDraft)
		is.True(got.Published.IsZero())

		_, err = f.Releases.Get(f.ctx, other.ID, v1.ID)
		isCategory(is, err, errs.ErrNotFound, "release does not exist")
		_, err = f.Releases.GetByTag(f.ctx, r.ID, "V1.0") // tags are case-sensitive
		isCategory(is, err, errs.ErrNotFound, "release does not exist")

		// One release per tag and repository.
		err = f.Releases.Create(f.ctx, &release.Release{RepoID: r.ID, PublisherID: alice.ID, TagName: "v1.0", Created: at(3)})
		isCategory(is, err, errs.ErrConflict, "release already exists")
		f.release(other.ID, alice.ID, "v1.0", 3)
	},
	"ListFiltersAndPages": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "code")
		a := f.release(r.ID, alice.ID, "v1.0", 1)
		b := f.release(r.ID, alice.ID, "v1.1-rc1", 2, prerelease, func(r *release.Release) { r.Title = "Candidate" })
		c := f.release(r.ID, alice.ID, "v2.0", 3, draft)
		d := f.release(r.ID, alice.ID, "v1.1", 2) // same instant as b: the later id first
		f.release(f.repo(alice, "other").ID, alice.ID, "v9", 9)

		list := func(fl release.Filter, opts ...int) ([]int64, int64) {
			t.Helper()
			o := firstPage
			if len(opts) == 2 {
				o.Page, o.Limit = opts[0], opts[1]
			}
			got, total, err := f.Releases.List(f.ctx, r.ID, fl, o)
			is.NoErr(err)
			return ids(got, releaseID), total
		}
		yes, no := true, false
		got, total := list(release.Filter{})
		is.Equal(got, []int64{d.ID, b.ID, a.ID})
		is.Equal(total, int64(3))
		got, total = list(release.Filter{IncludeDrafts: true})
		is.Equal(got, []int64{c.ID, d.ID, b.ID, a.ID})
		is.Equal(total, int64(4))
		got, _ = list(release.Filter{IncludeDrafts: true, Draft: &yes})
		is.Equal(got, []int64{c.ID})
		got, _ = list(release.Filter{Draft: &yes}) // drafts not included: none
		is.Equal(len(got), 0)
		got, _ = list(release.Filter{IncludeDrafts: true, Prerelease: &no})
		is.Equal(got, []int64{c.ID, d.ID, a.ID})
		got, _ = list(release.Filter{Prerelease: &yes})
		is.Equal(got, []int64{b.ID})
		got, _ = list(release.Filter{Keyword: " candi "}) // the title
		is.Equal(got, []int64{b.ID})
		got, _ = list(release.Filter{Keyword: "V1.1"}) // the tag, case-insensitively
		is.Equal(got, []int64{d.ID, b.ID})
		got, _ = list(release.Filter{Keyword: "100%_"})
		is.Equal(len(got), 0)
		got, total = list(release.Filter{IncludeDrafts: true}, 2, 3)
		is.Equal(got, []int64{a.ID})
		is.Equal(total, int64(4))

		is.Equal(f.getRepo(r.ID).NumReleases, 3) // the counter holds published releases
	},
	"Latest": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "code")
		_, err := f.Releases.Latest(f.ctx, r.ID)
		isCategory(is, err, errs.ErrNotFound, "release does not exist")
		a := f.release(r.ID, alice.ID, "v1.0", 1)
		f.release(r.ID, alice.ID, "v1.1-rc1", 2, prerelease)
		f.release(r.ID, alice.ID, "v2.0", 3, draft)
		got, err := f.Releases.Latest(f.ctx, r.ID)
		is.NoErr(err)
		is.Equal(got.ID, a.ID)
	},
	"UpdateAndDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r, other := f.repo(alice, "code"), f.repo(alice, "other")
		d := f.release(r.ID, alice.ID, "v1.0", 1, draft)
		f.release(r.ID, alice.ID, "v2.0", 2)

		d.PublisherID, d.TagName, d.Target, d.Title, d.Note = bob.ID, "v1.5", "dev", "T", "N"
		d.IsDraft, d.IsPrerelease, d.HideArchiveLinks, d.Sha1, d.Published = false, true, true, "abc", at(5)
		is.NoErr(f.Releases.Update(f.ctx, d))
		got, err := f.Releases.Get(f.ctx, r.ID, d.ID)
		is.NoErr(err)
		is.Equal(*got, *d)

		d.TagName = "v2.0" // taken
		isCategory(is, f.Releases.Update(f.ctx, d), errs.ErrConflict, "release already exists")
		stray := *got
		stray.RepoID = other.ID
		isCategory(is, f.Releases.Update(f.ctx, &stray), errs.ErrNotFound, "release does not exist")

		isCategory(is, f.Releases.Delete(f.ctx, other.ID, d.ID), errs.ErrNotFound, "release does not exist")
		is.Equal(f.getRepo(r.ID).NumReleases, 2)
		is.NoErr(f.Releases.Delete(f.ctx, r.ID, d.ID))
		is.Equal(f.getRepo(r.ID).NumReleases, 1)
		_, err = f.Releases.Get(f.ctx, r.ID, d.ID)
		isCategory(is, err, errs.ErrNotFound, "release does not exist")
		isCategory(is, f.Releases.Delete(f.ctx, r.ID, d.ID), errs.ErrNotFound, "release does not exist")
	},
	"DraftByTags": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r, other := f.repo(alice, "code"), f.repo(alice, "other")
		a := f.release(r.ID, alice.ID, "v1", 1)
		b := f.release(r.ID, alice.ID, "v2", 2)
		c := f.release(other.ID, alice.ID, "v1", 3)
		is.NoErr(f.Releases.DraftByTags(f.ctx, r.ID, []string{"v1", "V2", "gone"}))
		is.NoErr(f.Releases.DraftByTags(f.ctx, r.ID, nil))
		got, err := f.Releases.Get(f.ctx, r.ID, a.ID)
		is.NoErr(err)
		is.True(got.IsDraft)
		is.Equal(got.Sha1, "")
		got, err = f.Releases.Get(f.ctx, r.ID, b.ID) // tag names are case-sensitive
		is.NoErr(err)
		is.True(!got.IsDraft)
		got, err = f.Releases.Get(f.ctx, other.ID, c.ID) // another repository's
		is.NoErr(err)
		is.True(!got.IsDraft)
		is.Equal(f.getRepo(r.ID).NumReleases, 1)
	},
}
