package main

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
)

// TestCronConfig reads the [cron.<task>] tables, the environment and flags
// into the periodic tasks' settings, and refuses a schedule or a duration
// that does not parse, naming its key.
func TestCronConfig(t *testing.T) {
	is := is.New(t)
	cfg, err := load(t, nil, nil)
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().Cron, site.DefaultCron())

	path := writeTOML(t, `
[cron.update_mirrors]
enabled = false
schedule = "@every 30m"

[cron.cleanup_hook_task_table]
schedule = "0 4 * * *"
run_at_start = true
older_than = "720h"

[cron.delete_old_actions]
enabled = true
older_than = "2160h"

[cron.git_gc_repos]
enabled = true
timeout = "30m"
`)
	cfg, err = load(t, []string{"--config", path, "--cron-update-mirrors-run-at-start"},
		map[string]string{"DEPOT_CRON_CLEANUP_HOOK_TASK_TABLE_OLDER_THAN": "36h"})
	is.NoErr(err)
	is.Equal(cfg.SiteSettings().Cron, map[string]site.CronTask{
		site.CronUpdateMirrors: {Enabled: false, Schedule: "@every 30m", RunAtStart: true},
		site.CronCleanupHookTaskTable: {Enabled: true, Schedule: "0 4 * * *", RunAtStart: true,
			OlderThan: 36 * time.Hour}, // the environment beats the file
		site.CronDeleteOldActions: {Enabled: true, Schedule: "@every 168h", OlderThan: 90 * 24 * time.Hour},
		site.CronCleanupArtifacts: {Enabled: true, Schedule: "@midnight", RunAtStart: true},
		site.CronCleanupPackages:  {Enabled: true, Schedule: "@midnight", RunAtStart: true, OlderThan: 24 * time.Hour},
		site.CronRepoHealthCheck:  {Enabled: true, Schedule: "@midnight", Timeout: 60 * time.Second},
		site.CronGitGCRepos:       {Enabled: true, Schedule: "@every 72h", Timeout: 30 * time.Minute},
	})

	_, err = load(t, []string{"--cron-update-mirrors-schedule", "every ten minutes",
		"--cron-cleanup-hook-task-table-older-than", "a week"}, nil)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), `cron.update_mirrors.schedule: "every ten minutes" is not a cron schedule`))
	is.True(strings.Contains(err.Error(), "cron.cleanup_hook_task_table.older_than"))

	_, err = load(t, []string{"--config", writeTOML(t, "[cron.update_mirrors]\nolder_than = \"1h\"\n")}, nil)
	is.True(err != nil) // update_mirrors has no older_than
	is.True(strings.Contains(err.Error(), "cron.update_mirrors.older_than"))
}
