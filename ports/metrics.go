package ports

import (
	"context"
	"time"
)

// RequestMetrics records the API's requests for the metrics page.
type RequestMetrics interface {
	// RequestStarted counts a request in flight; done records its route
	// template (the route table's path, never the request's own, so the
	// series stay few), method, status and duration.
	RequestStarted() (done func(route, method string, status int))
}

// JobQueueStat is the state of one kind of job in the queue.
type JobQueueStat struct {
	Kind string
	// State is pending, running or failed.
	State string
	Count int64
	// Oldest is when the oldest job of the kind in the state was queued.
	Oldest time.Time
}

// JobQueueStats reports the job queue's depth, for the metrics page.
type JobQueueStats interface {
	// JobQueueStats counts the jobs by kind and state, from the queue's
	// indexes (the queue holds unfinished jobs only, so this stays small).
	JobQueueStats(ctx context.Context) ([]JobQueueStat, error)
}

// GitSessionMetrics records the SSH server's connections and the Git
// commands it runs, for the metrics page.
type GitSessionMetrics interface {
	// SSHConnectionOpened counts an open SSH connection; closed ends it.
	SSHConnectionOpened() (closed func())
	// GitSessionStarted times one git command over SSH (service is
	// upload-pack or receive-pack); done records its exit status and the
	// bytes it read from and wrote to the client.
	GitSessionStarted(service string) (done func(exit uint32, in, out int64))
}
