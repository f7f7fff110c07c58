package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Schema version 000013, frozen once released: the issue full-text search
// index (SQLite FTS5, Postgres tsvector with a GIN index).
//
// Both backends index the same text the same way, so that a search gives
// the same issues on either: the title and the first 65,536 characters of
// the body of every issue, and of every plain comment (type 0), split into
// words at anything that is not a letter or a digit, lower-cased, with no
// stemming and no diacritics folding. Queries (issues.go, searchTerms) ask
// for every word of the keyword as a word prefix.
//
// SQLite keeps two external-content FTS5 tables, filled by triggers on the
// base tables, so every write that changes a title or body re-indexes it in
// its own transaction whoever writes it. Postgres needs no table: GIN
// indexes over the same expressions the queries use (issueSearchDocPG,
// commentSearchDocPG) are maintained by the database on every write.
// Punctuation is blanked before Postgres' parser sees the text, which would
// otherwise keep "main.go" or "a@b.org" whole where FTS5 splits them.

// ftsBodyChars is how much of a body is indexed: long enough for any
// real text, short enough that Postgres' tsvector (1 MB at most) never
// overflows on a huge paste.
const ftsBodyChars = 65536

var up000013SQLite = []string{
	`CREATE VIRTUAL TABLE IF NOT EXISTS issues_fts USING fts5(title, body,
		content='issues', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`,
	`CREATE TRIGGER IF NOT EXISTS issues_fts_insert AFTER INSERT ON issues BEGIN
		INSERT INTO issues_fts(rowid, title, body) VALUES (new.id, new.title, substr(new.body, 1, 65536));
	END`,
	`CREATE TRIGGER IF NOT EXISTS issues_fts_delete AFTER DELETE ON issues BEGIN
		INSERT INTO issues_fts(issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, substr(old.body, 1, 65536));
	END`,
	`CREATE TRIGGER IF NOT EXISTS issues_fts_update AFTER UPDATE OF title, body ON issues
	WHEN old.title <> new.title OR old.body <> new.body BEGIN
		INSERT INTO issues_fts(issues_fts, rowid, title, body) VALUES ('delete', old.id, old.title, substr(old.body, 1, 65536));
		INSERT INTO issues_fts(rowid, title, body) VALUES (new.id, new.title, substr(new.body, 1, 65536));
	END`,
	`INSERT INTO issues_fts(rowid, title, body) SELECT id, title, substr(body, 1, 65536) FROM issues`,

	`CREATE VIRTUAL TABLE IF NOT EXISTS comments_fts USING fts5(body,
		content='comments', content_rowid='id', tokenize='unicode61 remove_diacritics 0')`,
	`CREATE TRIGGER IF NOT EXISTS comments_fts_insert AFTER INSERT ON comments WHEN new.type = 0 BEGIN
		INSERT INTO comments_fts(rowid, body) VALUES (new.id, substr(new.body, 1, 65536));
	END`,
	`CREATE TRIGGER IF NOT EXISTS comments_fts_delete AFTER DELETE ON comments WHEN old.type = 0 BEGIN
		INSERT INTO comments_fts(comments_fts, rowid, body) VALUES ('delete', old.id, substr(old.body, 1, 65536));
	END`,
	`CREATE TRIGGER IF NOT EXISTS comments_fts_update_old AFTER UPDATE OF body, type ON comments
	WHEN old.type = 0 AND (new.type <> 0 OR old.body <> new.body) BEGIN
		INSERT INTO comments_fts(comments_fts, rowid, body) VALUES ('delete', old.id, substr(old.body, 1, 65536));
	END`,
	`CREATE TRIGGER IF NOT EXISTS comments_fts_update_new AFTER UPDATE OF body, type ON comments
	WHEN new.type = 0 AND (old.type <> 0 OR old.body <> new.body) BEGIN
		INSERT INTO comments_fts(rowid, body) VALUES (new.id, substr(new.body, 1, 65536));
	END`,
	`INSERT INTO comments_fts(rowid, body) SELECT id, substr(body, 1, 65536) FROM comments WHERE type = 0`,
}

// issueSearchDocPG and commentSearchDocPG are the indexed expressions; the
// queries must repeat them exactly for Postgres to use the indexes.
const (
	issueSearchDocPG   = `to_tsvector('simple'::regconfig, regexp_replace(issues.title || ' ' || left(issues.body, 65536), '[[:punct:]]+', ' ', 'g'))`
	commentSearchDocPG = `to_tsvector('simple'::regconfig, regexp_replace(left(comments.body, 65536), '[[:punct:]]+', ' ', 'g'))`
)

var up000013PG = []string{
	`CREATE INDEX IF NOT EXISTS idx_issues_search ON issues USING GIN (` + issueSearchDocPG + `)`,
	`CREATE INDEX IF NOT EXISTS idx_comments_search ON comments USING GIN (` + commentSearchDocPG + `) WHERE type = 0`,
}

func up000013(ctx context.Context, tx bun.Tx) error {
	stmts := up000013SQLite
	if tx.Dialect().Name() == dialect.PG {
		stmts = up000013PG
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func down000013(ctx context.Context, tx bun.Tx) error {
	stmts := []string{
		`DROP TRIGGER IF EXISTS issues_fts_insert`, `DROP TRIGGER IF EXISTS issues_fts_delete`,
		`DROP TRIGGER IF EXISTS issues_fts_update`, `DROP TABLE IF EXISTS issues_fts`,
		`DROP TRIGGER IF EXISTS comments_fts_insert`, `DROP TRIGGER IF EXISTS comments_fts_delete`,
		`DROP TRIGGER IF EXISTS comments_fts_update_old`, `DROP TRIGGER IF EXISTS comments_fts_update_new`,
		`DROP TABLE IF EXISTS comments_fts`,
	}
	if tx.Dialect().Name() == dialect.PG {
		stmts = []string{`DROP INDEX IF EXISTS idx_issues_search`, `DROP INDEX IF EXISTS idx_comments_search`}
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
