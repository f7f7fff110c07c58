package actions

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// errRunnerAuth answers a runner whose uuid or token is wrong, in the same
// words whichever is, as Gitea does.
var errRunnerAuth = errs.Unauthenticated("unregistered runner")

// runnerSeenGranularity is how stale a runner's last report on a task may
// be before a new one is written, and runnerOnlineGranularity its last
// request: well under the times that make it idle (10s) or offline (1m).
// Idle runners poll every few seconds; most of their polls write nothing.
const (
	runnerSeenGranularity   = 2 * time.Second
	runnerOnlineGranularity = 20 * time.Second
)

// runnerCacheTTL is how long a runner read for a poll answers the next
// ones (runnerCache).
const runnerCacheTTL = 10 * time.Second

// Runners are the use cases of Actions runners: registering with a scope's
// registration token, authenticating and declaring, and the scope admins'
// listing and removal.
type Runners struct{ *Service }

// Runners returns the runner use cases.
func (s *Service) Runners() Runners { return Runners{s} }

// Now is the service's clock, by which runners are online or busy.
func (s Runners) Now() time.Time { return s.clock.Now() }

// RegisterRequest is what a runner sends to register.
type RegisterRequest struct {
	// Token is a scope's registration token.
	Token, Name, Version string
	Labels               []string
	Ephemeral            bool
}

// Register creates a runner in the scope of the registration token and
// returns it with its own token, shown this once. A missing name or token
// is errs.ErrInvalid, an unknown token errs.ErrUnauthenticated.
func (s Runners) Register(ctx context.Context, in RegisterRequest) (*actions.Runner, string, error) {
	name := actions.RunnerName(in.Name)
	if in.Token == "" || name == "" {
		return nil, "", errs.Invalid("missing runner token, name", "token", "name")
	}
	reg, err := s.stores.ActionRunnerTokens.ByHash(ctx, actions.HashRunnerToken(in.Token))
	if errors.Is(err, errs.ErrNotFound) {
		return nil, "", errs.Unauthenticated("runner registration token not found")
	}
	if err != nil {
		return nil, "", err
	}
	secret := actions.NewRunnerTokenSecret()
	r := &actions.Runner{UUID: actions.NewRunnerUUID(), Name: name, Scope: reg.Scope,
		TokenHash: actions.HashRunnerToken(secret), Labels: actions.RunnerLabels(in.Labels), Version: in.Version,
		Ephemeral: in.Ephemeral, Created: s.clock.Now()}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionRunners.Create(ctx, r)
	}); err != nil {
		return nil, "", err
	}
	return r, secret, nil
}

// Authenticate finds the runner uuid whose token is token, and records
// its request (a report on a task when active); anything else is
// errs.ErrUnauthenticated.
func (s Runners) Authenticate(ctx context.Context, uuid, token string, active bool) (*actions.Runner, error) {
	if uuid == "" || token == "" {
		return nil, errRunnerAuth
	}
	now := s.clock.Now()
	r, ok := s.runners.get(uuid, now)
	if !ok {
		var err error
		r, err = s.stores.ActionRunners.ByUUID(ctx, uuid)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errRunnerAuth
		}
		if err != nil {
			return nil, err
		}
		s.runners.put(r, now.Add(runnerCacheTTL))
	}
	if !r.TokenMatches(token) {
		return nil, errRunnerAuth
	}
	// Runners poll every few seconds: a request close to the last one
	// recorded changes no status and is not written.
	fresh := now.Sub(r.LastOnline) < runnerOnlineGranularity && (!active || now.Sub(r.LastActive) < runnerSeenGranularity)
	if fresh {
		return r, nil
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionRunners.Seen(ctx, r.ID, now, active)
	}); err != nil {
		return nil, err
	}
	r.LastOnline = now
	if active {
		r.LastActive = now
	}
	s.runners.put(r, now)
	return r, nil
}

// Declare sets the runner's labels and version.
func (s Runners) Declare(ctx context.Context, r *actions.Runner, labels []string, version string) error {
	labels = actions.RunnerLabels(labels)
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionRunners.Declare(ctx, r.ID, labels, version)
	}); err != nil {
		return err
	}
	r.Labels, r.Version = labels, version
	s.runners.forget(r.ID)
	return nil
}

// List returns one page of the scope's runners and the total.
func (s Runners) List(ctx context.Context, scope actions.Scope, opts ports.ListOptions) ([]*actions.Runner, int64, error) {
	return s.stores.ActionRunners.List(ctx, scope, opts)
}

// Get finds the scope's runner id; another scope's is errs.ErrNotFound.
func (s Runners) Get(ctx context.Context, scope actions.Scope, id int64) (*actions.Runner, error) {
	return s.stores.ActionRunners.Get(ctx, scope, id)
}

// Delete removes the scope's runner id; it can no longer authenticate.
// The tasks it still runs are cancelled in the same transaction: their
// jobs and runs settle and their commit statuses say so.
func (s Runners) Delete(ctx context.Context, scope actions.Scope, id int64) error {
	defer s.runners.forget(id)
	return s.inTxTasksChanged(ctx, func(ctx context.Context, tx ports.Stores) error {
		if _, err := tx.ActionRunners.Get(ctx, scope, id); err != nil {
			return err
		}
		tasks, err := tx.ActionTasks.RunningOf(ctx, id)
		if err != nil {
			return err
		}
		for _, t := range tasks {
			if err := s.RunnerTasks().settle(ctx, tx, t, actions.StatusCancelled); err != nil {
				return err
			}
		}
		return tx.ActionRunners.Delete(ctx, scope, id)
	})
}
