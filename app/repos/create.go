package repos

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// CreateInput is Gitea's CreateRepoOption.
type CreateInput struct {
	Name, Description string
	Private, Template bool
	AutoInit          bool
	// Gitignores is a comma-separated list of .gitignore template names.
	Gitignores, License, Readme string
	IssueLabels                 string
	DefaultBranch               string
	ObjectFormat                string
}

// ErrNameTaken is Gitea's 409 for a taken repository name.
var ErrNameTaken = errs.Conflict("The repository with the same name already exists.")

// Create makes a repository owned by owner on behalf of caller c. The Git
// repository is written first and removed again if the database write
// fails, so a crash leaves at worst an orphaned directory, which the next
// creation of that name clears.
func (s *Service) Create(ctx context.Context, c auth.Caller, owner *user.User, in CreateInput) (*repository.Repository, error) {
	if err := validateNew("Name", in.Name, in.Description); err != nil {
		return nil, err
	}
	branch := in.DefaultBranch
	if branch == "" {
		branch = repository.DefaultBranch
	} else if err := repository.ValidateBranchName("DefaultBranch", branch); err != nil {
		return nil, err
	}
	switch in.ObjectFormat {
	case "", "sha1":
	default:
		return nil, errs.Invalid("only sha1 is supported", "ObjectFormatName")
	}
	var copies []copier
	if in.IssueLabels != "" {
		set, err := s.templates.LabelSet(in.IssueLabels)
		if err != nil {
			return nil, errs.AsInvalid(err, errs.ErrNotFound, "IssueLabels")
		}
		copies = append(copies, createLabelSet(set))
	}
	var files []ports.GitFile
	if in.AutoInit {
		var err error
		if files, err = s.initialFiles(owner, in); err != nil {
			return nil, err
		}
	}
	if err := s.checkRepoLimit(ctx, owner); err != nil {
		return nil, err
	}

	r := s.newRepository(owner, in.Name, in.Description, in.Private)
	r.Template, r.Empty, r.DefaultBranch = in.Template, !in.AutoInit, branch
	return s.createRepository(ctx, r, c.UserID(), func(p ports.RepoPath) error {
		if err := s.git.Init(ctx, p, branch); err != nil {
			return err
		}
		if !in.AutoInit {
			return nil
		}
		sig := s.signature(c.User)
		_, err := s.git.CommitFiles(ctx, p, ports.GitCommit{
			Branch: branch, Message: "Initial commit", Author: sig, Committer: sig, Files: files,
		})
		return err
	}, copies...)
}

// createLabelSet gives the new repository the labels of a label set, in the
// set's order, inside its creation transaction (Gitea's InitializeLabels),
// so a repository never exists without the labels it was asked to start with.
func createLabelSet(set []ports.LabelTemplate) copier {
	return func(ctx context.Context, tx ports.Stores, e *ports.RepoEvent) error {
		for _, t := range set {
			l, err := issue.NewLabel(issue.LabelInput{Name: &t.Name, Color: &t.Color, Description: &t.Description,
				Exclusive: &t.Exclusive}, e.Repo.Created)
			if err != nil {
				return err
			}
			l.RepoID = e.Repo.ID
			if err := tx.Labels.Create(ctx, l); err != nil {
				return err
			}
		}
		return nil
	}
}

// validateNew checks a new repository's name (reported as nameField) and
// description.
func validateNew(nameField, name, description string) error {
	if err := repository.ValidateName(nameField, name); err != nil {
		return err
	}
	return repository.ValidateDescription("Description", description)
}

// newRepository is the row of a repository owner is about to have, with
// Gitea's defaults for a new one: empty, on the default branch, SHA-1, the
// default units, merge styles and issue tracker. Callers change what their
// way of creating it decides otherwise.
func (s *Service) newRepository(owner *user.User, name, description string, private bool) *repository.Repository {
	now := s.clock.Now()
	return &repository.Repository{
		Owner: repository.Owner{ID: owner.ID, Name: owner.Name, Kind: owner.Kind, Visibility: owner.Visibility},
		Name:  name, LowerName: strings.ToLower(name), Description: description,
		Private: private, Empty: true, DefaultBranch: repository.DefaultBranch,
		ObjectFormat: "sha1", Units: repository.DefaultUnits(), Merge: repository.DefaultMergeSettings(),
		Tracker: repository.IssueTracker{EnableTimeTracker: true, AllowOnlyContributorsToTrackTime: true,
			EnableIssueDependencies: true, Style: repository.TrackerNumeric},
		Created: now, Updated: now,
	}
}

// createRepository writes r's Git directory with write, measures it and
// inserts the row watched by watcherID (with what copies write into it), all
// under withNewDirectory (so a failure leaves neither behind), and answers
// the row as stored.
func (s *Service) createRepository(ctx context.Context, r *repository.Repository, watcherID int64, write func(ports.RepoPath) error, copies ...copier) (*repository.Repository, error) {
	p := pathOf(r)
	err := s.withNewDirectory(ctx, r, func() error {
		if err := write(p); err != nil {
			return err
		}
		if size, err := s.git.Size(ctx, p); err == nil {
			r.Size = size
		}
		return s.insert(ctx, r, watcherID, copies...)
	})
	if err != nil {
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}

// withNewDirectory runs write, which creates r's Git directory and its row,
// under the disk lock: a directory without a row (left by a crash) is removed
// first, and the directory is removed again when write fails.
func (s *Service) withNewDirectory(ctx context.Context, r *repository.Repository, write func() error) error {
	unlock, err := s.lockDirectories(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.stores.Repos.GetByName(ctx, r.Owner.ID, r.Name); err == nil {
		return ErrNameTaken
	} else if !errors.Is(err, errs.ErrNotFound) {
		return err
	}
	p := pathOf(r)
	// Whatever is on disk under a name without a row is a crash's leftover:
	// a whole repository whose row never committed, or a directory a crash
	// inside Init left half-written, which Exists does not count as a
	// repository. Delete clears both and does nothing when there is none.
	exists, err := s.git.Exists(ctx, p)
	if err != nil {
		s.log.Warn("checking for an orphaned repository directory", "owner", p.Owner, "name", p.Name, "err", err)
	} else if exists {
		s.log.Warn("removing orphaned repository directory", "owner", p.Owner, "name", p.Name)
	}
	if err := s.git.Delete(ctx, p); err != nil {
		return err
	}
	if err := write(); err != nil {
		if derr := s.git.Delete(context.WithoutCancel(ctx), p); derr != nil {
			s.log.Error("removing repository directory after a failed creation", "owner", p.Owner, "name", p.Name, "err", derr)
		}
		return err
	}
	return nil
}

// insert writes the new row, its copies of the default webhooks, what copies
// write (a template's labels), the creator's watch and the name's freed
// redirect in one transaction.
func (s *Service) insert(ctx context.Context, r *repository.Repository, watcherID int64, copies ...copier) error {
	defer s.notifyEvents()
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.DeleteRedirect(ctx, r.Owner.ID, r.LowerName); errs.IgnoreNotFound(err) != nil {
			return err
		}
		if err := tx.Repos.Create(ctx, r); err != nil {
			if errors.Is(err, errs.ErrConflict) {
				return ErrNameTaken
			}
			return err
		}
		// Every new repository starts with a copy of the site's default
		// webhooks (Gitea's admin default hooks).
		if err := tx.Hooks.CopyDefaults(ctx, r.ID, r.Created); err != nil {
			return err
		}
		ev := ports.RepoEvent{Repo: r, SenderID: watcherID}
		for _, c := range copies {
			if err := c(ctx, tx, &ev); err != nil {
				return err
			}
		}
		if err := s.events.RepositoryCreated(ctx, tx, ev); err != nil {
			return err
		}
		if len(r.Topics) > 0 {
			if err := tx.Topics.Replace(ctx, r.ID, r.Topics); err != nil {
				return err
			}
		}
		if watcherID != 0 {
			if err := tx.Watches.Watch(ctx, watcherID, r.ID); err != nil {
				return err
			}
		}
		if r.Owner.ID != watcherID && r.Owner.Kind == user.KindIndividual {
			return tx.Watches.Watch(ctx, r.Owner.ID, r.ID)
		}
		return nil
	})
}

// checkRepoLimit refuses a repository beyond the owner's MaxRepoCreation (-1: the site's, unlimited).
func (s *Service) checkRepoLimit(ctx context.Context, owner *user.User) error {
	if owner.MaxRepoCreation < 0 {
		return nil
	}
	n, err := s.stores.Repos.CountByOwner(ctx, owner.ID)
	if err != nil {
		return err
	}
	if n >= int64(owner.MaxRepoCreation) {
		return errs.Forbidden("you have reached your limit of " + strconv.Itoa(owner.MaxRepoCreation) + " repositories")
	}
	return nil
}

// targetOwner is the account a new repository of the caller goes to: the
// caller itself when name is empty or its own, else an organisation the
// caller may create repositories in (an owner, or a member of a team allowed
// to create them; site admins anywhere), as Gitea's prepareDoerCreateRepoInOrg.
// otherUser is the refusal when name is another individual's account,
// worded per route.
func (s *Service) targetOwner(ctx context.Context, c auth.Caller, name, field string, otherUser error) (*user.User, error) {
	if name == "" || strings.EqualFold(name, c.User.Name) {
		return c.User, nil
	}
	u, err := s.users.View(ctx, c, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Invalid("owner does not exist", field)
	}
	if err != nil {
		return nil, err
	}
	if c.IsAdmin() {
		return u, nil
	}
	if u.Kind != user.KindOrganization {
		return nil, otherUser
	}
	m, err := s.stores.Orgs.Membership(ctx, u.ID, c.UserID())
	if err != nil {
		return nil, err
	}
	switch {
	case !m.IsMember:
		return nil, errs.Forbidden("Must be an organization member")
	case !m.IsOwner && !m.CanCreateRepo:
		return nil, errs.Forbidden("Given user is not allowed to create repository in organization " + u.Name + ".")
	}
	return u, nil
}
