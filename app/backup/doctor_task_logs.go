package backup

import (
	"context"
	"fmt"
	"strconv"

	"github.com/depothq/depot/ports"
)

// checkTaskLogs checks the Actions task log files against the task rows
// both ways: a log file of a task no row has (its run went with its
// repository) is an orphan (--fix removes it; a task's row is written
// before its log's file, so every file is judged); a task whose log was
// moved to its file, now gone, is missing. That one is reported only: the
// log is lost, its rows were deleted once the file was synced, and the
// job's log answers empty; put the file back from a backup.
func (d *Doctor) checkTaskLogs(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.TaskLogs.Stored(ctx, d.Now(), blobBatch, func(ids []int64) error {
		return orphans(ctx, o, ids, d.Inventory.TasksKnown, d.TaskLogs.Delete, &out, func(id int64) Finding {
			return Finding{Check: "blob-orphan", Subject: "task log " + strconv.FormatInt(id, 10),
				Detail: "no Actions task row names it"}
		})
	})
	if err != nil {
		return out, err
	}
	err = d.Inventory.ArchivedTaskLogs(ctx, blobBatch, func(tasks []ports.TaskLogRef) error {
		for _, t := range tasks {
			ok, err := d.TaskLogs.Exists(ctx, t.TaskID)
			if err != nil {
				return err
			}
			if ok {
				continue
			}
			out = append(out, Finding{Check: "blob-missing", Subject: "task log " + strconv.FormatInt(t.TaskID, 10),
				Detail: fmt.Sprintf("job %d (%q) of %s: its log was moved to a file that is gone", t.JobID, t.Job, t.Repo)})
		}
		return nil
	})
	return out, err
}
