package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gofrs/flock"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// migrationLockKey is the Postgres advisory lock that serialises migrations
// ("depot" in ASCII).
const migrationLockKey int64 = 0x6465706f74

// Migrate applies pending migrations. Two processes may call it at once on
// one database (the server starting while `depot migrate` runs): one waits
// for the other and then finds nothing left to do.
//
// bun's own migration lock is not used because it fails instead of waiting,
// and a crash while holding it leaves it set; the locks here are released by
// the kernel or the server when the holder dies.
func (d *DB) Migrate(ctx context.Context) error {
	unlock, err := d.lockMigrations(ctx)
	if err != nil {
		return fmt.Errorf("sqlstore: lock migrations: %w", err)
	}
	defer unlock()

	// Marking after success means a failed migration is retried on the next
	// run instead of being recorded as applied.
	m := migrate.NewMigrator(d.write, migrations(), migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("sqlstore: init migrations: %w", err)
	}
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("sqlstore: migrate: %w", err)
	}
	// The statement metrics name the tables the schema now has.
	if err := d.readSchemaTables(ctx); err != nil {
		return fmt.Errorf("sqlstore: read the schema's tables: %w", err)
	}
	return nil
}

// lockFile takes an exclusive file lock on path (gofrs/flock), polling
// until ctx ends. A file lock rather than the database itself: a migration
// runs many statements on the single writer connection, which a lock held
// in SQLite would deadlock, and the kernel drops the lock when its holder
// dies, so a crash never wedges it.
func lockFile(ctx context.Context, path string) (func(), error) {
	l := flock.New(path, flock.SetPermissions(0o600))
	ok, err := l.TryLockContext(ctx, 25*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ctx.Err()
	}
	return func() { _ = l.Unlock() }, nil
}

func (d *DB) lockMigrations(ctx context.Context) (func(), error) {
	if d.dialect == DialectSQLite {
		return lockFile(ctx, d.lockPath)
	}
	c, err := d.write.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// A session lock on a dedicated connection: it is held across the
	// migrator's own statements on other connections, and dies with the session.
	if _, err := c.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrationLockKey); err != nil {
		_ = c.Close()
		return nil, err
	}
	return func() {
		_, _ = c.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrationLockKey)
		_ = c.Close()
	}, nil
}

// migrations lists every schema version in order. Names are zero-padded so
// bun's lexical sort is numeric order; never renumber or edit a released one.
func migrations() *migrate.Migrations {
	ms := migrate.NewMigrations()
	add := func(name, comment string, up, down func(ctx context.Context, tx bun.Tx) error) {
		ms.Add(migrate.Migration{Name: name, Comment: comment, Up: inTx(up), Down: inTx(down)})
	}
	add("000001", "users_emails_tokens", up000001, down000001)
	add("000002", "repositories", up000002, down000002)
	add("000003", "commit_statuses", up000003, down000003)
	add("000004", "repository_search_index", up000004, down000004)
	add("000005", "public_keys", up000005, down000005)
	add("000006", "jobs", up000006, down000006)
	add("000007", "mirrors", up000007, down000007)
	add("000008", "webhooks", up000008, down000008)
	add("000009", "hook_deliveries", up000009, down000009)
	add("000010", "jobs_unqueued_index", up000010, down000010)
	add("000011", "organizations_and_teams", up000011, down000011)
	add("000012", "issue_tracker", up000012, down000012)
	add("000013", "issue_search_index", up000013, down000013)
	add("000014", "user_star_counts", up000014, down000014)
	add("000015", "user_blocks_and_avatars", up000015, down000015)
	add("000016", "users_visibility_index", up000016, down000016)
	add("000017", "comment_refs", up000017, down000017)
	add("000018", "repos_owner_index", up000018, down000018)
	add("000019", "original_authors", up000019, down000019)
	add("000020", "pull_requests", up000020, down000020)
	add("000021", "branch_protections", up000021, down000021)
	add("000022", "tag_protections", up000022, down000022)
	add("000023", "pull_reviews", up000023, down000023)
	add("000025", "releases", up000025, down000025)
	add("000026", "follows", up000026, down000026)
	add("000027", "gpg_keys", up000027, down000027)
	add("000028", "action_secrets", up000028, down000028)
	add("000029", "action_variables", up000029, down000029)
	add("000030", "user_badges", up000030, down000030)
	add("000031", "release_asset_links", up000031, down000031)
	add("000033", "upload_checksums", up000033, down000033)
	add("000034", "notifications", up000034, down000034)
	add("000035", "activities", up000035, down000035)
	add("000036", "action_runner_tokens", up000036, down000036)
	add("000037", "action_runs", up000037, down000037)
	add("000038", "packages", up000038, down000038)
	add("000039", "oauth2_applications", up000039, down000039)
	add("000040", "cron_tasks", up000040, down000040)
	add("000041", "releases_version", up000041, down000041)
	add("000044", "action_runners", up000044, down000044)
	add("000045", "notifications_user_status_repo", up000045, down000045)
	add("000046", "action_task_tokens_artifacts", up000046, down000046)
	add("000047", "activitypub", up000047, down000047)
	add("000048", "container_registry", up000048, down000048)
	add("000050", "web_sessions", up000050, down000050)
	add("000051", "action_task_log_archived", up000051, down000051)
	add("000052", "package_cleanup_rules", up000052, down000052)
	add("000053", "cron_tasks_message", up000053, down000053)
	add("000054", "action_runs_workflow_name", up000054, down000054)
	add("000055", "activities_any_actor", up000055, down000055)
	return ms
}

// inTx runs a migration step in one transaction (DDL is transactional on
// both backends), so a failure leaves the schema as it was.
func inTx(fn func(ctx context.Context, tx bun.Tx) error) func(context.Context, *migrate.Migrator, *migrate.Migration) error {
	return func(ctx context.Context, m *migrate.Migrator, _ *migrate.Migration) error {
		return m.DB().RunInTx(ctx, nil, fn)
	}
}
