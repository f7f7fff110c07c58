package actions

import (
	"slices"
	"time"

	"gopkg.in/yaml.v3"
)

// StatusSkipped is a job that did not run because a job it needs failed.
const StatusSkipped = "skipped"

// TaskStep is what a runner reported of one step of a task.
type TaskStep struct {
	// Index is the step's position in the job.
	Index  int64
	Status string
	// LogIndex and LogLength are the task's log rows the step wrote.
	LogIndex, LogLength int64
	Started, Stopped    time.Time
}

// LogRow is one line of a task's log.
type LogRow struct {
	Time    time.Time
	Content string
}

// AppendLogLine appends r to b as one line of a job's log, led by its time
// as Gitea's log files write it.
func AppendLogLine(b []byte, r LogRow) []byte {
	b = r.Time.UTC().AppendFormat(b, "2006-01-02T15:04:05.0000000Z07:00")
	b = append(b, ' ')
	b = append(b, r.Content...)
	return append(b, '\n')
}

// IsDone says whether a job or task in this status has finished.
func IsDone(status string) bool {
	switch status {
	case StatusSuccess, StatusFailure, StatusCancelled, StatusSkipped:
		return true
	}
	return false
}

// JobUpdate is a job whose status follows from the others'.
type JobUpdate struct {
	JobID  int64
	Status string
}

// ReleaseBlocked returns the blocked jobs of a run whose needs have all
// finished: waiting when every need succeeded (or was skipped for no
// failure of its own, which Gitea treats as success), skipped otherwise.
func ReleaseBlocked(jobs []*RunJob) []JobUpdate {
	byKey := map[string]*RunJob{}
	for _, j := range jobs {
		byKey[j.JobID] = j
	}
	var out []JobUpdate
	for _, j := range jobs {
		if j.Status != StatusBlocked {
			continue
		}
		ready, ok := true, true
		for _, n := range j.Needs {
			need := byKey[n]
			if need == nil {
				ok = false
				continue
			}
			if !IsDone(need.Status) {
				ready = false
				break
			}
			if need.Status != StatusSuccess {
				ok = false
			}
		}
		if !ready {
			continue
		}
		status := StatusWaiting
		if !ok {
			status = StatusSkipped
		}
		out = append(out, JobUpdate{JobID: j.ID, Status: status})
	}
	return out
}

// RunStatus is the status of a run with jobs in these statuses, as Gitea
// aggregates it: while any job has not finished, running when one runs
// (or finished), else waiting or blocked; once all finished, failure when
// one failed, else cancelled when one was cancelled, else success.
func RunStatus(statuses []string) string {
	if len(statuses) == 0 {
		return StatusSuccess
	}
	done, anyStarted := true, false
	for _, s := range statuses {
		if !IsDone(s) {
			done = false
		}
		if s == StatusRunning || IsDone(s) {
			anyStarted = true
		}
	}
	switch {
	case done && slices.Contains(statuses, StatusFailure):
		return StatusFailure
	case done && slices.Contains(statuses, StatusCancelled):
		return StatusCancelled
	case done:
		return StatusSuccess
	case anyStarted:
		return StatusRunning
	case slices.Contains(statuses, StatusWaiting):
		return StatusWaiting
	}
	return StatusBlocked
}

// SingleJobWorkflow returns the workflow file data with only the job
// jobID under jobs:, everything else kept: the payload a runner gets,
// which must name exactly one job. A file that does not parse, or lacks
// the job, is an errs.Invalid.
func SingleJobWorkflow(data []byte, jobID string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, invalidWorkflow("%v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, invalidWorkflow("not a map")
	}
	top := doc.Content[0]
	found := false
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "jobs" || top.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		jobs := top.Content[i+1]
		for k := 0; k+1 < len(jobs.Content); k += 2 {
			if jobs.Content[k].Value == jobID {
				jobs.Content = []*yaml.Node{jobs.Content[k], jobs.Content[k+1]}
				found = true
				break
			}
		}
	}
	if !found {
		return nil, invalidWorkflow("no job %s", jobID)
	}
	return yaml.Marshal(&doc)
}
