package sqlstore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// statementRecorder keeps what the statement hook reports.
type statementRecorder struct {
	mu   sync.Mutex
	seen []recordedStatement
}

type recordedStatement struct {
	op     ports.StatementOp
	table  string
	failed bool
}

func (r *statementRecorder) StatementDone(op ports.StatementOp, table string, took time.Duration, failed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, recordedStatement{op, table, failed})
}

func (r *statementRecorder) count(s recordedStatement) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, x := range r.seen {
		if x == s {
			n++
		}
	}
	return n
}

// TestStatementMetricsNameKindAndTable runs statements through the stores
// with the hook on: each is reported with its kind and its table, a
// unique violation as a failed insert, a row not found as no failure, and
// BEGIN and COMMIT as "other" statements of no table.
func TestStatementMetricsNameKindAndTable(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			rec := &statementRecorder{}
			d.ObserveStatements(t.Context(), rec)
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()

			is.NoErr(d.Stores().Users.Create(ctx, newUser("counted")))
			is.True(d.Stores().Users.Create(ctx, newUser("counted")) != nil) // the name is taken
			err := d.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				if _, err := tx.Users.GetByName(ctx, "counted"); err != nil {
					return err
				}
				_, err := tx.Users.GetByName(ctx, "absent")
				return errors.Join(err, errors.New("undo"))
			})
			is.True(err != nil)

			is.True(rec.count(recordedStatement{ports.StatementInsert, "users", false}) >= 1)
			is.True(rec.count(recordedStatement{ports.StatementInsert, "users", true}) >= 1)
			is.True(rec.count(recordedStatement{ports.StatementSelect, "users", false}) >= 2)
			is.Equal(rec.count(recordedStatement{ports.StatementSelect, "users", true}), 0)
			is.True(rec.count(recordedStatement{ports.StatementOther, ports.StatementTableOther, false}) >= 2) // BEGIN, ROLLBACK
			rec.mu.Lock()
			defer rec.mu.Unlock()
			for _, s := range rec.seen { // only the schema's tables, never a statement's own text
				is.True(s.table == ports.StatementTableOther || len(s.table) < 40)
			}
		})
	}
}

// TestPreparedStatementRunsReported reads accounts by id, a statement the
// store prepares itself on both databases (bun's hook does not see it):
// each run is reported as a select of users, a row not found as no
// failure, and a run that cannot start (its request gone) as a failed one.
func TestPreparedStatementRunsReported(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			is := is.New(t)
			d := openMigrated(t, b)
			u := newUser("timed")
			is.NoErr(d.Stores().Users.Create(t.Context(), u))
			rec := &statementRecorder{}
			d.ObserveStatements(t.Context(), rec)
			users := d.Stores().Users

			_, err := users.GetByID(t.Context(), u.ID)
			is.NoErr(err)
			_, err = users.GetByID(t.Context(), u.ID+1000)
			is.True(errors.Is(err, errs.ErrNotFound))
			gone, cancel := context.WithCancel(t.Context())
			cancel()
			_, err = users.GetByID(gone, u.ID)
			is.True(err != nil)

			is.Equal(rec.count(recordedStatement{ports.StatementSelect, "users", false}), 2)
			is.Equal(rec.count(recordedStatement{ports.StatementSelect, "users", true}), 1)
		})
	}
}
