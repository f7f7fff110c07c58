package sqlstore_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestOrgPermissionQueryCount pins issue 8's performance rule: a member's
// permission on an organisation repository is one statement whatever the
// number of teams, a page of 50 repositories' permissions is one statement,
// and listing a page of the organisation's repositories costs the same
// number of statements with 5 teams as with 50.
func TestOrgPermissionQueryCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			perTeams := map[int]int64{}
			for _, teams := range []int{5, 50} {
				is := is.New(t)
				d := openMigrated(t, b)
				member, o, facts := seedOrg(t, d, 200, teams)
				s := d.Stores()
				n := d.CountQueries()

				n.Store(0)
				rel, err := s.Repos.Relations(t.Context(), facts[len(facts)-1], member.ID)
				is.NoErr(err)
				is.True(rel.IsOrgMember && len(rel.TeamUnits) > 0)
				is.Equal(n.Load(), int64(1)) // one repository's relations

				n.Store(0)
				rels, err := s.Repos.RelationsMany(t.Context(), facts[:50], member.ID)
				is.NoErr(err)
				is.Equal(len(rels), 50)
				is.Equal(n.Load(), int64(1)) // a page's relations

				n.Store(0)
				list, total, err := s.Repos.Search(t.Context(), ports.RepoSearch{OwnerID: o.ID, Exclusive: true,
					Viewer: ports.RepoViewer{UserID: member.ID}, ListOptions: ports.ListOptions{Page: 1, Limit: 50}})
				is.NoErr(err)
				is.Equal(len(list), 50)
				is.Equal(total, int64(200))
				perTeams[teams] = n.Load()
			}
			is.New(t).Equal(perTeams[5], perTeams[50]) // listing cost does not grow with teams
			is.New(t).True(perTeams[50] <= 3)
		})
	}
}
