// Package cron runs Depot's periodic tasks, by Gitea's names
// (update_mirrors, cleanup_hook_task_table), on the schedules of their
// [cron.<task>] settings, and lets a site administrator list them and run
// one at once.
//
// Every run goes through the durable job queue, so that it survives a
// restart and runs once however many servers share the database. A task's
// scheduled runs are ticks, jobs of kind KindRun due at the scheduled
// instant and keyed by it; the cron_tasks row holds the instant the task
// runs next, and a tick for any other instant is superseded and does
// nothing. A run records itself (a count, when it started, the next
// instant) and queues the next tick in one transaction.
package cron

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// KindRun is the job kind of a task's runs, scheduled or asked for.
const KindRun = "cron.run"

// runLease bounds one run of a task. The tasks that walk every repository
// (repo_health_check, git_gc_repos: git gc may take minutes on each of
// many) need hours on a large site. A run whose server died is taken back
// at once by that server's next start (its node's leases), by another
// server only when the lease ends.
const runLease = 6 * time.Hour

// Work is what a task does when it runs; now is the run's start.
type Work func(ctx context.Context, now time.Time) error

// task is one periodic task: its name, settings, parsed schedule and work.
type task struct {
	name     string
	cfg      site.CronTask
	schedule jobs.CronSchedule
	work     Work
}

// Service schedules and runs the periodic tasks.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	jobs   *jobs.Runner
	clock  ports.Clock
	log    *slog.Logger
	tasks  []*task
}

// Task is one task as the administrator's list shows it.
type Task struct {
	Name string
	// Schedule is the task's schedule as configured.
	Schedule string
	// Next is when it runs next; zero when it is disabled.
	Next time.Time
	// Prev is when its last run started; zero before the first.
	Prev time.Time
	// ExecTimes counts its runs.
	ExecTimes int64
}

// newService builds the service over the tasks' work, by name, with the
// settings of cfg; a task without settings or work, or whose schedule does
// not parse, is a start-up error naming its key.
func newService(cfg map[string]site.CronTask, work map[string]Work, stores ports.Stores, tx ports.Transactor,
	runner *jobs.Runner, clock ports.Clock, log *slog.Logger) (*Service, error) {
	s := &Service{stores: stores, tx: tx, jobs: runner, clock: clock, log: log}
	var bad []error
	names := make([]string, 0, len(work))
	for name := range work {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c, ok := cfg[name]
		if !ok {
			bad = append(bad, fmt.Errorf("cron.%s: no settings", name))
			continue
		}
		sched, err := jobs.ParseCronSchedule(c.Schedule)
		if err != nil {
			bad = append(bad, fmt.Errorf("cron.%s.schedule: %w", name, err))
			continue
		}
		s.tasks = append(s.tasks, &task{name: name, cfg: c, schedule: sched, work: work[name]})
	}
	if len(bad) > 0 {
		return nil, errors.Join(bad...)
	}
	runner.Handle(KindRun, jobs.KindOptions{Concurrency: 2, Lease: runLease}, s.runJob)
	return s, nil
}

func (s *Service) task(name string) *task {
	for _, t := range s.tasks {
		if t.name == name {
			return t
		}
	}
	return nil
}

// runPayload is a run's input.
type runPayload struct {
	Task string `json:"task"`
	// Due is the scheduled instant (Unix seconds) of a tick; 0 for a run
	// asked for (at start or by an administrator).
	Due int64 `json:"due,omitempty"`
}

// tickJob is the run of name scheduled at the instant at.
func tickJob(name string, at time.Time) ports.NewJob {
	p := runPayload{Task: name, Due: at.Unix()}
	data, _ := json.Marshal(p) // a string and an integer always encode
	return ports.NewJob{Kind: KindRun, Dedup: name + "@" + strconv.FormatInt(p.Due, 10), Payload: data, RunAt: at}
}

// nowJob is a run of name asked for now; while one waits, asking again adds
// nothing.
func nowJob(name string) ports.NewJob {
	data, _ := json.Marshal(runPayload{Task: name})
	return ports.NewJob{Kind: KindRun, Dedup: name, Payload: data}
}

// Start schedules the tasks, in one transaction: an enabled task keeps the
// next instant recorded (an overdue one runs at once) unless its schedule
// now fires sooner, and the tick of that instant is queued unless it is;
// a disabled task's next instant is cleared, which supersedes its queued
// tick. The tasks that run at start are queued too. Call it once the
// schema is migrated, before the job runner starts.
func (s *Service) Start(ctx context.Context) error {
	return s.schedule(ctx, true)
}

// keepEvery is how often Keep checks the schedule.
const keepEvery = 10 * time.Minute

// Keep checks the schedule every ten minutes until ctx ends, as Start does
// without the runs at start: a chain of ticks broken by a run that failed
// for good (its record could not be written) is mended.
func (s *Service) Keep(ctx context.Context) {
	t := time.NewTicker(keepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.schedule(ctx, false); err != nil && ctx.Err() == nil {
				s.log.Warn("cron: checking the schedule; trying again later", "err", err)
			}
		}
	}
}

// schedule is Start, with the runs at start queued only when atStart.
func (s *Service) schedule(ctx context.Context, atStart bool) error {
	now := s.clock.Now()
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		recs, err := records(ctx, tx)
		if err != nil {
			return err
		}
		for _, t := range s.tasks {
			rec := recs[t.name]
			if !t.cfg.Enabled {
				if rec != nil && !rec.Next.IsZero() {
					if err := tx.CronTasks.SetNext(ctx, t.name, time.Time{}); err != nil {
						return err
					}
				}
			} else {
				next := t.schedule.Next(now)
				if rec != nil && !rec.Next.IsZero() && !rec.Next.After(next) {
					next = rec.Next
				} else if err := tx.CronTasks.SetNext(ctx, t.name, next); err != nil {
					return err
				}
				if _, err := tx.Jobs.Enqueue(ctx, tickJob(t.name, next)); err != nil {
					return err
				}
			}
			if atStart && t.cfg.RunAtStart {
				if _, err := tx.Jobs.Enqueue(ctx, nowJob(t.name)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cron: scheduling the periodic tasks: %w", err)
	}
	s.jobs.Notify()
	return nil
}

// records reads the tasks' run records by name.
func records(ctx context.Context, st ports.Stores) (map[string]*ports.CronTaskRun, error) {
	all, err := st.CronTasks.All(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*ports.CronTaskRun, len(all))
	for _, r := range all {
		out[r.Name] = r
	}
	return out, nil
}

// List returns one page of the tasks, by name, and how many there are.
func (s *Service) List(ctx context.Context, opts ports.ListOptions) ([]Task, int64, error) {
	recs, err := records(ctx, s.stores)
	if err != nil {
		return nil, 0, err
	}
	// The tasks are a short fixed list, not rows: paged here.
	opts = opts.Clamped()
	from := min(opts.Offset(), len(s.tasks))
	to := len(s.tasks)
	if opts.Limit > 0 {
		to = min(from+opts.Limit, to)
	}
	out := make([]Task, 0, to-from)
	for _, t := range s.tasks[from:to] {
		v := Task{Name: t.name, Schedule: t.cfg.Schedule}
		if r := recs[t.name]; r != nil {
			v.Prev, v.ExecTimes = r.Prev, r.ExecTimes
			if t.cfg.Enabled {
				v.Next = r.Next
			}
		}
		out = append(out, v)
	}
	return out, int64(len(s.tasks)), nil
}

// Run queues a run of the task name now (a disabled one too); an unknown
// name is errs.ErrNotFound.
func (s *Service) Run(ctx context.Context, name string) error {
	if s.task(name) == nil {
		return errs.NotFound("cron task does not exist")
	}
	if _, err := s.stores.Jobs.Enqueue(ctx, nowJob(name)); err != nil {
		return err
	}
	s.jobs.Notify()
	return nil
}

// runJob runs one run of a task: a tick that is not superseded, or a run
// asked for. The work's own failure is logged, kept as the run's message,
// and the run still counts, as in Gitea (the next instant tries again); a
// failure to record it is retried.
func (s *Service) runJob(ctx context.Context, j *ports.Job) error {
	var p runPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return jobs.Permanent(fmt.Errorf("cron: unreadable run: %w", err))
	}
	t := s.task(p.Task)
	if t == nil {
		s.log.Warn("cron: a run of a task this server does not know; dropped", "task", p.Task)
		return nil
	}
	if p.Due != 0 {
		superseded, err := s.superseded(ctx, s.stores, t, p.Due)
		if err != nil || superseded {
			return err
		}
	}
	started := s.clock.Now()
	werr := t.work(ctx, started)
	message := ""
	if werr != nil {
		message = werr.Error()
	}
	if ctx.Err() != nil {
		return ctx.Err() // cut off by shutdown: the run is released and runs again
	}
	if werr != nil {
		s.log.Error("cron: task failed", "task", t.name, "err", werr)
	} else {
		s.log.Debug("cron: task finished", "task", t.name, "took", s.clock.Now().Sub(started))
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		recs, err := records(ctx, tx)
		if err != nil {
			return err
		}
		var next time.Time
		if r := recs[t.name]; r != nil {
			next = r.Next
		}
		// A tick still current moves the schedule on; a run asked for, or a
		// tick superseded while it ran (a restart disabled or rescheduled
		// the task), counts and leaves the schedule as it is.
		if p.Due != 0 && !next.IsZero() && next.Unix() == p.Due {
			next = t.schedule.Next(s.clock.Now())
			if _, err := tx.Jobs.Enqueue(ctx, tickJob(t.name, next)); err != nil {
				return err
			}
		}
		return tx.CronTasks.RecordRun(ctx, t.name, started, next, message)
	})
	if err == nil {
		s.jobs.Notify()
	}
	return err
}

// superseded reports whether the tick of due is no longer the task's next
// instant (the schedule moved on, or the task was disabled).
func (s *Service) superseded(ctx context.Context, st ports.Stores, t *task, due int64) (bool, error) {
	recs, err := records(ctx, st)
	if err != nil {
		return false, err
	}
	r := recs[t.name]
	return r == nil || r.Next.IsZero() || r.Next.Unix() != due, nil
}
