package ports

import "time"

// StatementOp is the kind of a database statement, for the metrics page.
type StatementOp uint8

// The statement kinds the metrics page tells apart; everything else
// (BEGIN, COMMIT, CREATE, WITH…) is StatementOther.
const (
	StatementSelect StatementOp = iota
	StatementInsert
	StatementUpdate
	StatementDelete
	StatementOther
	// StatementOps is how many kinds there are.
	StatementOps
)

// String is the kind's label: select, insert, update, delete or other.
func (o StatementOp) String() string {
	switch o {
	case StatementSelect:
		return "select"
	case StatementInsert:
		return "insert"
	case StatementUpdate:
		return "update"
	case StatementDelete:
		return "delete"
	}
	return "other"
}

// StatementTableOther is the table of a statement whose table is not one of
// the schema's (or not known at all), so that the series stay few.
const StatementTableOther = "other"

// StatementMetrics records the database's statements for the metrics page.
// It is called once per statement, so an implementation must be cheap.
type StatementMetrics interface {
	// StatementDone records one statement: its kind, the table it names
	// (one of the schema's tables, or StatementTableOther), how long it took
	// and whether it failed (finding no row is not a failure).
	StatementDone(op StatementOp, table string, took time.Duration, failed bool)
}
