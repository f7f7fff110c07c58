package http_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Issue 8's shape: a member of 50 teams of an organisation with 1,000
// repositories, each team given 20 of them, half of them private.
const (
	orgcBenchRepos = 1000
	orgcBenchTeams = 50
)

// seedOrgWithRepos creates, in one transaction through the app's stores, a private
// organisation "acme" owned by the administrator with repoCount repositories
// (half private) and teamCount teams sharing them equally, and a user
// "member" in every team. It returns a read:organization token of the member.
func seedOrgWithRepos(b *testing.B, a benchApp, repoCount, teamCount int) http.Header {
	b.Helper()
	member := &user.User{Name: "member", LowerName: "member", Email: "member@example.com",
		Visibility: user.VisibilityPublic, IsActive: true, MaxRepoCreation: -1}
	o := org.New("acme", org.Profile{Visibility: user.VisibilityPrivate})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err := a.app.DB.InTx(context.Background(), func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Users.Create(ctx, member); err != nil {
			return err
		}
		o.Created, o.Updated = t0, t0
		if err := tx.Orgs.Create(ctx, o, a.admin.ID); err != nil {
			return err
		}
		ids := make([]int64, 0, repoCount)
		for i := range repoCount {
			name := fmt.Sprintf("repo-%04d", i)
			r := &repository.Repository{
				Owner: repository.Owner{ID: o.ID, Name: o.Name, Kind: o.Kind, Visibility: o.Visibility},
				Name:  name, LowerName: strings.ToLower(name), Private: i%2 == 0, Empty: true,
				DefaultBranch: repository.DefaultBranch, ObjectFormat: "sha1",
				Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
				Tracker: repository.IssueTracker{Style: repository.TrackerNumeric},
				Created: t0.Add(time.Duration(i) * time.Second), Updated: t0.Add(time.Duration(i) * time.Second),
			}
			if err := tx.Repos.Create(ctx, r); err != nil {
				return err
			}
			ids = append(ids, r.ID)
		}
		share := repoCount / teamCount
		for i := range teamCount {
			mode := permission.AccessMode(1 + i%2) // read and write teams
			units := map[permission.Unit]permission.AccessMode{}
			for _, u := range permission.AllUnits() {
				units[u] = mode
			}
			t := &org.Team{OrgID: o.ID, Name: fmt.Sprintf("team-%02d", i), Mode: mode, Units: units}
			if err := tx.Orgs.CreateTeam(ctx, t); err != nil {
				return err
			}
			if err := tx.Orgs.AddTeamMember(ctx, t.ID, member.ID); err != nil {
				return err
			}
			for _, id := range ids[i*share : (i+1)*share] {
				if err := tx.Orgs.AddTeamRepo(ctx, t.ID, id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := a.app.Users.Tokens().Create(context.Background(), member.ID, "orgc-bench", []string{"read:organization"})
	if err != nil {
		b.Fatal(err)
	}
	return http.Header{"Authorization": {"token " + secret}}
}

// BenchmarkOrgReposList is GET /api/v1/orgs/acme/repos?limit=50 by a
// member of 50 teams over 1,000 repositories, one request at a time through
// the handler; it reports the median latency (target below 5 ms) and the
// process's CPU time per request (user and system, all threads: the
// request's own work and the garbage collection it causes), which a loaded
// machine inflates far less than the latency.
func BenchmarkOrgReposList(b *testing.B) {
	a := newBenchApp(b)
	h := seedOrgWithRepos(b, a, orgcBenchRepos, orgcBenchTeams)
	const path = "/api/v1/orgs/acme/repos?limit=50"
	get := func() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header["Authorization"] = h["Authorization"]
		rec := httptest.NewRecorder()
		a.app.HTTP.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("X-Total-Count") != fmt.Sprint(orgcBenchRepos) {
			b.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
	}
	get() // the token cache is warm for every later request
	b.ReportAllocs()
	var took []time.Duration
	cpu0 := processCPU(b)
	for b.Loop() {
		start := time.Now()
		get()
		took = append(took, time.Since(start))
	}
	cpu := processCPU(b) - cpu0
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/op")
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// processCPU is the CPU time the process has used so far, user and system.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
