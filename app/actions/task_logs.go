package actions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// KindLogArchive is the job that moves a finished task's log rows into
// its compressed file.
const KindLogArchive = "actions.log_archive"

// logPage is how many log rows one read takes: what a log costs in memory
// while it is served or archived.
const logPage = 1000

// errLogArchived refuses log rows for a task whose log was archived.
var errLogArchived = errs.BadRequest("the task's log has been archived")

// logArchivePayload is a KindLogArchive job's input.
type logArchivePayload struct {
	TaskID int64 `json:"task_id"`
}

// enqueueLogArchive queues, inside the transaction that finishes a task,
// the move of its log out of the database; once per task.
func enqueueLogArchive(ctx context.Context, tx ports.Stores, taskID int64) error {
	b, err := json.Marshal(logArchivePayload{TaskID: taskID})
	if err != nil {
		return err
	}
	key := "task:" + strconv.FormatInt(taskID, 10)
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindLogArchive, Dedup: key, Payload: b})
	return err
}

// runLogArchive is the KindLogArchive job. The order makes it crash-safe:
// the rows are written to the file, which is synced, and only then deleted
// (with the task marked archived) in one transaction. A crash before the
// commit leaves the rows and the job, whose next attempt (after a restart,
// when its lease runs out) writes the file again; after it, the task is
// marked and the attempt ends at once.
func (s *Service) runLogArchive(ctx context.Context, j *ports.Job) error {
	var in logArchivePayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.TaskID <= 0 {
		return jobs.Permanent(errors.New("actions: unreadable log archive payload"))
	}
	return s.archiveLog(ctx, in.TaskID)
}

// archiveLog moves a finished task's log rows to its file.
func (s *Service) archiveLog(ctx context.Context, taskID int64) error {
	task, err := s.stores.ActionTasks.Get(ctx, taskID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // gone with its run
	}
	if err != nil {
		return err
	}
	if task.LogArchived || !actions.IsDone(task.Status) {
		return nil
	}
	rows := &logRowsReader{ctx: ctx, stores: s.stores, taskID: taskID}
	if err := s.logs.Write(ctx, taskID, rows); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		n, err := tx.ActionTasks.LogLength(ctx, taskID)
		if err != nil {
			return err
		}
		if n != rows.next {
			// Rows came after the file was written: write it again.
			return fmt.Errorf("actions: task %d's log grew while archived (%d rows, %d written)", taskID, n, rows.next)
		}
		return tx.ActionTasks.ArchiveLogs(ctx, taskID)
	})
}

// logRowsReader reads a task's log rows as the log's text, a page of rows
// at a time.
type logRowsReader struct {
	ctx    context.Context
	stores ports.Stores
	taskID int64
	// next is the index of the next row to read; buf the text read but
	// not yet returned.
	next int64
	buf  []byte
	off  int
	eof  bool
}

func (r *logRowsReader) Read(p []byte) (int, error) {
	for r.off == len(r.buf) {
		if r.eof {
			return 0, io.EOF
		}
		rows, err := r.stores.ActionTasks.Logs(r.ctx, r.taskID, r.next, logPage)
		if err != nil {
			return 0, err
		}
		r.buf, r.off = r.buf[:0], 0
		for _, row := range rows {
			r.buf = actions.AppendLogLine(r.buf, row)
		}
		r.next += int64(len(rows))
		r.eof = len(rows) < logPage
	}
	n := copy(p, r.buf[r.off:])
	r.off += n
	return n, nil
}

// JobLog is a job's log, ready to stream.
type JobLog struct {
	s    *Service
	task *actions.Task
}

// JobLog finds the log of the repository's job jobID, as its latest task
// wrote it; a job of another repository is errs.ErrNotFound, one no runner
// took yet has an empty log.
func (s *Service) JobLog(ctx context.Context, repoID, jobID int64) (*JobLog, error) {
	job, err := s.stores.ActionTasks.Job(ctx, repoID, jobID)
	if err != nil {
		return nil, err
	}
	if job.TaskID == 0 {
		return &JobLog{s: s}, nil
	}
	task, err := s.stores.ActionTasks.Get(ctx, job.TaskID)
	if err != nil {
		return nil, err
	}
	return &JobLog{s: s, task: task}, nil
}

// WriteTo streams the log to w, one row a line led by its time: from the
// compressed file of a finished task, from the rows of one still running;
// either way a page at a time, never whole.
func (l *JobLog) WriteTo(ctx context.Context, w io.Writer) error {
	if l.task == nil {
		return nil
	}
	if !l.task.LogArchived {
		rows := &logRowsReader{ctx: ctx, stores: l.s.stores, taskID: l.task.ID}
		n, err := io.Copy(w, rows)
		if err != nil || n > 0 {
			return err
		}
		// No rows: they may have moved to the file since.
		task, err := l.s.stores.ActionTasks.Get(ctx, l.task.ID)
		if err != nil || !task.LogArchived {
			return err
		}
	}
	f, err := l.s.logs.Open(ctx, l.task.ID)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
