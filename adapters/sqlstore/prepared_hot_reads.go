package sqlstore

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// hotRead names one of the lookups every authenticated request makes, run
// as a statement prepared on the read pool (statements.go): on SQLite,
// parsing and planning was about half the cost of a user lookup.
type hotRead uint8

const (
	hotUserByID hotRead = iota
	hotUserByName
	hotTokensByLastEight
	// hotRepoByFullName resolves "owner/name" in every repository route.
	hotRepoByFullName
)

// hotStmt returns the prepared statement of r when the call runs outside any
// transaction; nil inside one, where the ordinary query path keeps it on
// the transaction.
func (c conn) hotStmt(ctx context.Context, r hotRead) *preparedStmt {
	if c.owner == nil {
		return nil
	}
	d := c.owner
	return c.readStmt(ctx, d.stmts.text(r, func() string { return d.hotReadText(r) }))
}

// hotReadText is r's statement in the dialect's placeholders. On SQLite
// the account reads select userColumns, for scanUserRows.
func (d *DB) hotReadText(r hotRead) string {
	if d.dialect == DialectSQLite {
		switch r {
		case hotUserByID:
			return userSelectSQLite + " WHERE u.id = ?"
		case hotUserByName:
			return userSelectSQLite + " WHERE u.lower_name = ?"
		}
	}
	ph, ph2 := bun.Safe("?"), bun.Safe("?")
	if d.dialect == DialectPostgres {
		ph, ph2 = bun.Safe("$1"), bun.Safe("$2")
	}
	return hotReadTexts[r](d.read, ph, ph2)
}

// hotReadTexts build each hotRead's statement with bun, which writes the
// column lists from the models as its own queries do.
var hotReadTexts = [...]func(db *bun.DB, ph, ph2 bun.Safe) string{
	hotUserByID: func(db *bun.DB, ph, _ bun.Safe) string {
		return db.NewSelect().Model((*userRow)(nil)).Where("u.id = ?", ph).String()
	},
	hotUserByName: func(db *bun.DB, ph, _ bun.Safe) string {
		return db.NewSelect().Model((*userRow)(nil)).Where("u.lower_name = ?", ph).String()
	},
	hotTokensByLastEight: func(db *bun.DB, ph, _ bun.Safe) string {
		return db.NewSelect().Model((*tokenRow)(nil)).Where("t.last_eight = ?", ph).String()
	},
	hotRepoByFullName: func(db *bun.DB, ph, ph2 bun.Safe) string {
		return repoByFullNameQuery(db, (*repoOwnerRow)(nil), ph, ph2).String()
	},
}

// scanHotUser runs ps, the hot account read hotReadText made, into row:
// by hand on SQLite (scanUserRows), with bun's reflection on Postgres.
func (c conn) scanHotUser(ctx context.Context, ps *preparedStmt, row *userRow, arg any) error {
	if c.owner.dialect != DialectSQLite {
		return c.scanOne(ctx, ps, row, arg)
	}
	rows, err := queryRows(ctx, ps, scanUserRows, arg)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return sql.ErrNoRows
	}
	*row = rows[0]
	return nil
}
