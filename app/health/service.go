// Package health checks what Depot needs to serve — the database and the
// repositories' volume — for the health route load balancers poll.
package health

import (
	"context"
	"time"

	"github.com/depothq/depot/ports"
)

// checkTimeout bounds each check, so a stuck database answers "fail"
// instead of holding the poller.
const checkTimeout = 2 * time.Second

// Status is a check's outcome, in the words of the IETF health-check draft
// Gitea follows.
type Status string

// The outcomes.
const (
	Pass Status = "pass"
	Fail Status = "fail"
)

// Check is one component's outcome.
type Check struct {
	Status Status
	Time   time.Time
	// Err is why it failed; nil on Pass.
	Err error
}

// Report is every check's outcome; Status is Fail when any check failed.
type Report struct {
	Status Status
	Checks map[string]Check
}

// Service runs the checks.
type Service struct {
	db     ports.DatabaseProbe
	volume ports.VolumeProbe
	clock  ports.Clock
}

// NewService builds the service.
func NewService(db ports.DatabaseProbe, volume ports.VolumeProbe, clock ports.Clock) *Service {
	return &Service{db: db, volume: volume, clock: clock}
}

// Names of the checks, as the report keys them.
const (
	CheckDatabase = "database:ping"
	CheckVolume   = "repositories:volume"
)

// Run runs every check, one after the other (each is one cheap call).
func (s *Service) Run(ctx context.Context) Report {
	r := Report{Status: Pass, Checks: map[string]Check{}}
	for name, probe := range map[string]func(context.Context) error{
		CheckDatabase: s.db.Ping,
		CheckVolume:   s.volume.CheckVolume,
	} {
		c := s.run(ctx, probe)
		if c.Status != Pass {
			r.Status = Fail
		}
		r.Checks[name] = c
	}
	return r
}

func (s *Service) run(ctx context.Context, probe func(context.Context) error) Check {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	if err := probe(ctx); err != nil {
		return Check{Status: Fail, Time: s.clock.Now(), Err: err}
	}
	return Check{Status: Pass, Time: s.clock.Now()}
}
