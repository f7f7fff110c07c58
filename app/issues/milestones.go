package issues

import (
	"context"
	"errors"
	"strconv"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// errMilestoneNotFound answers an absent milestone.
var errMilestoneNotFound = errs.NotFound("milestone does not exist")

// Milestones are the use cases of a repository's milestones.
type Milestones struct{ *Service }

// Milestones returns the milestone use cases.
func (s *Service) Milestones() Milestones { return Milestones{s} }

// List answers GET R/milestones: one page of the repository's
// milestones (open ones unless q.State says otherwise), by due date then
// id as Gitea sorts them, and the total.
func (s Milestones) List(ctx context.Context, a *repos.Access, q ports.MilestoneQuery) ([]*issue.Milestone, int64, error) {
	q.RepoID = a.Repo.ID
	return s.stores.Milestones.List(ctx, q)
}

// Get answers GET R/milestones/{id}: by id or, when that finds none
// (or ref is not a number), by title, as Gitea does.
func (s Milestones) Get(ctx context.Context, a *repos.Access, ref string) (*issue.Milestone, error) {
	return s.find(ctx, s.stores, a.Repo.ID, ref)
}

// find finds the repository's milestone by id or, when that finds none, by
// title, in st.
func (s Milestones) find(ctx context.Context, st ports.Stores, repoID int64, ref string) (*issue.Milestone, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil && id > 0 {
		m, err := st.Milestones.Get(ctx, repoID, id)
		if err == nil || !errors.Is(err, errs.ErrNotFound) {
			return m, err
		}
	}
	m, err := st.Milestones.GetByTitle(ctx, repoID, ref)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errMilestoneNotFound
	}
	return m, err
}

// Create adds a milestone to the repository (POST R/milestones);
// it may be created closed.
func (s Milestones) Create(ctx context.Context, a *repos.Access, in issue.MilestoneInput) (*issue.Milestone, error) {
	m, err := issue.NewMilestone(in, s.clock.Now())
	if err != nil {
		return nil, err
	}
	m.RepoID = a.Repo.ID
	if err := s.stores.Milestones.Create(ctx, m); err != nil {
		return nil, err
	}
	return m, nil
}

// Edit changes the milestone ref names (PATCH R/milestones/{id}):
// title, description, due date and state (closing stamps closed_at,
// reopening clears it). The counters are recounted with it.
func (s Milestones) Edit(ctx context.Context, a *repos.Access, ref string, in issue.MilestoneInput) (*issue.Milestone, error) {
	var out *issue.Milestone
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		m, err := s.find(ctx, tx, a.Repo.ID, ref)
		if err != nil {
			return err
		}
		if err := m.Apply(in, s.clock.Now()); err != nil {
			return err
		}
		if err := tx.Milestones.Update(ctx, m); err != nil {
			return err
		}
		if err := tx.Milestones.Recount(ctx, []int64{m.ID}); err != nil {
			return err
		}
		out, err = tx.Milestones.Get(ctx, a.Repo.ID, m.ID)
		return err
	})
	return out, err
}

// Delete deletes the milestone ref names and takes it off its
// issues (DELETE R/milestones/{id}).
func (s Milestones) Delete(ctx context.Context, a *repos.Access, ref string) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		m, err := s.find(ctx, tx, a.Repo.ID, ref)
		if err != nil {
			return err
		}
		return tx.Milestones.Delete(ctx, a.Repo.ID, m.ID)
	})
}
