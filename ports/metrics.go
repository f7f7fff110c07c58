package ports

import (
	"context"
	"time"
)

// RequestMetrics records the API's requests for the metrics page.
type RequestMetrics interface {
	// Route is the recorder of one route template's requests (the route
	// table's path, never the request's own, so the series stay few),
	// made once for the route when the routes are mounted, so that a
	// request finds its series without looking them up.
	Route(route string) RouteMetrics
}

// RouteMetrics records the requests of one route template.
type RouteMetrics interface {
	// Started counts a request in flight and returns when it started (the
	// zero time when nothing is recorded).
	Started() time.Time
	// Done ends the request Started returned start for, and records its
	// method, status and duration.
	Done(start time.Time, method string, status int)
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
