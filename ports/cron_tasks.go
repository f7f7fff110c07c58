package ports

import (
	"context"
	"time"
)

// CronTaskRun is what Depot remembers of one periodic task between
// restarts: how often it ran and when it last ran and runs next.
type CronTaskRun struct {
	// Name is the task's name, as Gitea's (e.g. "update_mirrors").
	Name string
	// ExecTimes counts the runs finished so far.
	ExecTimes int64
	// Prev is when the last run started; zero before the first.
	Prev time.Time
	// Next is when the schedule runs the task next; zero when disabled.
	Next time.Time
	// Message is what the last run reported (its failure), empty when it
	// went well.
	Message string
}

// CronTaskStore keeps the run record of the periodic tasks.
type CronTaskStore interface {
	// All returns the record of every task that has one, by name.
	All(ctx context.Context) ([]*CronTaskRun, error)
	// RecordRun counts one run of name started at prev, with next as its
	// next due time and message as what it reported, creating the record
	// on the first run.
	RecordRun(ctx context.Context, name string, prev, next time.Time, message string) error
	// SetNext stores when name runs next without counting a run.
	SetNext(ctx context.Context, name string, next time.Time) error
}
