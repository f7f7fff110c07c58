// Package sqlstore implements the store ports with bun on SQLite (modernc,
// pure Go) and Postgres (pgdriver). bun models live here only; domain values
// are converted at the border, and driver errors become domain categories.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"

	// The pure-Go SQLite driver registers itself as "sqlite"; no cgo needed.
	_ "modernc.org/sqlite"

	"github.com/depothq/depot/ports"
)

// The dialect names Dialect reports.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// SQLiteFile is the database file's name inside the data directory.
const SQLiteFile = "depot.db"

// Config chooses the backend: an empty DSN means SQLite under DataDir, a
// postgres:// or postgresql:// DSN means Postgres.
type Config struct {
	DSN     string
	DataDir string
}

// DB is an open database with its connection pools. SQLite gets two pools so
// that plain reads never queue behind the single writer connection.
type DB struct {
	dialect string
	// write runs transactions and writes; for SQLite it has exactly one connection.
	write *bun.DB
	// read serves non-transactional reads; for Postgres it is write.
	read *bun.DB
	// lockPath is the file that serialises migrations between SQLite processes.
	lockPath string
	// file is SQLite's database file, "" on Postgres.
	file string
	// stmts holds the statements prepared on each pool (statements.go).
	stmts statements
	// group batches the job queue's and the deliveries' small writes on
	// SQLite's writer (group.go).
	group groupCommit
	// writer says what holds SQLite's writer, for waits that run out
	// (pool_waits.go).
	writer writerHolder
	// siteLocks are the site locks of this handle (site_locks.go).
	siteLocks     *SiteLocks
	siteLocksOnce sync.Once
	// changeStamps tell caches of answers when the data changed (change_stamps.go).
	changeStamps     *ChangeStamps
	changeStampsOnce sync.Once
	// schemaTables are the schema's tables by name, the table labels of the
	// statement metrics (statement_metrics.go); nil until read.
	schemaTables atomic.Pointer[map[string]string]
}

// Open connects to the database cfg names. It does not migrate: call Migrate.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	dsn := strings.TrimSpace(cfg.DSN)
	switch {
	case dsn == "":
		return openSQLite(ctx, cfg.DataDir)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return openPostgres(ctx, dsn)
	default:
		// The DSN may hold a password, so it is not echoed.
		return nil, errors.New("sqlstore: unsupported database DSN: want empty (SQLite) or postgres://")
	}
}

// sqlitePragmas apply to every connection of both pools. foreign_keys is
// per connection in SQLite, so it must be in the DSN or cascades silently stop.
const sqlitePragmas = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"

// sqliteWriterPragmas apply to the writer only. synchronous=FULL makes every
// commit durable before it is acknowledged, also across a power loss (WAL with
// NORMAL may roll back the last commits then): no acknowledged write is lost.
const sqliteWriterPragmas = "&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"

func openSQLite(ctx context.Context, dataDir string) (*DB, error) {
	if dataDir == "" {
		return nil, errors.New("sqlstore: SQLite needs a data directory")
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("sqlstore: create data directory: %w", err)
	}
	path := filepath.Join(dataDir, SQLiteFile)

	// BEGIN IMMEDIATE takes the write lock up front, so a transaction that
	// reads then writes cannot fail with SQLITE_BUSY when upgrading its lock:
	// it waits for busy_timeout at BEGIN instead.
	writer, err := sql.Open("sqlite", path+"?"+sqlitePragmas+sqliteWriterPragmas)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: open SQLite writer: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	// The writer's first connection switches the file to WAL before any
	// reader opens it; WAL is what lets readers run beside the writer.
	if err := writer.PingContext(ctx); err != nil {
		_ = writer.Close()
		return nil, fmt.Errorf("sqlstore: open SQLite writer: %w", err)
	}

	// query_only turns an accidental write on the read pool into an error
	// instead of a second writer contending for the lock.
	reader, err := sql.Open("sqlite", path+"?"+sqlitePragmas+"&_pragma=query_only(1)")
	if err != nil {
		_ = writer.Close()
		return nil, fmt.Errorf("sqlstore: open SQLite reader: %w", err)
	}
	n := max(4, runtime.NumCPU())
	reader.SetMaxOpenConns(n)
	reader.SetMaxIdleConns(n)
	if err := reader.PingContext(ctx); err != nil {
		_ = writer.Close()
		_ = reader.Close()
		return nil, fmt.Errorf("sqlstore: open SQLite reader: %w", err)
	}

	d := &DB{
		dialect:  DialectSQLite,
		write:    bun.NewDB(writer, sqlitedialect.New()),
		read:     bun.NewDB(reader, sqlitedialect.New()),
		lockPath: path + ".migrate-lock",
		file:     path,
	}
	d.group.writer = &d.writer
	return d, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	sqldb := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	sqldb.SetMaxOpenConns(max(8, 4*runtime.NumCPU()))
	sqldb.SetMaxIdleConns(max(4, runtime.NumCPU()))
	if err := sqldb.PingContext(ctx); err != nil {
		_ = sqldb.Close()
		return nil, fmt.Errorf("sqlstore: connect to Postgres: %w", err)
	}
	db := bun.NewDB(sqldb, pgdialect.New())
	return &DB{dialect: DialectPostgres, write: db, read: db}, nil
}

// Close closes both pools.
func (d *DB) Close() error {
	d.closeStatements()
	err := d.write.Close()
	if d.changeStamps != nil {
		err = errors.Join(err, d.changeStamps.close())
	}
	if d.read != d.write {
		err = errors.Join(err, d.read.Close())
	}
	return err
}

// Dialect is "sqlite" or "postgres", for callers whose behaviour must differ
// (reporting, backups).
func (d *DB) Dialect() string { return d.dialect }

// Stores returns stores outside any transaction: reads go to the read pool,
// writes autocommit on the writer. Called with a ctx from inside InTx they
// join that transaction instead, because on SQLite the single writer
// connection is held by it and a write outside would wait forever.
func (d *DB) Stores() ports.Stores {
	return d.storesOn(conn{owner: d, read: d.read, write: d.write})
}

// Transactor returns d as the port's transaction runner.
func (d *DB) Transactor() ports.Transactor { return d }

func (d *DB) storesOn(c conn) ports.Stores {
	return ports.Stores{
		Users:  &UserStore{c: c},
		Emails: &EmailStore{c: c},
		Tokens: &AccessTokenStore{c: c},

		Repos:         &RepoStore{c: c},
		Collaborators: &CollaboratorStore{c: c},
		DeployKeys:    &DeployKeyStore{c: c},
		Topics:        &TopicStore{c: c},
		Stars:         &StarStore{c: c},
		Watches:       &WatchStore{c: c},
		Transfers:     &TransferStore{c: c},
		PublicKeys:    &PublicKeyStore{c: c},
		GPGKeys:       &GPGKeyStore{c: c},

		BranchProtections:   &BranchProtectionStore{c: c},
		TagProtections:      &TagProtectionStore{c: c},
		Releases:            &ReleaseStore{c: c},
		ReleaseAssets:       &ReleaseAssetStore{c: c},
		UploadRefs:          &UploadRefStore{c: c},
		Packages:            &PackageStore{c: c},
		Containers:          &ContainerStore{c: c},
		PackageCleanupRules: &PackageCleanupRuleStore{c: c},

		CommitStatuses: &CommitStatusStore{c: c},

		Jobs:           &JobStore{c: c},
		Mirrors:        &MirrorStore{c: c},
		PushMirrors:    &PushMirrorStore{c: c},
		Hooks:          &HookStore{c: c},
		HookDeliveries: &HookDeliveryStore{c: c},

		Orgs:      &OrgStore{c: c},
		Blocks:    &BlockStore{c: c},
		Follows:   &FollowStore{c: c},
		Badges:    &UserBadgeStore{c: c},
		CronTasks: &CronTaskStore{c: c},

		Activities:    &ActivityStore{c: c},
		Notifications: &NotificationStore{c: c},

		Issues:         &IssueStore{c: c},
		Labels:         &LabelStore{c: c},
		Milestones:     &MilestoneStore{c: c},
		Comments:       &CommentStore{c: c},
		Reactions:      &ReactionStore{c: c},
		Attachments:    &AttachmentStore{c: c},
		TrackedTimes:   &TrackedTimeStore{c: c},
		IssueRelations: &IssueRelationStore{c: c},
		Pulls:          &PullStore{c: c},
		PullReviews:    &PullReviewStore{c: c},

		ActionVariables: &ActionVariableStore{c: c},
		ActionSecrets:   &ActionSecretStore{c: c},

		OAuth2Apps:         &OAuth2AppStore{c: c},
		OAuth2Grants:       &OAuth2GrantStore{c: c},
		ActionRuns:         &ActionRunStore{c: c},
		ActorKeys:          &ActorKeyStore{c: c},
		ActivityPubInbox:   &ActivityPubInboxStore{c: c},
		ActionRunnerTokens: &ActionRunnerTokenStore{c: c},
		ActionRunners:      &ActionRunnerStore{c: c},
		ActionTasks:        &ActionTaskStore{c: c},
		ActionArtifacts:    &ActionArtifactStore{c: c},
		WebSessions:        &WebSessionStore{c: c},
	}
}

// conn picks the handle a store method runs on.
type conn struct {
	// owner is set on non-transactional stores, so a ctx-carried transaction
	// of the same DB takes precedence.
	owner       *DB
	read, write bun.IDB
	// home is the DB a transaction's stores run in (owner is nil there), for
	// its writer's prepared statements (statements.go).
	home *DB
}

func (c conn) r(ctx context.Context) bun.IDB {
	if tx, ok := c.owner.txFrom(ctx); ok {
		return tx
	}
	return c.read
}

func (c conn) w(ctx context.Context) bun.IDB {
	if tx, ok := c.owner.txFrom(ctx); ok {
		return tx
	}
	return c.write
}
