// Package packages holds the package registry's use cases: the management
// API over an owner's packages (list, versions, files, latest, delete,
// link) and what every registry shares (publishing a file into a version,
// reading it back, deleting), over the package store and the
// content-addressed blob store.
package packages

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Service is the package use cases.
type Service struct {
	stores   ports.Stores
	tx       ports.Transactor
	blobs    ports.PackageBlobs
	clock    ports.Clock
	runner   *jobs.Runner
	events   ports.PackageEvents
	maxBytes int64
}

// NewService builds the package use cases; settings.PackageMaxBytes bounds
// one file. The cleanup rules' jobs run on runner; publications and
// deletions are told to events in their transactions.
func NewService(stores ports.Stores, tx ports.Transactor, blobs ports.PackageBlobs, clock ports.Clock,
	settings site.Settings, runner *jobs.Runner, events ports.PackageEvents) *Service {
	limit := settings.PackageMaxBytes
	if limit <= 0 {
		limit = math.MaxInt64 - 1
	}
	s := &Service{stores: stores, tx: tx, blobs: blobs, clock: clock, runner: runner, events: events, maxBytes: limit}
	s.handleCleanup(runner)
	return s
}

// Mode is the caller's access to the packages of owner: Gitea's package
// access mode; an owner the caller may not see is errs.ErrNotFound.
func (s *Service) Mode(ctx context.Context, c auth.Caller, owner *user.User) (permission.AccessMode, error) {
	r := packages.OwnerRelation{Self: c.User != nil && c.User.ID == owner.ID,
		OwnerIsOrg: owner.Kind == user.KindOrganization, Visibility: owner.Visibility,
		SignedIn: c.Signed(), Admin: c.IsAdmin()}
	if r.OwnerIsOrg && c.User != nil {
		m, err := s.stores.Orgs.Membership(ctx, owner.ID, c.User.ID)
		if err != nil {
			return permission.ModeNone, err
		}
		r.IsOrgOwner, r.IsOrgMember = m.IsOwner, m.IsMember
		if m.IsMember && !m.IsOwner {
			if r.TeamMode, err = s.stores.Packages.TeamMode(ctx, owner.ID, c.User.ID); err != nil {
				return permission.ModeNone, err
			}
		}
	}
	if !packages.Visible(r) {
		return permission.ModeNone, errs.NotFound("user does not exist")
	}
	return packages.Access(r), nil
}

// View is a version with what its JSON shows: its package, creator and
// linked repository (nil when none or gone).
type View struct {
	Package packages.Package
	Version packages.Version
	Creator *user.User
	Repo    *repository.Repository
}

// errNoPackage is Gitea's answer for a package or version that is not there.
var errNoPackage = errs.NotFound("package does not exist")

// views completes entries with their creators and repositories in two queries.
func (s *Service) views(ctx context.Context, entries []packages.Entry) ([]View, error) {
	var userIDs, repoIDs []int64
	for _, e := range entries {
		userIDs = append(userIDs, e.Version.CreatorID)
		if e.Package.RepoID != 0 {
			repoIDs = append(repoIDs, e.Package.RepoID)
		}
	}
	users, err := s.stores.Users.GetByIDs(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*user.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	repos, err := s.stores.Repos.GetByIDs(ctx, repoIDs)
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(entries))
	for _, e := range entries {
		out = append(out, View{Package: e.Package, Version: e.Version, Creator: byID[e.Version.CreatorID],
			Repo: repos[e.Package.RepoID]})
	}
	return out, nil
}

// List pages the owner's package versions, filtered by type and name.
func (s *Service) List(ctx context.Context, owner *user.User, typ packages.Type, query string,
	opts ports.ListOptions) ([]View, int64, error) {
	entries, total, err := s.stores.Packages.List(ctx, ports.PackageFilter{OwnerID: owner.ID, Type: typ, Query: query}, opts)
	if err != nil {
		return nil, 0, err
	}
	v, err := s.views(ctx, entries)
	return v, total, err
}

// pkg finds the owner's package of that type and name.
func (s *Service) pkg(ctx context.Context, owner *user.User, typ, name string) (*packages.Package, error) {
	t, ok := packages.ParseType(typ)
	if !ok {
		return nil, errNoPackage
	}
	p, err := s.stores.Packages.Get(ctx, owner.ID, t, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errNoPackage
	}
	return p, err
}

// Versions pages a package's versions, newest first.
func (s *Service) Versions(ctx context.Context, owner *user.User, typ, name string, opts ports.ListOptions) ([]View, int64, error) {
	p, err := s.pkg(ctx, owner, typ, name)
	if err != nil {
		return nil, 0, err
	}
	list, total, err := s.stores.Packages.Versions(ctx, p.ID, opts)
	if err != nil {
		return nil, 0, err
	}
	entries := make([]packages.Entry, 0, len(list))
	for _, v := range list {
		entries = append(entries, packages.Entry{Package: *p, Version: *v})
	}
	out, err := s.views(ctx, entries)
	return out, total, err
}

// Get finds one version ("" finds the latest).
func (s *Service) Get(ctx context.Context, owner *user.User, typ, name, version string) (View, error) {
	p, err := s.pkg(ctx, owner, typ, name)
	if err != nil {
		return View{}, err
	}
	var v *packages.Version
	if version == "" {
		v, err = s.stores.Packages.Latest(ctx, p.ID)
	} else {
		v, err = s.stores.Packages.GetVersion(ctx, p.ID, version)
	}
	if errors.Is(err, errs.ErrNotFound) {
		return View{}, errNoPackage
	}
	if err != nil {
		return View{}, err
	}
	out, err := s.views(ctx, []packages.Entry{{Package: *p, Version: *v}})
	if err != nil {
		return View{}, err
	}
	return out[0], nil
}

// Files lists a version's files.
func (s *Service) Files(ctx context.Context, owner *user.User, typ, name, version string) ([]*packages.File, error) {
	v, err := s.Get(ctx, owner, typ, name, version)
	if err != nil {
		return nil, err
	}
	return s.stores.Packages.Files(ctx, v.Version.ID)
}

// DeleteVersion removes a version with its files (and the package with
// its last version), then the blobs nothing names any more; doer is told
// to the package hooks as the sender.
func (s *Service) DeleteVersion(ctx context.Context, doer, owner *user.User, typ, name, version string) error {
	v, err := s.Get(ctx, owner, typ, name, version)
	if err != nil {
		return err
	}
	var gone []string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		if gone, err = tx.Packages.DeleteVersion(ctx, v.Version.ID); err != nil {
			return err
		}
		return s.deleted(ctx, tx, doer, v.Package, v.Version)
	})
	if err != nil {
		return err
	}
	s.notifyCommitted()
	return s.dropBlobs(ctx, gone)
}

// deleteVersion removes a version as a cleanup rule does (no webhook: no
// account deleted it).
func (s *Service) deleteVersion(ctx context.Context, versionID int64) error {
	var gone []string
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		gone, err = tx.Packages.DeleteVersion(ctx, versionID)
		return err
	})
	if err != nil {
		return err
	}
	return s.dropBlobs(ctx, gone)
}

// created tells the package hooks that sender published version v of p.
func (s *Service) created(ctx context.Context, tx ports.Stores, sender *user.User, p packages.Package, v packages.Version) error {
	return s.tell(ctx, tx, ports.PackageCreated, sender, p, v)
}

// deleted tells the package hooks that sender deleted version v of p.
func (s *Service) deleted(ctx context.Context, tx ports.Stores, sender *user.User, p packages.Package, v packages.Version) error {
	return s.tell(ctx, tx, ports.PackageDeleted, sender, p, v)
}

func (s *Service) tell(ctx context.Context, tx ports.Stores, action string, sender *user.User, p packages.Package, v packages.Version) error {
	if s.events == nil || sender == nil {
		return nil
	}
	return s.events.PackageChanged(ctx, tx, ports.PackageEvent{Action: action, Package: p, Version: v, SenderID: sender.ID})
}

// notifyCommitted wakes the webhook deliveries a committed write queued.
func (s *Service) notifyCommitted() {
	if n, ok := s.events.(interface{ Notify() }); ok {
		n.Notify()
	}
}

// dropBlobs removes the blobs whose rows a committed deletion removed,
// unless an upload recorded one of them again meanwhile. A crash before
// this leaves them to the start-up sweep.
func (s *Service) dropBlobs(ctx context.Context, sums []string) error {
	if len(sums) == 0 {
		return nil
	}
	again, err := s.stores.Packages.BlobsReferenced(ctx, sums)
	if err != nil {
		return err
	}
	for _, sum := range sums {
		if again[sum] {
			continue
		}
		if err := s.blobs.Delete(ctx, sum); err != nil {
			return err
		}
	}
	return nil
}

// Link links the package to a repository of the same owner; a repository
// the owner does not have is 404.
func (s *Service) Link(ctx context.Context, owner *user.User, typ, name, repoName string) error {
	p, err := s.pkg(ctx, owner, typ, name)
	if err != nil {
		return err
	}
	r, err := s.stores.Repos.GetByName(ctx, owner.ID, repoName)
	if errors.Is(err, errs.ErrNotFound) {
		return errs.NotFound("repository does not exist")
	}
	if err != nil {
		return err
	}
	return s.stores.Packages.SetRepo(ctx, p.ID, r.ID)
}

// Unlink removes the package's repository link.
func (s *Service) Unlink(ctx context.Context, owner *user.User, typ, name string) error {
	p, err := s.pkg(ctx, owner, typ, name)
	if err != nil {
		return err
	}
	return s.stores.Packages.SetRepo(ctx, p.ID, 0)
}

// now is the clock's time.
func (s *Service) now() time.Time { return s.clock.Now() }
