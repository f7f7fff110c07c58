package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Schema version 000041, frozen once released: the version of a
// repository's releases.
//
// repos.releases_version moves with every insert, update and delete of a
// row of releases or release_assets, by triggers, in the writing
// transaction, whichever path writes (the API, a push that deletes tags, a
// download count, a cascade). The release list caches its pages under it
// (app/content/release_pages.go): a repository read after a write shows the
// new version, so no request is answered from a page read before it.
var up000041SQLite = func() []string {
	out := []string{`ALTER TABLE repos ADD COLUMN releases_version BIGINT NOT NULL DEFAULT 0`}
	for _, table := range []string{"releases", "release_assets"} {
		for _, ev := range []struct{ name, when, ids string }{
			{"insert", "AFTER INSERT", "new.repo_id"},
			{"update", "AFTER UPDATE", "old.repo_id, new.repo_id"},
			{"delete", "AFTER DELETE", "old.repo_id"},
		} {
			out = append(out, `CREATE TRIGGER IF NOT EXISTS `+table+`_version_`+ev.name+` `+ev.when+` ON `+table+
				` BEGIN UPDATE repos SET releases_version = releases_version + 1 WHERE id IN (`+ev.ids+`); END`)
		}
	}
	return out
}()

var up000041PG = []string{
	`ALTER TABLE repos ADD COLUMN IF NOT EXISTS releases_version BIGINT NOT NULL DEFAULT 0`,
	`CREATE OR REPLACE FUNCTION depot_move_releases_version() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF TG_OP = 'INSERT' THEN
			UPDATE repos SET releases_version = releases_version + 1 WHERE id = NEW.repo_id;
		ELSIF TG_OP = 'UPDATE' THEN
			UPDATE repos SET releases_version = releases_version + 1 WHERE id IN (OLD.repo_id, NEW.repo_id);
		ELSE
			UPDATE repos SET releases_version = releases_version + 1 WHERE id = OLD.repo_id;
		END IF;
		RETURN NULL;
	END $$`,
	`CREATE OR REPLACE TRIGGER releases_version AFTER INSERT OR UPDATE OR DELETE ON releases
		FOR EACH ROW EXECUTE FUNCTION depot_move_releases_version()`,
	`CREATE OR REPLACE TRIGGER release_assets_version AFTER INSERT OR UPDATE OR DELETE ON release_assets
		FOR EACH ROW EXECUTE FUNCTION depot_move_releases_version()`,
}

func up000041(ctx context.Context, tx bun.Tx) error {
	stmts := up000041SQLite
	if tx.Dialect().Name() == dialect.PG {
		stmts = up000041PG
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func down000041(ctx context.Context, tx bun.Tx) error {
	var stmts []string
	if tx.Dialect().Name() == dialect.PG {
		stmts = []string{`DROP TRIGGER IF EXISTS releases_version ON releases`,
			`DROP TRIGGER IF EXISTS release_assets_version ON release_assets`,
			`DROP FUNCTION IF EXISTS depot_move_releases_version()`}
	} else {
		for _, table := range []string{"releases", "release_assets"} {
			for _, ev := range []string{"insert", "update", "delete"} {
				stmts = append(stmts, `DROP TRIGGER IF EXISTS `+table+`_version_`+ev)
			}
		}
	}
	stmts = append(stmts, `ALTER TABLE repos DROP COLUMN releases_version`)
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
