package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Schema version 000055, frozen once released: an activity's actor may be
// the Actions pseudo-user (user.ActionsUserID, -2, as Gitea records it), so
// activities.act_user_id loses its foreign key to users; a trigger deletes
// an account's records with it, as the key's ON DELETE CASCADE did. SQLite
// cannot drop a key: the table is made again with the same columns, rows,
// indexes and id sequence.

// activitiesColumns are the activities table's columns, in order.
const activitiesColumns = `id, user_id, act_user_id, op_type, repo_id, repo_owner_id, comment_id, ref_name, content,
	is_private, created_unix`

// activitiesTableSQLite is the table as up000035 made it, with the key to
// users when withActor is set.
func activitiesTableSQLite(name string, withActor bool) string {
	q := `CREATE TABLE "` + name + `" ("id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL,
		"act_user_id" INTEGER NOT NULL, "op_type" varchar(40) NOT NULL, "repo_id" INTEGER NOT NULL,
		"repo_owner_id" INTEGER NOT NULL, "comment_id" INTEGER NOT NULL DEFAULT 0, "ref_name" text NOT NULL DEFAULT '',
		"content" text NOT NULL DEFAULT '', "is_private" BOOLEAN NOT NULL DEFAULT false, "created_unix" INTEGER NOT NULL,
		FOREIGN KEY ("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`
	if withActor {
		q += `, FOREIGN KEY ("act_user_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	}
	return q + `)`
}

// rebuildActivitiesSQLite makes the activities table again, with or
// without the key to users, keeping its rows, indexes and id sequence.
func rebuildActivitiesSQLite(withActor bool) []string {
	stmts := []string{
		activitiesTableSQLite("activities_rebuilt", withActor),
		`INSERT INTO activities_rebuilt (` + activitiesColumns + `) SELECT ` + activitiesColumns + ` FROM activities`,
		// AUTOINCREMENT never hands out an id again: the new table starts
		// where the old one was.
		`INSERT INTO sqlite_sequence (name, seq) SELECT 'activities_rebuilt', 0
			WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'activities_rebuilt')`,
		`UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'activities'), 0))
			WHERE name = 'activities_rebuilt'`,
		`DROP TABLE activities`,
		`ALTER TABLE activities_rebuilt RENAME TO activities`,
	}
	for name, cols := range map[string]string{
		"activities_repo":  `"repo_id", "created_unix"`,
		"activities_actor": `"act_user_id", "created_unix"`,
		"activities_owner": `"repo_owner_id", "created_unix"`,
		"activities_user":  `"user_id", "created_unix"`,
	} {
		stmts = append(stmts, `CREATE INDEX "`+name+`" ON "activities" (`+cols+`)`)
	}
	return stmts
}

var up000055SQLite = append(rebuildActivitiesSQLite(false),
	`CREATE TRIGGER IF NOT EXISTS users_delete_activities AFTER DELETE ON users
		BEGIN DELETE FROM activities WHERE act_user_id = old.id; END`)

var up000055PG = []string{
	`DO $$
	DECLARE c text;
	BEGIN
		FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = 'activities'::regclass AND contype = 'f'
			AND confrelid = 'users'::regclass
		LOOP
			EXECUTE format('ALTER TABLE activities DROP CONSTRAINT %I', c);
		END LOOP;
	END $$`,
	`CREATE OR REPLACE FUNCTION depot_delete_user_activities() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		DELETE FROM activities WHERE act_user_id = OLD.id;
		RETURN NULL;
	END $$`,
	`CREATE OR REPLACE TRIGGER users_delete_activities AFTER DELETE ON users
		FOR EACH ROW EXECUTE FUNCTION depot_delete_user_activities()`,
}

func up000055(ctx context.Context, tx bun.Tx) error {
	stmts := up000055SQLite
	if tx.Dialect().Name() == dialect.PG {
		stmts = up000055PG
	}
	return execAll(ctx, tx, stmts)
}

// down000055 puts the key back; the records of no account (the Actions
// pseudo-user's) go first, as the key does not allow them.
func down000055(ctx context.Context, tx bun.Tx) error {
	orphans := `DELETE FROM activities WHERE act_user_id NOT IN (SELECT id FROM users)`
	var stmts []string
	if tx.Dialect().Name() == dialect.PG {
		stmts = []string{`DROP TRIGGER IF EXISTS users_delete_activities ON users`,
			`DROP FUNCTION IF EXISTS depot_delete_user_activities()`, orphans,
			`ALTER TABLE activities ADD FOREIGN KEY (act_user_id) REFERENCES users (id) ON DELETE CASCADE`}
	} else {
		stmts = append([]string{`DROP TRIGGER IF EXISTS users_delete_activities`, orphans}, rebuildActivitiesSQLite(true)...)
	}
	return execAll(ctx, tx, stmts)
}

// execAll runs stmts in order.
func execAll(ctx context.Context, tx bun.Tx, stmts []string) error {
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
