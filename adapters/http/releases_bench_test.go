package http_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/ports"
)

// BenchmarkListReleases measures GET R/releases?limit=50 over 2,000
// releases (one in five a pre-release), each with two assets: through the handler and on
// loopback keep-alive connections (goal: at least 3,000 req/s there).
func BenchmarkListReleases(b *testing.B) {
	a := newBenchApp(b)
	ctx := context.Background()
	r, err := a.app.Repos.Create(ctx, auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
		repos.CreateInput{Name: "released", AutoInit: true})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = a.app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for k := range 2000 {
			at := t0.Add(time.Duration(k) * time.Minute)
			rel := &release.Release{RepoID: r.ID, PublisherID: a.admin.ID,
				TagName: fmt.Sprintf("v%d.%d", k/100, k%100), Target: "main", Title: fmt.Sprintf("Release %d", k),
				Note: "Notes of the release.", IsPrerelease: k%5 == 0, Created: at, Published: at}
			if err := tx.Releases.Create(ctx, rel); err != nil {
				return err
			}
			// Every release has its assets, as the target asks: a binary
			// and its checksum file.
			for i, name := range []string{"tool-linux-amd64.tar.gz", "SHA256SUMS"} {
				if err := tx.ReleaseAssets.Create(ctx, &release.Asset{UUID: fmt.Sprintf("%08d-0000-4000-8000-%012d", k, i),
					RepoID: r.ID, ReleaseID: rel.ID, UploaderID: a.admin.ID, Name: name, Size: int64(1000 * (i + 1)),
					SHA256: fmt.Sprintf("%064d", k), Created: at}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	h := a.repoToken(b)
	const path = "/api/v1/repos/admin/released/releases?limit=50"
	b.Run("handler", func(b *testing.B) { benchLatency(b, a.app.HTTP, path, h) })
	b.Run("loopback", func(b *testing.B) {
		benchLoopback(b, a.app.HTTP, path, h)
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	})
}
