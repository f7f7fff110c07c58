package site

import "time"

// CronTask configures one periodic task, as Gitea's [cron.<task>] does.
type CronTask struct {
	// Enabled runs the task on its schedule; a disabled task still runs
	// when an administrator asks (POST /admin/cron/{task}).
	Enabled bool
	// Schedule is when it runs: five cron fields (an optional leading
	// seconds field) or a descriptor such as "@every 10m" or "@midnight".
	Schedule string
	// RunAtStart also runs it once when the server starts.
	RunAtStart bool
	// OlderThan is how old what a cleanup task removes must be; the other
	// tasks ignore it.
	OlderThan time.Duration
	// Timeout bounds the work on one repository of a task that walks them
	// (repo_health_check's `git fsck`, git_gc_repos's `git gc`); the other
	// tasks ignore it.
	Timeout time.Duration
}

// The periodic tasks Depot runs, by Gitea's names.
const (
	// CronUpdateMirrors queues the syncs of the pull and push mirrors whose
	// scheduled sync is overdue.
	CronUpdateMirrors = "update_mirrors"
	// CronCleanupHookTaskTable deletes the record of webhook deliveries
	// attempted more than OlderThan ago.
	CronCleanupHookTaskTable = "cleanup_hook_task_table"
	// CronDeleteOldActions deletes the activity records (Gitea's actions)
	// made more than OlderThan ago.
	CronDeleteOldActions = "delete_old_actions"
	// CronCleanupArtifacts deletes the Actions artifacts past their
	// expiry, rows and bytes.
	CronCleanupArtifacts = "cleanup_artifacts"
	// CronCleanupPackages applies the owners' package cleanup rules (a job
	// per enabled rule) and removes the package blobs nothing names and the
	// container uploads left idle, last written more than OlderThan ago.
	CronCleanupPackages = "cleanup_packages"
	// CronRepoHealthCheck runs `git fsck` on every repository and reports
	// those that fail.
	CronRepoHealthCheck = "repo_health_check"
	// CronGitGCRepos runs `git gc` on every repository, whatever shape it
	// is in (the housekeeping after a push runs it only where needed).
	CronGitGCRepos = "git_gc_repos"
)

// DefaultCron is Gitea's default configuration of each task.
func DefaultCron() map[string]CronTask {
	return map[string]CronTask{
		CronUpdateMirrors:        {Enabled: true, Schedule: "@every 10m"},
		CronCleanupHookTaskTable: {Enabled: true, Schedule: "@midnight", OlderThan: 168 * time.Hour},
		CronDeleteOldActions:     {Enabled: false, Schedule: "@every 168h", OlderThan: 365 * 24 * time.Hour},
		CronCleanupArtifacts:     {Enabled: true, Schedule: "@midnight", RunAtStart: true},
		CronCleanupPackages:      {Enabled: true, Schedule: "@midnight", RunAtStart: true, OlderThan: 24 * time.Hour},
		CronRepoHealthCheck:      {Enabled: true, Schedule: "@midnight", Timeout: 60 * time.Second},
		CronGitGCRepos:           {Enabled: false, Schedule: "@every 72h", Timeout: 60 * time.Minute},
	}
}
