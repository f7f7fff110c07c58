package repos

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// ExternalTracker is Gitea's ExternalTracker option.
type ExternalTracker struct {
	URL, Format, Style, RegexpPattern string
}

// InternalTracker is Gitea's InternalTracker option.
type InternalTracker struct {
	EnableTimeTracker, AllowOnlyContributorsToTrackTime, EnableIssueDependencies bool
}

// EditInput is Gitea's EditRepoOption; nil fields are left alone.
type EditInput struct {
	Name, Description, Website, DefaultBranch *string
	Private, Template, Archived               *bool

	HasIssues, HasWiki, HasPullRequests, HasProjects *bool
	HasReleases, HasPackages, HasActions, HasCode    *bool
	InternalTracker                                  *InternalTracker
	ExternalTracker                                  *ExternalTracker
	ExternalWikiURL                                  *string

	IgnoreWhitespaceConflicts, AllowMerge, AllowRebase, AllowRebaseMerge, AllowSquash *bool
	AllowFastForwardOnly, AllowManualMerge, AutodetectManualMerge, AllowRebaseUpdate  *bool
	DefaultDeleteBranchAfterMerge, DefaultAllowMaintainerEdit                         *bool
	DefaultMergeStyle, MirrorInterval                                                 *string
}

var mergeStyles = map[string]bool{"merge": true, "rebase": true, "rebase-merge": true, "squash": true, "fast-forward-only": true, "manually-merged": true}

// Edit changes a repository's settings and returns it as stored. A rename
// moves the Git directory and leaves a redirect from the old name.
func (s *Service) Edit(ctx context.Context, a *Access, in EditInput) (*repository.Repository, error) {
	old := a.Repo
	r := *old
	r.Units = append([]permission.Unit(nil), old.Units...)
	if err := s.applyEdit(ctx, &r, in); err != nil {
		return nil, err
	}
	r.Updated = s.clock.Now()
	// A repository that goes private loses its stars and the watchers who
	// can no longer read it, as in Gitea, in the same transaction.
	after := func(ctx context.Context, tx ports.Stores) error {
		if err := s.rescheduleMirror(ctx, tx, old, &r, in); err != nil {
			return err
		}
		if old.Private || !r.Private {
			return nil
		}
		if err := tx.Stars.ClearRepo(ctx, r.ID); err != nil {
			return err
		}
		return tx.Watches.PruneRepo(ctx, r.ID)
	}
	if r.Name != old.Name {
		renamed := func(ctx context.Context, tx ports.Stores) error {
			if err := after(ctx, tx); err != nil {
				return err
			}
			return s.events.RepositoryMoved(ctx, tx, ports.RepoMoveEvent{Repo: &r, SenderID: a.Caller.UserID(),
				OldOwnerID: old.Owner.ID, OldOwner: old.Owner.Name, OldName: old.Name})
		}
		if err := s.rename(ctx, old, &r, renamed); err != nil {
			return nil, err
		}
	} else if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.Update(ctx, &r); err != nil {
			return err
		}
		return after(ctx, tx)
	}); err != nil {
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}

func (s *Service) applyEdit(ctx context.Context, r *repository.Repository, in EditInput) error {
	if in.Name != nil {
		if err := repository.ValidateName("Name", *in.Name); err != nil {
			return err
		}
		r.Name, r.LowerName = *in.Name, strings.ToLower(*in.Name)
	}
	if in.Description != nil {
		if err := repository.ValidateDescription("Description", *in.Description); err != nil {
			return err
		}
		r.Description = *in.Description
	}
	if in.Website != nil {
		if err := repository.ValidateURL("Website", *in.Website); err != nil {
			return err
		}
		r.Website = *in.Website
	}
	if in.Private != nil {
		r.Private = *in.Private
	}
	if in.Template != nil {
		r.Template = *in.Template
	}
	if err := s.applyUnits(r, in); err != nil {
		return err
	}
	if err := applyMerge(r, in); err != nil {
		return err
	}
	if in.MirrorInterval != nil && r.IsMirror {
		d, err := ParseMirrorInterval("MirrorInterval", *in.MirrorInterval)
		if err != nil {
			return err
		}
		r.MirrorInterval = d.String()
	}
	if in.DefaultBranch != nil && *in.DefaultBranch != r.DefaultBranch {
		// As in Gitea, a branch that does not exist is ignored unless the
		// repository is still empty.
		if err := repository.ValidateBranchName("DefaultBranch", *in.DefaultBranch); err != nil {
			return err
		}
		ok := r.Empty
		if !ok {
			var err error
			if ok, err = s.git.HasBranch(ctx, pathOf(r), *in.DefaultBranch); err != nil {
				return err
			}
		}
		if ok {
			if err := s.git.SetHead(ctx, pathOf(r), *in.DefaultBranch); err != nil {
				return err
			}
			r.DefaultBranch = *in.DefaultBranch
		}
	}
	if in.Archived != nil && *in.Archived != r.Archived {
		r.Archived = *in.Archived
		if r.Archived {
			r.ArchivedAt = s.clock.Now()
		} else {
			r.ArchivedAt = time.Time{}
		}
	}
	return nil
}

// applyUnits switches units on and off as Gitea's updateRepoUnits does: an
// external tracker or wiki replaces the internal one.
func (s *Service) applyUnits(r *repository.Repository, in EditInput) error {
	flag := func(p *bool, u permission.Unit) {
		if p != nil {
			r.SetUnit(u, *p)
		}
	}
	if in.HasIssues != nil {
		if !*in.HasIssues {
			r.SetUnit(permission.UnitIssues, false)
			r.SetUnit(permission.UnitExtIssues, false)
		} else if in.ExternalTracker != nil && in.ExternalTracker.URL != "" {
			t := in.ExternalTracker
			if err := repository.ValidateURL("ExternalTrackerURL", t.URL); err != nil {
				return err
			}
			style := repository.TrackerStyle(t.Style)
			if style == "" {
				style = repository.TrackerNumeric
			}
			if err := repository.ValidateTrackerStyle("ExternalTrackerStyle", style); err != nil {
				return err
			}
			r.Tracker.ExternalURL, r.Tracker.Format, r.Tracker.Style, r.Tracker.RegexpPattern = t.URL, t.Format, style, t.RegexpPattern
			r.SetUnit(permission.UnitExtIssues, true)
			r.SetUnit(permission.UnitIssues, false)
		} else {
			if in.InternalTracker != nil {
				it := in.InternalTracker
				r.Tracker.EnableTimeTracker, r.Tracker.AllowOnlyContributorsToTrackTime, r.Tracker.EnableIssueDependencies =
					it.EnableTimeTracker, it.AllowOnlyContributorsToTrackTime, it.EnableIssueDependencies
			}
			r.SetUnit(permission.UnitIssues, true)
			r.SetUnit(permission.UnitExtIssues, false)
		}
	}
	if in.HasWiki != nil {
		switch {
		case !*in.HasWiki:
			r.SetUnit(permission.UnitWiki, false)
			r.SetUnit(permission.UnitExtWiki, false)
		case in.ExternalWikiURL != nil && *in.ExternalWikiURL != "":
			if err := repository.ValidateURL("ExternalWikiURL", *in.ExternalWikiURL); err != nil {
				return err
			}
			r.ExternalWikiURL = *in.ExternalWikiURL
			r.SetUnit(permission.UnitExtWiki, true)
			r.SetUnit(permission.UnitWiki, false)
		default:
			r.SetUnit(permission.UnitWiki, true)
			r.SetUnit(permission.UnitExtWiki, false)
		}
	}
	flag(in.HasCode, permission.UnitCode)
	flag(in.HasPullRequests, permission.UnitPulls)
	flag(in.HasProjects, permission.UnitProjects)
	flag(in.HasReleases, permission.UnitReleases)
	flag(in.HasPackages, permission.UnitPackages)
	flag(in.HasActions, permission.UnitActions)
	return nil
}

func applyMerge(r *repository.Repository, in EditInput) error {
	set := func(dst *bool, p *bool) {
		if p != nil {
			*dst = *p
		}
	}
	m := &r.Merge
	set(&m.IgnoreWhitespaceConflicts, in.IgnoreWhitespaceConflicts)
	set(&m.AllowMerge, in.AllowMerge)
	set(&m.AllowRebase, in.AllowRebase)
	set(&m.AllowRebaseMerge, in.AllowRebaseMerge)
	set(&m.AllowSquash, in.AllowSquash)
	set(&m.AllowFastForwardOnly, in.AllowFastForwardOnly)
	set(&m.AllowManualMerge, in.AllowManualMerge)
	set(&m.AutodetectManualMerge, in.AutodetectManualMerge)
	set(&m.AllowRebaseUpdate, in.AllowRebaseUpdate)
	set(&m.DefaultDeleteBranchAfterMerge, in.DefaultDeleteBranchAfterMerge)
	set(&m.DefaultAllowMaintainerEdit, in.DefaultAllowMaintainerEdit)
	if in.DefaultMergeStyle != nil {
		if !mergeStyles[*in.DefaultMergeStyle] {
			return errs.Invalid("invalid merge style", "DefaultMergeStyle")
		}
		m.DefaultMergeStyle = *in.DefaultMergeStyle
	}
	return nil
}

// rename stores r under its new name with a redirect from the old one, runs
// after in the same transaction, and moves the Git directory; the move is
// undone if the database refuses.
func (s *Service) rename(ctx context.Context, old, r *repository.Repository, after func(context.Context, ports.Stores) error) error {
	unlock, err := s.lockDirectories(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	from, to := pathOf(old), pathOf(r)
	sameDir := strings.EqualFold(old.Name, r.Name)
	var journal ports.DirMove
	if !sameDir {
		if journal, err = s.journalMove(ctx, r.ID, from, to); err != nil {
			if errors.Is(err, errs.ErrConflict) {
				return errs.Invalid("repo name is already taken [name: "+r.Name+"]", "Name")
			}
			return err
		}
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.DeleteRedirect(ctx, r.Owner.ID, r.LowerName); errs.IgnoreNotFound(err) != nil {
			return err
		}
		if err := tx.Repos.Update(ctx, r); err != nil {
			if errors.Is(err, errs.ErrConflict) {
				return errs.Invalid("repo name is already taken [name: "+r.Name+"]", "Name")
			}
			return err
		}
		if err := after(ctx, tx); err != nil {
			return err
		}
		if sameDir {
			return nil
		}
		return tx.Repos.AddRedirect(ctx, r.Owner.ID, old.LowerName, r.ID)
	})
	if !sameDir {
		s.settleMove(ctx, journal, err)
	}
	return err
}

// TrackerInput is the body of PATCH …/issue-tracker; nil fields are left alone.
type TrackerInput struct {
	EnableIssues, EnableExternalTracker                     *bool
	ExternalTrackerURL, TrackerURLFormat, TrackerIssueStyle *string
}

// UpdateIssueTracker changes the issue-tracker settings (spec section 2).
func (s *Service) UpdateIssueTracker(ctx context.Context, a *Access, in TrackerInput) error {
	r := *a.Repo
	r.Units = append([]permission.Unit(nil), a.Repo.Units...)
	if in.ExternalTrackerURL != nil {
		if err := repository.ValidateURL("ExternalTrackerURL", *in.ExternalTrackerURL); err != nil {
			return err
		}
		r.Tracker.ExternalURL = *in.ExternalTrackerURL
	}
	if in.TrackerURLFormat != nil {
		if err := repository.ValidateURL("TrackerURLFormat", strings.NewReplacer("{", "", "}", "").Replace(*in.TrackerURLFormat)); err != nil {
			return err
		}
		r.Tracker.Format = *in.TrackerURLFormat
	}
	if in.TrackerIssueStyle != nil {
		st := repository.TrackerStyle(*in.TrackerIssueStyle)
		if st != repository.TrackerNumeric && st != repository.TrackerAlphanumeric {
			return errs.Invalid("must be numeric or alphanumeric", "TrackerIssueStyle")
		}
		r.Tracker.Style = st
	}
	external := r.HasUnit(permission.UnitExtIssues)
	if in.EnableExternalTracker != nil {
		external = *in.EnableExternalTracker
	}
	enabled := r.HasUnit(permission.UnitIssues) || r.HasUnit(permission.UnitExtIssues)
	if in.EnableIssues != nil {
		enabled = *in.EnableIssues
	}
	if enabled && external && r.Tracker.ExternalURL == "" {
		return errs.Invalid("required with an external tracker", "ExternalTrackerURL")
	}
	r.SetUnit(permission.UnitIssues, enabled && !external)
	r.SetUnit(permission.UnitExtIssues, enabled && external)
	r.Updated = s.clock.Now()
	return s.stores.Repos.Update(ctx, &r)
}

// Delete removes a repository: its rows in one transaction, then the bytes
// of its attachments and release assets and its Git directory (moved aside
// first). A crash in between leaves a directory that the start-up sweep or
// the next creation of the name removes, and blobs that the start-up
// sweep of uploads removes.
func (s *Service) Delete(ctx context.Context, a *Access) error {
	r := a.Repo
	defer s.notifyEvents()
	var uploads []string
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		// The event is queued first, while the row is there to read.
		if err := s.events.RepositoryDeleted(ctx, tx, ports.RepoEvent{Repo: r, SenderID: a.Caller.UserID()}); err != nil {
			return err
		}
		// Pull requests from this repository into others lose their head.
		if tx.Pulls != nil {
			if err := tx.Pulls.ForgetHeadRepo(ctx, r.ID); err != nil {
				return err
			}
		}
		// The bytes of its attachments and release assets go after the
		// commit, with the rows read before they cascade away.
		if tx.UploadRefs != nil && s.uploads != nil {
			var err error
			if uploads, err = tx.UploadRefs.OfRepo(ctx, r.ID); err != nil {
				return err
			}
		}
		return tx.Repos.Delete(ctx, r.ID)
	}); err != nil {
		return err
	}
	s.removeUploads(ctx, r, uploads)
	if r.Avatar != "" {
		if err := s.avatars.Remove(ctx, r.Avatar); err != nil {
			s.log.Warn("removing avatar of a deleted repository", "repo", r.FullName(), "err", err)
		}
	}
	unlock, err := s.lockDirectories(context.WithoutCancel(ctx))
	if err != nil {
		// The row is gone; the directory stays, listed among the
		// unadopted ones, where an administrator can remove it.
		s.log.Error("removing the Git directory of a deleted repository", "repo", r.FullName(), "err", err)
		return nil
	}
	defer unlock()
	if err := s.git.Delete(context.WithoutCancel(ctx), pathOf(r)); err != nil {
		s.log.Error("removing the Git directory of a deleted repository", "repo", r.FullName(), "err", err)
	}
	return nil
}

// removeUploads deletes the blobs of a deleted repository's attachments
// and release assets. A failure leaves an orphan for the start-up sweep,
// which is logged, not answered: the deletion is committed.
func (s *Service) removeUploads(ctx context.Context, r *repository.Repository, uuids []string) {
	for _, u := range uuids {
		if err := s.uploads.Delete(context.WithoutCancel(ctx), u); err != nil {
			s.log.Warn("removing an upload of a deleted repository", "repo", r.FullName(), "uuid", u, "err", err)
		}
	}
}
