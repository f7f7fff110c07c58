package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

var cronTaskTests = map[string]func(t *testing.T, f *fixture){
	"RecordRunCountsAndKeepsTimes": func(t *testing.T, f *fixture) {
		is := is.New(t)
		all, err := f.CronTasks.All(f.ctx)
		is.NoErr(err)
		is.Equal(len(all), 0)

		t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		is.NoErr(f.CronTasks.SetNext(f.ctx, "update_mirrors", t0))
		is.NoErr(f.CronTasks.RecordRun(f.ctx, "cleanup_hook_task_table", t0, t0.Add(24*time.Hour), "it failed"))
		is.NoErr(f.CronTasks.RecordRun(f.ctx, "cleanup_hook_task_table", t0.Add(time.Hour), t0.Add(25*time.Hour), ""))
		is.NoErr(f.CronTasks.RecordRun(f.ctx, "repo_health_check", t0, t0.Add(time.Hour), "git fsck failed"))

		all, err = f.CronTasks.All(f.ctx)
		is.NoErr(err)
		is.Equal(len(all), 3)
		is.Equal(all[0].Name, "cleanup_hook_task_table")
		is.Equal(all[0].ExecTimes, int64(2))
		is.Equal(all[0].Message, "") // the last run's
		is.Equal(all[1].Message, "git fsck failed")
		all = append(all[:1], all[2:]...)
		is.True(all[0].Prev.Equal(t0.Add(time.Hour)))
		is.True(all[0].Next.Equal(t0.Add(25 * time.Hour)))
		is.Equal(all[1].Name, "update_mirrors")
		is.Equal(all[1].ExecTimes, int64(0))
		is.True(all[1].Prev.IsZero())
		is.True(all[1].Next.Equal(t0))

		// Moving the next run keeps the count and the last run.
		is.NoErr(f.CronTasks.SetNext(f.ctx, "cleanup_hook_task_table", t0.Add(48*time.Hour)))
		all, err = f.CronTasks.All(f.ctx)
		is.NoErr(err)
		is.Equal(all[0].ExecTimes, int64(2))
		is.True(all[0].Prev.Equal(t0.Add(time.Hour)))
		is.True(all[0].Next.Equal(t0.Add(48 * time.Hour)))
	},
}
