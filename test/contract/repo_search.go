package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

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
