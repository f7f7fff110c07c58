package sqlstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The alphabetical search order: by name, then (for one name under several
// owners) private ones last, then by owner and id, so that the page walks
// the search index in order; descending is its exact reverse, and pages of
// either never overlap or skip.
func TestRepoSearchAlphaOrder(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := openMigrated(t, b)
			s := d.Stores()
			ctx := t.Context()
			var owners []*user.User
			for _, n := range []string{"ann", "bob", "cid"} {
				u := newUser(n)
				is.NoErr(s.Users.Create(ctx, u))
				owners = append(owners, u)
			}
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			type made struct {
				name    string
				owner   int
				private bool
			}
			// Created out of order, so that ids do not follow the order.
			for _, m := range []made{{"same", 2, false}, {"zeta", 0, false}, {"same", 0, true}, {"alpha", 1, false},
				{"same", 1, false}, {"mid", 2, true}} {
				o := owners[m.owner]
				is.NoErr(d.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
					return tx.Repos.Create(ctx, &repository.Repository{
						Owner: repository.Owner{ID: o.ID, Name: o.Name, Kind: o.Kind, Visibility: o.Visibility},
						Name:  m.name, LowerName: m.name, Private: m.private, Empty: true, DefaultBranch: repository.DefaultBranch,
						ObjectFormat: "sha1", Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
						Tracker: repository.IssueTracker{Style: repository.TrackerNumeric}, Created: t0, Updated: t0,
					})
				}))
			}
			list := func(desc bool, limit int) []string {
				var out []string
				for page := 1; page <= 10; page++ {
					rs, total, err := s.Repos.Search(ctx, ports.RepoSearch{Sort: "alpha", Desc: desc,
						Viewer: ports.RepoViewer{UserID: owners[0].ID, IsAdmin: true}, ListOptions: ports.ListOptions{Page: page, Limit: limit}})
					is.NoErr(err)
					is.Equal(total, int64(6))
					for _, r := range rs {
						out = append(out, r.Owner.Name+"/"+r.Name)
					}
				}
				return out
			}
			want := []string{"bob/alpha", "cid/mid", "bob/same", "cid/same", "ann/same", "ann/zeta"}
			is.Equal(list(false, 50), want)
			is.Equal(list(false, 2), want)
			slices.Reverse(want)
			is.Equal(list(true, 50), want)
			is.Equal(list(true, 4), want)
		})
	}
}
