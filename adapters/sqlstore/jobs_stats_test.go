package sqlstore_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestJobQueueStats counts queued, running and failed jobs by kind, with
// the age of the oldest of each, on both backends.
func TestJobQueueStats(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			ctx := t.Context()
			stats, err := d.JobQueueStats(ctx)
			is.NoErr(err)
			is.Equal(len(stats), 0)

			jobs := d.Stores().Jobs
			now := time.Now()
			for range 3 {
				_, err := jobs.Enqueue(ctx, ports.NewJob{Kind: "hook_delivery", RunAt: now})
				is.NoErr(err)
			}
			_, err = jobs.Enqueue(ctx, ports.NewJob{Kind: "mirror_sync", RunAt: now})
			is.NoErr(err)
			claimed, err := jobs.Claim(ctx, "node-1", []string{"mirror_sync"}, now, time.Minute, 1)
			is.NoErr(err)
			is.Equal(len(claimed), 1)

			stats, err = d.JobQueueStats(ctx)
			is.NoErr(err)
			got := map[string]ports.JobQueueStat{}
			for _, s := range stats {
				got[s.Kind+"/"+s.State] = s
			}
			is.Equal(len(got), 2)
			is.Equal(got["hook_delivery/pending"].Count, int64(3))
			is.Equal(got["mirror_sync/running"].Count, int64(1))
			oldest := got["hook_delivery/pending"].Oldest
			is.True(!oldest.IsZero() && time.Since(oldest) < time.Minute)
		})
	}
}
