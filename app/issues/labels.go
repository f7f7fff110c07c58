package issues

import (
	"context"
	"errors"
	"strconv"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// errLabelNotFound answers an absent label and one of another owner.
var errLabelNotFound = errs.NotFound("label does not exist")

// ownerOrgID is the organisation owning repo, whose labels its issues may
// carry too; 0 for a user's repository.
func ownerOrgID(repo *repository.Repository) int64 {
	if repo.Owner.Kind == user.KindOrganization {
		return repo.Owner.ID
	}
	return 0
}

// Labels are the use cases of a repository's labels.
type Labels struct{ *Service }

// Labels returns the repository label use cases.
func (s *Service) Labels() Labels { return Labels{s} }

// OrgLabels are the use cases of an organisation's labels, which the issues
// of all its repositories may carry.
type OrgLabels struct{ *Service }

// OrgLabels returns the organisation label use cases.
func (s *Service) OrgLabels() OrgLabels { return OrgLabels{s} }

// List answers GET R/labels: one page of the repository's
// labels by name, and the total.
func (s Labels) List(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	return s.stores.Labels.ListByRepo(ctx, a.Repo.ID, opts)
}

// Get answers GET R/labels/{id}: the repository's label by id or,
// when ref is not a number, by name (as Gitea does).
func (s Labels) Get(ctx context.Context, a *repos.Access, ref string) (*issue.Label, error) {
	return s.findLabel(ctx, a.Repo.ID, 0, ref)
}

// Create adds a label to the repository (POST R/labels).
func (s Labels) Create(ctx context.Context, a *repos.Access, in issue.LabelInput) (*issue.Label, error) {
	return s.createLabel(ctx, a.Repo.ID, 0, in)
}

// Edit changes the repository's label id (PATCH R/labels/{id}).
func (s Labels) Edit(ctx context.Context, a *repos.Access, id int64, in issue.LabelInput) (*issue.Label, error) {
	return s.editLabel(ctx, a.Repo.ID, 0, id, in)
}

// Delete deletes the repository's label id, taking it off every
// issue (DELETE R/labels/{id}).
func (s Labels) Delete(ctx context.Context, a *repos.Access, id int64) error {
	return s.deleteLabel(ctx, a.Repo.ID, 0, id)
}

// List answers GET /orgs/{org}/labels: one page of the
// organisation's labels by name, and the total.
func (s OrgLabels) List(ctx context.Context, orgID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	return s.stores.Labels.ListByOrg(ctx, orgID, opts)
}

// Get answers GET /orgs/{org}/labels/{id}: by id, or by name when ref
// is not a number.
func (s OrgLabels) Get(ctx context.Context, orgID int64, ref string) (*issue.Label, error) {
	return s.findLabel(ctx, 0, orgID, ref)
}

// Create adds a label to the organisation (POST /orgs/{org}/labels).
func (s OrgLabels) Create(ctx context.Context, orgID int64, in issue.LabelInput) (*issue.Label, error) {
	return s.createLabel(ctx, 0, orgID, in)
}

// Edit changes the organisation's label id.
func (s OrgLabels) Edit(ctx context.Context, orgID, id int64, in issue.LabelInput) (*issue.Label, error) {
	return s.editLabel(ctx, 0, orgID, id, in)
}

// Delete deletes the organisation's label id, taking it off the
// issues of all its repositories.
func (s OrgLabels) Delete(ctx context.Context, orgID, id int64) error {
	return s.deleteLabel(ctx, 0, orgID, id)
}

// findLabel finds the owner's label by id, or by name when ref is not a
// positive number.
func (s *Service) findLabel(ctx context.Context, repoID, orgID int64, ref string) (*issue.Label, error) {
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		if id <= 0 {
			return nil, errLabelNotFound
		}
		return s.ownLabel(ctx, s.stores, repoID, orgID, id)
	}
	l, err := s.stores.Labels.GetByName(ctx, repoID, orgID, ref)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errLabelNotFound
	}
	return l, err
}

// ownLabel finds label id of the repository (repoID) or organisation
// (orgID); another owner's label is 404.
func (s *Service) ownLabel(ctx context.Context, st ports.Stores, repoID, orgID, id int64) (*issue.Label, error) {
	l, err := st.Labels.GetByID(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errLabelNotFound
	}
	if err != nil {
		return nil, err
	}
	if l.RepoID != repoID || l.OrgID != orgID {
		return nil, errLabelNotFound
	}
	return l, nil
}

func (s *Service) createLabel(ctx context.Context, repoID, orgID int64, in issue.LabelInput) (*issue.Label, error) {
	l, err := issue.NewLabel(in, s.clock.Now())
	if err != nil {
		return nil, err
	}
	l.RepoID, l.OrgID = repoID, orgID
	if err := s.stores.Labels.Create(ctx, l); err != nil {
		return nil, err
	}
	return l, nil
}

func (s *Service) editLabel(ctx context.Context, repoID, orgID, id int64, in issue.LabelInput) (*issue.Label, error) {
	var out *issue.Label
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		l, err := s.ownLabel(ctx, tx, repoID, orgID, id)
		if err != nil {
			return err
		}
		if err := l.Apply(in, s.clock.Now()); err != nil {
			return err
		}
		if err := tx.Labels.Update(ctx, l); err != nil {
			return err
		}
		out = l
		return nil
	})
	return out, err
}

func (s *Service) deleteLabel(ctx context.Context, repoID, orgID, id int64) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if _, err := s.ownLabel(ctx, tx, repoID, orgID, id); err != nil {
			return err
		}
		return tx.Labels.Delete(ctx, id)
	})
}
