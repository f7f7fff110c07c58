package sqlstore

import (
	"context"
	"fmt"

	"github.com/depothq/depot/ports"
)

// PreparedStatement is a statement a DB holds prepared, with the labels its
// runs are timed under (prepared_runs.go).
type PreparedStatement struct {
	Text  string
	Op    ports.StatementOp
	Table string
}

// PrepareEveryStatement prepares every statement the stores prepare on d's
// dialect (each shape of the generated ones), on the pool they use, and
// returns every statement d then holds prepared, with its labels. A text
// that does not prepare is an error.
func (d *DB) PrepareEveryStatement(ctx context.Context) ([]PreparedStatement, error) {
	c := conn{owner: d, read: d.read, write: d.write}
	var reads, writes []string
	for r := range hotRepoByFullName + 1 {
		reads = append(reads, d.stmts.text(r, func() string { return d.hotReadText(r) }))
	}
	if d.dialect == DialectSQLite {
		pt := c.pageTexts(ctx)
		reads = append(reads, issueByIndexText, repoCountersSQL, openReposText, unreadPerRepoText,
			releaseAssetsOfReleasesText, pt.labels, pt.assignees, pt.attachments, pt.milestones, pt.users,
			(&AttachmentStore{c: c}).ofCommentsText(), (&PullReviewStore{c: c}).reviewsOfIssuesText(),
			(&PullStore{c: c}).pullsOfIssuesText(), (&RepoStore{c: c}).byIDsText())
		for _, state := range []string{"open", "closed", "all"} {
			for pull := range int8(3) {
				for _, order := range issueSorts {
					reads = append(reads, d.plainListText(plainListKey{state: state, pull: pull, order: order}))
				}
			}
		}
		for _, issue := range []bool{false, true} {
			for _, textOnly := range []bool{false, true} {
				for types := range 3 {
					for pull := range int8(3) {
						k := commentListKey{issue: issue, repo: !issue, types: types, pull: pull, textOnly: textOnly}
						reads = append(reads, d.commentListText(k), d.commentCountText(k))
					}
				}
			}
		}
		writes = append(writes, txStatementTexts...)
		for n := 1; n <= 3; n++ { // the claim prepares itself on the writer
			if _, ok := c.claimStmt(ctx, n); !ok {
				return nil, fmt.Errorf("the claim of %d kinds does not prepare", n)
			}
		}
	}
	for _, text := range reads {
		if d.stmts.read.get(ctx, d.read.DB, text, &d.stmts.sink) == nil {
			return nil, fmt.Errorf("does not prepare on the read pool: %s", text)
		}
	}
	for _, text := range writes {
		if d.stmts.write.get(ctx, d.write.DB, text, &d.stmts.sink) == nil {
			return nil, fmt.Errorf("does not prepare on the writer: %s", text)
		}
	}
	var out []PreparedStatement
	for _, set := range []*statementSet{&d.stmts.read, &d.stmts.write} {
		set.stmts.Range(func(k, v any) bool {
			p := v.(*preparedStmt)
			out = append(out, PreparedStatement{Text: k.(string), Op: p.op, Table: p.table})
			return true
		})
	}
	return out, nil
}

// SchemaTables are the names of the schema's tables.
func (d *DB) SchemaTables(ctx context.Context) (map[string]string, error) {
	if err := d.readSchemaTables(ctx); err != nil {
		return nil, err
	}
	return *d.schemaTables.Load(), nil
}
