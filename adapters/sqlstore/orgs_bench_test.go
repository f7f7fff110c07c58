package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/depothq/depot/adapters/sqlstore"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The issue's shape: a user in 50 teams of an organisation with 1,000
// repositories, each team given 20 of them, half of them private.
const (
	orgBenchRepos = 1000
	orgBenchTeams = 50
)

// orgBenchDB seeds that organisation on SQLite and returns the member and
// the repositories' facts.
func orgBenchDB(b *testing.B) (ports.Stores, *user.User, *org.Organization, []permission.Repo) {
	b.Helper()
	d, err := sqlstore.Open(b.Context(), sqlstore.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(b.Context()); err != nil {
		b.Fatal(err)
	}
	member, o, facts := seedOrg(b, d, orgBenchRepos, orgBenchTeams)
	return d.Stores(), member, o, facts
}

// seedOrg creates a private organisation with repos repositories (half of
// them private) and teams teams, each given an equal share of the
// repositories, and a member in every team; it returns the member, the
// organisation and the repositories' facts.
func seedOrg(tb testing.TB, d *sqlstore.DB, repoCount, teamCount int) (*user.User, *org.Organization, []permission.Repo) {
	tb.Helper()
	owner, member := newUser("owner"), newUser("member")
	member.IsAdmin = false
	o := org.New("acme", org.Profile{Visibility: user.VisibilityPrivate})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var facts []permission.Repo
	err := d.InTx(tb.Context(), func(ctx context.Context, tx ports.Stores) error {
		for _, u := range []*user.User{owner, member} {
			if err := tx.Users.Create(ctx, u); err != nil {
				return err
			}
		}
		if err := tx.Orgs.Create(ctx, o, owner.ID); err != nil {
			return err
		}
		var repos []*repository.Repository
		for i := range repoCount {
			name := fmt.Sprintf("repo-%04d", i)
			r := &repository.Repository{
				Owner: repository.Owner{ID: o.ID, Name: o.Name, Kind: o.Kind, Visibility: o.Visibility},
				Name:  name, LowerName: name, Private: i%2 == 0, Empty: true, DefaultBranch: repository.DefaultBranch,
				ObjectFormat: "sha1", Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
				Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
				Created: t0.Add(time.Duration(i) * time.Second), Updated: t0.Add(time.Duration(i) * time.Second),
			}
			if err := tx.Repos.Create(ctx, r); err != nil {
				return err
			}
			repos = append(repos, r)
			facts = append(facts, r.Facts())
		}
		for i := range teamCount {
			units := map[permission.Unit]permission.AccessMode{}
			for _, u := range permission.AllUnits() {
				units[u] = permission.AccessMode(1 + i%2)
			}
			t := &org.Team{OrgID: o.ID, Name: fmt.Sprintf("team-%02d", i), Mode: permission.AccessMode(1 + i%2), Units: units}
			if err := tx.Orgs.CreateTeam(ctx, t); err != nil {
				return err
			}
			if err := tx.Orgs.AddTeamMember(ctx, t.ID, member.ID); err != nil {
				return err
			}
			for j := range repoCount / teamCount {
				if err := tx.Orgs.AddTeamRepo(ctx, t.ID, repos[i*(repoCount/teamCount)+j].ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return member, o, facts
}

// BenchmarkOrgsPermission resolves a team member's relations to one
// repository (the per-request permission: one statement) and to a page of
// 50 (a listing's: one statement for the page).
func BenchmarkOrgsPermission(b *testing.B) {
	s, member, _, facts := orgBenchDB(b)
	ctx := b.Context()
	b.Run("one", func(b *testing.B) {
		i := 0
		for b.Loop() {
			rel, err := s.Repos.Relations(ctx, facts[(i*7919)%len(facts)], member.ID)
			if err != nil || !rel.IsOrgMember || len(rel.TeamUnits) == 0 {
				b.Fatalf("relations %+v, %v", rel, err)
			}
			i++
		}
	})
	b.Run("page-of-50", func(b *testing.B) {
		for b.Loop() {
			rels, err := s.Repos.RelationsMany(ctx, facts[:50], member.ID)
			if err != nil || len(rels) != 50 {
				b.Fatalf("relations %d, %v", len(rels), err)
			}
		}
	})
}

// BenchmarkOrgsRepoList is GET /orgs/{org}/repos?limit=50 as a member of a
// private organisation: public repositories and the private ones its teams
// were given, with the total.
func BenchmarkOrgsRepoList(b *testing.B) {
	s, member, o, _ := orgBenchDB(b)
	ctx := b.Context()
	q := ports.RepoSearch{OwnerID: o.ID, Exclusive: true, Viewer: ports.RepoViewer{UserID: member.ID},
		ListOptions: ports.ListOptions{Page: 1, Limit: 50}}
	for b.Loop() {
		list, total, err := s.Repos.Search(ctx, q)
		if err != nil || len(list) != 50 || total != orgBenchRepos {
			b.Fatalf("got %d of %d, %v", len(list), total, err)
		}
	}
}
