package main

import (
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/site"
)

// CronConfig is the [cron.<task>] tables: each periodic task's ENABLED,
// SCHEDULE and RUN_AT_START, and a cleanup's OLDER_THAN (Gitea's names).
type CronConfig struct {
	// UpdateMirrors is [cron.update_mirrors].
	UpdateMirrors CronTaskConfig `toml:"update_mirrors"`
	// CleanupHookTaskTable is [cron.cleanup_hook_task_table].
	CleanupHookTaskTable CronCleanupConfig `toml:"cleanup_hook_task_table"`
}

// CronTaskConfig is one [cron.<task>] table.
type CronTaskConfig struct {
	// Enabled runs the task on its schedule.
	Enabled bool `toml:"enabled"`
	// Schedule is cron fields or a descriptor ("@every 10m", "@midnight").
	Schedule string `toml:"schedule"`
	// RunAtStart also runs it when the server starts.
	RunAtStart bool `toml:"run_at_start"`
}

// CronCleanupConfig is the table of a task that removes what is older
// than OlderThan.
type CronCleanupConfig struct {
	CronTaskConfig
	// OlderThan is a Go duration ("168h").
	OlderThan string `toml:"older_than"`
}

// cronTaskConfig renders a task's settings as configuration values.
func cronTaskConfig(t site.CronTask) CronTaskConfig {
	return CronTaskConfig{Enabled: t.Enabled, Schedule: t.Schedule, RunAtStart: t.RunAtStart}
}

// cronConfig renders the tasks' settings as configuration values.
func cronConfig(c map[string]site.CronTask) CronConfig {
	hooks := c[site.CronCleanupHookTaskTable]
	return CronConfig{
		UpdateMirrors: cronTaskConfig(c[site.CronUpdateMirrors]),
		CleanupHookTaskTable: CronCleanupConfig{CronTaskConfig: cronTaskConfig(hooks),
			OlderThan: hours(hooks.OlderThan)},
	}
}

func (c CronTaskConfig) task() site.CronTask {
	return site.CronTask{Enabled: c.Enabled, Schedule: c.Schedule, RunAtStart: c.RunAtStart}
}

// tasks returns the tasks' settings the server reads; Validate has
// checked the durations.
func (c CronConfig) tasks() map[string]site.CronTask {
	hooks := c.CleanupHookTaskTable.task()
	hooks.OlderThan, _ = time.ParseDuration(c.CleanupHookTaskTable.OlderThan)
	return map[string]site.CronTask{
		site.CronUpdateMirrors:        c.UpdateMirrors.task(),
		site.CronCleanupHookTaskTable: hooks,
	}
}

// validate reports the schedules that do not parse and the durations out
// of range through bad.
func (c CronConfig) validate(bad func(key, format string, args ...any)) {
	for _, t := range []struct {
		name string
		cfg  CronTaskConfig
	}{{site.CronUpdateMirrors, c.UpdateMirrors}, {site.CronCleanupHookTaskTable, c.CleanupHookTaskTable.CronTaskConfig}} {
		if _, err := jobs.ParseCronSchedule(t.cfg.Schedule); err != nil {
			bad("cron."+t.name+".schedule", "%q is not a cron schedule (five fields, an optional leading seconds field, or a descriptor such as @every 10m or @midnight)", t.cfg.Schedule)
		}
	}
	key := "cron." + site.CronCleanupHookTaskTable + ".older_than"
	if d, err := time.ParseDuration(c.CleanupHookTaskTable.OlderThan); err != nil {
		bad(key, "%q is not a duration such as 168h", c.CleanupHookTaskTable.OlderThan)
	} else if d < 0 {
		bad(key, "must not be negative, got %s", d)
	}
}

// cronSettings are the [cron.<task>] keys.
func cronSettings() []setting {
	task := func(name, what string, field func(c *Config) *CronTaskConfig) []setting {
		flag := "cron-" + dashes(name)
		return []setting{
			{key: "cron." + name + ".enabled", flag: flag + "-enabled", usage: "run the periodic task " + name + " (" + what + ") on its schedule; off, an administrator can still run it",
				field: func(c *Config) any { return &field(c).Enabled }},
			{key: "cron." + name + ".schedule", flag: flag + "-schedule", usage: "when " + name + " runs: cron fields (an optional leading seconds field) or a descriptor such as @every 10m or @midnight",
				field: func(c *Config) any { return &field(c).Schedule }},
			{key: "cron." + name + ".run_at_start", flag: flag + "-run-at-start", usage: "also run " + name + " when the server starts",
				field: func(c *Config) any { return &field(c).RunAtStart }},
		}
	}
	out := task(site.CronUpdateMirrors, "queues the syncs of the pull and push mirrors that are overdue",
		func(c *Config) *CronTaskConfig { return &c.Cron.UpdateMirrors })
	out = append(out, task(site.CronCleanupHookTaskTable, "deletes the record of old webhook deliveries",
		func(c *Config) *CronTaskConfig { return &c.Cron.CleanupHookTaskTable.CronTaskConfig })...)
	return append(out, setting{key: "cron." + site.CronCleanupHookTaskTable + ".older_than",
		flag:  "cron-" + dashes(site.CronCleanupHookTaskTable) + "-older-than",
		usage: "how long ago a webhook delivery was last attempted before " + site.CronCleanupHookTaskTable + " deletes its record (a Go duration)",
		field: func(c *Config) any { return &c.Cron.CleanupHookTaskTable.OlderThan }})
}

// hours writes a whole number of hours as "168h", as Gitea's app.ini does;
// other durations as Go writes them.
func hours(d time.Duration) string {
	if d > 0 && d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.String()
}

// dashes writes a task's name as flags do.
func dashes(name string) string {
	b := []byte(name)
	for i, c := range b {
		if c == '_' {
			b[i] = '-'
		}
	}
	return string(b)
}
