package packages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// KindCleanupRule is the job kind that applies one cleanup rule.
const KindCleanupRule = "packages.cleanup_rule"

// cleanupBatch is how many rules, or packages, one read of the cleanup
// takes.
const cleanupBatch = 100

// CleanupRules are the owners' package cleanup rules: their management
// and their application, one job per enabled rule.
type CleanupRules struct{ *Service }

// CleanupRules returns the cleanup rule use cases.
func (s *Service) CleanupRules() CleanupRules { return CleanupRules{s} }

// CleanupRuleInput is what a caller sets on a rule; nil leaves a field as
// it is (or at its zero value on creation).
type CleanupRuleInput struct {
	Type          *string
	Enabled       *bool
	KeepCount     *int
	KeepPattern   *string
	RemoveDays    *int
	RemovePattern *string
	MatchFullName *bool
}

// apply sets in's fields on r.
func (in CleanupRuleInput) apply(r *packages.CleanupRule) {
	if in.Type != nil {
		t, ok := packages.ParseType(*in.Type)
		if !ok {
			t = packages.Type(*in.Type) // Validate names the field
		}
		r.Type = t
	}
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&r.KeepCount, in.KeepCount)
	set(&r.RemoveDays, in.RemoveDays)
	if in.Enabled != nil {
		r.Enabled = *in.Enabled
	}
	if in.KeepPattern != nil {
		r.KeepPattern = *in.KeepPattern
	}
	if in.RemovePattern != nil {
		r.RemovePattern = *in.RemovePattern
	}
	if in.MatchFullName != nil {
		r.MatchFullName = *in.MatchFullName
	}
}

// errNoCleanupRule is the answer for a rule the owner does not have.
var errNoCleanupRule = errs.NotFound("cleanup rule does not exist")

// List pages the owner's rules by type.
func (s CleanupRules) List(ctx context.Context, owner *user.User, opts ports.ListOptions) ([]*packages.CleanupRule, int64, error) {
	return s.stores.PackageCleanupRules.List(ctx, owner.ID, opts)
}

// Get finds one of the owner's rules.
func (s CleanupRules) Get(ctx context.Context, owner *user.User, id int64) (*packages.CleanupRule, error) {
	r, err := s.stores.PackageCleanupRules.Get(ctx, owner.ID, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errNoCleanupRule
	}
	return r, err
}

// Create adds a rule for one package type of the owner; the type is
// required, and a second rule for a type is 422 on type.
func (s CleanupRules) Create(ctx context.Context, owner *user.User, in CleanupRuleInput) (*packages.CleanupRule, error) {
	if in.Type == nil || *in.Type == "" {
		return nil, errs.Invalid("required", "type")
	}
	now := s.now()
	r := &packages.CleanupRule{OwnerID: owner.ID, CreatedAt: now, UpdatedAt: now}
	in.apply(r)
	if err := r.Validate(); err != nil {
		return nil, err
	}
	err := s.stores.PackageCleanupRules.Create(ctx, r)
	return r, errs.AsInvalid(err, errs.ErrConflict, "type")
}

// Edit changes the fields in sets on one of the owner's rules.
func (s CleanupRules) Edit(ctx context.Context, owner *user.User, id int64, in CleanupRuleInput) (*packages.CleanupRule, error) {
	var r *packages.CleanupRule
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		if r, err = tx.PackageCleanupRules.Get(ctx, owner.ID, id); errors.Is(err, errs.ErrNotFound) {
			return errNoCleanupRule
		} else if err != nil {
			return err
		}
		in.apply(r)
		if err := r.Validate(); err != nil {
			return err
		}
		r.UpdatedAt = s.now()
		return errs.AsInvalid(tx.PackageCleanupRules.Update(ctx, r), errs.ErrConflict, "type")
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Delete removes one of the owner's rules.
func (s CleanupRules) Delete(ctx context.Context, owner *user.User, id int64) error {
	err := s.stores.PackageCleanupRules.Delete(ctx, owner.ID, id)
	if errors.Is(err, errs.ErrNotFound) {
		return errNoCleanupRule
	}
	return err
}

// cleanupPayload is the input of a rule's job.
type cleanupPayload struct {
	OwnerID int64 `json:"owner_id"`
	RuleID  int64 `json:"rule_id"`
}

// QueueAll queues a job per enabled rule of every owner and counts them;
// a rule whose job waits still is not queued twice.
func (s CleanupRules) QueueAll(ctx context.Context) (int, error) {
	n := 0
	var after int64
	for {
		rules, err := s.stores.PackageCleanupRules.Enabled(ctx, after, cleanupBatch)
		if err != nil {
			return n, err
		}
		if len(rules) == 0 {
			break
		}
		err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
			for _, r := range rules {
				data, _ := json.Marshal(cleanupPayload{OwnerID: r.OwnerID, RuleID: r.ID}) // two integers always encode
				if _, err := tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindCleanupRule,
					Dedup: "cleanup-rule-" + strconv.FormatInt(r.ID, 10), Payload: data}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		n += len(rules)
		after = rules[len(rules)-1].ID
	}
	if n > 0 && s.runner != nil {
		s.runner.Notify()
	}
	return n, nil
}

// runCleanupRule applies one rule: a rule gone or disabled meanwhile does
// nothing.
func (s CleanupRules) runCleanupRule(ctx context.Context, j *ports.Job) error {
	var p cleanupPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return jobs.Permanent(fmt.Errorf("packages: unreadable cleanup job: %w", err))
	}
	r, err := s.stores.PackageCleanupRules.Get(ctx, p.OwnerID, p.RuleID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil || !r.Enabled {
		return err
	}
	_, err = s.Apply(ctx, r)
	return err
}

// Apply removes the versions the rule selects now, each in its own
// transaction with its blobs released after, and counts them.
func (s CleanupRules) Apply(ctx context.Context, r *packages.CleanupRule) (int, error) {
	n := 0
	err := s.selectVersions(ctx, r, func(_ packages.Package, vs []packages.Version) error {
		for _, v := range vs {
			if err := s.deleteVersion(ctx, v.ID); err != nil && !errors.Is(err, errs.ErrNotFound) {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// selectVersions calls fn with each package of the rule's owner and type
// and the versions the rule selects in it now.
func (s CleanupRules) selectVersions(ctx context.Context, r *packages.CleanupRule,
	fn func(p packages.Package, vs []packages.Version) error) error {
	policy, err := r.Policy(s.now())
	if err != nil {
		return err
	}
	var after int64
	for {
		pkgs, err := s.stores.Packages.OfType(ctx, r.OwnerID, r.Type, after, cleanupBatch)
		if err != nil || len(pkgs) == 0 {
			return err
		}
		for _, p := range pkgs {
			all, err := s.stores.Packages.AllVersions(ctx, p.ID)
			if err != nil {
				return err
			}
			candidates := make([]packages.CleanupCandidate, 0, len(all))
			for _, v := range slices.Backward(all) {
				candidates = append(candidates, packages.CleanupCandidate{Version: *v,
					Protected: p.Type == packages.TypeContainer && packages.ContainerProtected(v.Version)})
			}
			if vs := policy.Select(p.Name, candidates); len(vs) > 0 {
				if err := fn(p, vs); err != nil {
					return err
				}
			}
		}
		after = pkgs[len(pkgs)-1].ID
	}
}

// handleCleanup registers the rule jobs' handler.
func (s *Service) handleCleanup(runner *jobs.Runner) {
	runner.Handle(KindCleanupRule, jobs.KindOptions{MaxAttempts: 3, Concurrency: 1, Lease: 30 * time.Minute},
		s.CleanupRules().runCleanupRule)
}
