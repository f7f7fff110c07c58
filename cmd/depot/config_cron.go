package main

import (
	"strconv"
	"strings"
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
	// DeleteOldActions is [cron.delete_old_actions].
	DeleteOldActions CronCleanupConfig `toml:"delete_old_actions"`
	// CleanupArtifacts is [cron.cleanup_artifacts].
	CleanupArtifacts CronTaskConfig `toml:"cleanup_artifacts"`
	// CleanupPackages is [cron.cleanup_packages].
	CleanupPackages CronCleanupConfig `toml:"cleanup_packages"`
	// RepoHealthCheck is [cron.repo_health_check].
	RepoHealthCheck CronHealthCheckConfig `toml:"repo_health_check"`
	// GitGCRepos is [cron.git_gc_repos].
	GitGCRepos CronHealthCheckConfig `toml:"git_gc_repos"`
}

// CronHealthCheckConfig is the table of a task that walks the
// repositories (repo_health_check, git_gc_repos): Timeout bounds its git
// on one repository.
type CronHealthCheckConfig struct {
	CronTaskConfig
	// Timeout is a Go duration ("60s").
	Timeout string `toml:"timeout"`
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

// cronTask is one task's table in c, for the loops below.
type cronTask struct {
	name string
	// what the task does, for the keys' help.
	what string
	cfg  *CronTaskConfig
	// olderThan is the cleanup's duration key's value; nil for other tasks.
	olderThan *string
	// olderWhat says what older_than bounds, for its help.
	olderWhat string
	// timeout is the per-repository timeout key's value; nil for tasks
	// without one.
	timeout *string
	// timeoutWhat names the work timeout bounds, for its help.
	timeoutWhat string
}

// list gives the tasks' tables in c, pointing into it.
func (c *CronConfig) list() []cronTask {
	return []cronTask{
		{name: site.CronUpdateMirrors, what: "queues the syncs of the pull and push mirrors that are overdue",
			cfg: &c.UpdateMirrors},
		{name: site.CronCleanupHookTaskTable, what: "deletes the record of old webhook deliveries",
			cfg: &c.CleanupHookTaskTable.CronTaskConfig, olderThan: &c.CleanupHookTaskTable.OlderThan,
			olderWhat: "how long ago a webhook delivery was last attempted before its record is deleted"},
		{name: site.CronDeleteOldActions, what: "deletes old activity records, what the activity feeds show",
			cfg: &c.DeleteOldActions.CronTaskConfig, olderThan: &c.DeleteOldActions.OlderThan,
			olderWhat: "how old an activity record must be to be deleted"},
		{name: site.CronCleanupArtifacts, what: "deletes the Actions artifacts past their expiry",
			cfg: &c.CleanupArtifacts},
		{name: site.CronCleanupPackages, what: "applies the owners' package cleanup rules and removes unreferenced package blobs and idle container uploads",
			cfg: &c.CleanupPackages.CronTaskConfig, olderThan: &c.CleanupPackages.OlderThan,
			olderWhat: "how long ago an unreferenced package blob or an unfinished container upload was last written before it is removed"},
		{name: site.CronRepoHealthCheck, what: "runs git fsck on every repository and reports those that fail",
			cfg: &c.RepoHealthCheck.CronTaskConfig, timeout: &c.RepoHealthCheck.Timeout, timeoutWhat: "git fsck"},
		{name: site.CronGitGCRepos, what: "runs git gc on every repository: one pack with its bitmap and a commit-graph, unreachable objects kept two weeks",
			cfg: &c.GitGCRepos.CronTaskConfig, timeout: &c.GitGCRepos.Timeout, timeoutWhat: "git gc"},
	}
}

// cronConfig renders the tasks' settings as configuration values.
func cronConfig(tasks map[string]site.CronTask) CronConfig {
	var c CronConfig
	for _, t := range c.list() {
		v := tasks[t.name]
		*t.cfg = CronTaskConfig{Enabled: v.Enabled, Schedule: v.Schedule, RunAtStart: v.RunAtStart}
		if t.olderThan != nil {
			*t.olderThan = hours(v.OlderThan)
		}
		if t.timeout != nil {
			*t.timeout = v.Timeout.String()
		}
	}
	return c
}

// tasks returns the tasks' settings the server reads; Validate has
// checked the durations.
func (c CronConfig) tasks() map[string]site.CronTask {
	out := map[string]site.CronTask{}
	for _, t := range c.list() {
		v := site.CronTask{Enabled: t.cfg.Enabled, Schedule: t.cfg.Schedule, RunAtStart: t.cfg.RunAtStart}
		if t.olderThan != nil {
			v.OlderThan, _ = time.ParseDuration(*t.olderThan)
		}
		if t.timeout != nil {
			v.Timeout, _ = time.ParseDuration(*t.timeout)
		}
		out[t.name] = v
	}
	return out
}

// validate reports the schedules that do not parse and the durations out
// of range through bad.
func (c CronConfig) validate(bad func(key, format string, args ...any)) {
	for _, t := range c.list() {
		if _, err := jobs.ParseCronSchedule(t.cfg.Schedule); err != nil {
			bad("cron."+t.name+".schedule", "%q is not a cron schedule (five fields, an optional leading seconds field, or a descriptor such as @every 10m or @midnight)", t.cfg.Schedule)
		}
		if t.timeout != nil {
			key := "cron." + t.name + ".timeout"
			if d, err := time.ParseDuration(*t.timeout); err != nil {
				bad(key, "%q is not a duration such as 60s", *t.timeout)
			} else if d <= 0 {
				bad(key, "must be positive, got %s", d)
			}
		}
		if t.olderThan == nil {
			continue
		}
		key := "cron." + t.name + ".older_than"
		if d, err := time.ParseDuration(*t.olderThan); err != nil {
			bad(key, "%q is not a duration such as 168h", *t.olderThan)
		} else if d < 0 {
			bad(key, "must not be negative, got %s", d)
		}
	}
}

// cronSettings are the [cron.<task>] keys.
func cronSettings() []setting {
	var out []setting
	var scratch CronConfig
	for i, t := range scratch.list() {
		name, flag := t.name, "cron-"+strings.ReplaceAll(t.name, "_", "-")
		task := func(c *Config) cronTask { return c.Cron.list()[i] }
		out = append(out,
			setting{key: "cron." + name + ".enabled", flag: flag + "-enabled", usage: "run the periodic task " + name + " (" + t.what + ") on its schedule; off, an administrator can still run it",
				field: func(c *Config) any { return &task(c).cfg.Enabled }},
			setting{key: "cron." + name + ".schedule", flag: flag + "-schedule", usage: "when " + name + " runs: cron fields (an optional leading seconds field) or a descriptor such as @every 10m or @midnight",
				field: func(c *Config) any { return &task(c).cfg.Schedule }},
			setting{key: "cron." + name + ".run_at_start", flag: flag + "-run-at-start", usage: "also run " + name + " when the server starts",
				field: func(c *Config) any { return &task(c).cfg.RunAtStart }})
		if t.olderThan != nil {
			out = append(out, setting{key: "cron." + name + ".older_than", flag: flag + "-older-than",
				usage: name + ": " + t.olderWhat + " (a Go duration)",
				field: func(c *Config) any { return task(c).olderThan }})
		}
		if t.timeout != nil {
			out = append(out, setting{key: "cron." + name + ".timeout", flag: flag + "-timeout",
				usage: name + ": how long " + t.timeoutWhat + " may take on one repository before it counts as failed (a Go duration)",
				field: func(c *Config) any { return task(c).timeout }})
		}
	}
	return out
}

// hours writes a whole number of hours as "168h", as Gitea's app.ini does;
// other durations as Go writes them.
func hours(d time.Duration) string {
	if d > 0 && d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.String()
}
