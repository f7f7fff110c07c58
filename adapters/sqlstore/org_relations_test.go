package sqlstore_test

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestOrgRelationsManyTeamUnits: a page's relations take, per repository
// and unit, the best mode of the user's teams given the repository and of
// those that include all of the organisation's repositories; teams the user
// is not in, or given other repositories, count for nothing. RelationsMany
// and the single Relations agree.
func TestOrgRelationsManyTeamUnits(t *testing.T) {
	const (
		code, issues, wiki, packages = permission.UnitCode, permission.UnitIssues, permission.UnitWiki, permission.UnitPackages
		read, write                  = permission.ModeRead, permission.ModeWrite
	)
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := openMigrated(t, b)
			owner, member, other := newUser("owner"), newUser("member"), newUser("other")
			o := org.New("acme", org.Profile{Visibility: user.VisibilityPrivate})
			var facts []permission.Repo
			err := d.InTx(t.Context(), func(ctx context.Context, tx ports.Stores) error {
				for _, u := range []*user.User{owner, member, other} {
					if err := tx.Users.Create(ctx, u); err != nil {
						return err
					}
				}
				if err := tx.Orgs.Create(ctx, o, owner.ID); err != nil {
					return err
				}
				var ids []int64
				for i, name := range []string{"r1", "r2", "r3"} {
					r := &repository.Repository{
						Owner: repository.Owner{ID: o.ID, Name: o.Name, Kind: o.Kind, Visibility: o.Visibility},
						Name:  name, LowerName: name, Private: i != 1, Empty: true, DefaultBranch: repository.DefaultBranch,
						ObjectFormat: "sha1", Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
						Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
					}
					if err := tx.Repos.Create(ctx, r); err != nil {
						return err
					}
					ids = append(ids, r.ID)
					facts = append(facts, r.Facts())
				}
				teams := []struct {
					name    string
					units   map[permission.Unit]permission.AccessMode
					all     bool
					members []int64
					repos   []int64
				}{
					{"a", map[permission.Unit]permission.AccessMode{code: read, issues: write}, false, []int64{member.ID}, ids[:2]},
					{"b", map[permission.Unit]permission.AccessMode{code: write, wiki: read}, false, []int64{member.ID, other.ID}, ids[:1]},
					{"c", map[permission.Unit]permission.AccessMode{code: write, issues: write, wiki: write}, false, []int64{other.ID}, ids},
					{"d", map[permission.Unit]permission.AccessMode{packages: read}, true, []int64{member.ID}, nil},
				}
				for _, tm := range teams {
					team := &org.Team{OrgID: o.ID, Name: tm.name, Mode: read, Units: tm.units, IncludesAllRepositories: tm.all}
					if err := tx.Orgs.CreateTeam(ctx, team); err != nil {
						return err
					}
					for _, id := range tm.members {
						if err := tx.Orgs.AddTeamMember(ctx, team.ID, id); err != nil {
							return err
						}
					}
					for _, id := range tm.repos {
						if err := tx.Orgs.AddTeamRepo(ctx, team.ID, id); err != nil {
							return err
						}
					}
				}
				return nil
			})
			is.NoErr(err)

			want := []map[permission.Unit]permission.AccessMode{
				{code: write, issues: write, wiki: read, packages: read}, // a and b, and d
				{code: read, issues: write, packages: read},              // a, and d
				{packages: read}, // d alone: c is other's
			}
			s := d.Stores()
			rels, err := s.Repos.RelationsMany(t.Context(), facts, member.ID)
			is.NoErr(err)
			for i, f := range facts {
				rel := rels[f.ID]
				is.True(rel.IsOrgMember)
				is.True(!rel.IsOrgOwner)
				is.Equal(rel.TeamUnits, want[i])
				one, err := s.Repos.Relations(t.Context(), f, member.ID)
				is.NoErr(err)
				is.Equal(one, rel)
			}
		})
	}
}
