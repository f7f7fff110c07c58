// Package repos holds the repository use cases: creating, reading, editing,
// renaming, transferring, forking and deleting repositories, and their
// collaborators, deploy keys, topics, stars, watches and avatars. Service
// holds what they share (opening a repository, permissions, creating one);
// each sub-resource is a focused type reached from it (Collaborators,
// Assignees, DeployKeys, Topics, Stars, Watches, Transfers, Forks, Avatars,
// Migrations), in the file of its name. Git
// storage is reached through ports.GitStorage; every database write is one
// transaction, and Git writes happen before the commit and are undone when it
// fails.
package repos

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"sync"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Service runs the repository use cases.
type Service struct {
	stores    ports.Stores
	tx        ports.Transactor
	git       ports.GitStorage
	templates ports.Templates
	keys      ports.SSHKeys
	avatars   ports.Avatars
	scripts   ports.GitHookScripts
	clock     ports.Clock
	events    ports.Events
	users     *users.Service
	settings  site.Settings
	host      string
	log       *slog.Logger
	// locks holds ports.LockRepoDirectories, which serialises Git
	// directory creation, moves and removal on every server sharing the
	// volume, so that cleaning up an orphaned directory never races a
	// concurrent creation of the same name. Such operations are rare and
	// short.
	locks ports.SiteLocks
	// mirrorInterval keeps a pull mirror's schedule when an edit changes
	// its interval (see OnMirrorInterval); nil until the mirrors use cases register.
	mirrorInterval MirrorIntervalHook
	// ruleCache keeps each repository's branch protection rules.
	ruleCache *ruleCache
	// rulesChanged rechecks what a changed branch rule judges (see OnBranchRuleChange).
	rulesChanged BranchRuleHook
	// tagRules caches each repository's tag protection rules for the
	// checks every tag write makes (see TagProtections.RefusedTag).
	tagRules tagRuleCache
	// uploads holds the bytes of the repository's attachments and release
	// assets, removed after the repository's rows (nil in tests without).
	uploads ports.AttachmentBlobs
}

// NewService builds the repository use cases.
func NewService(stores ports.Stores, tx ports.Transactor, git ports.GitStorage, templates ports.Templates,
	keys ports.SSHKeys, avatars ports.Avatars, uploads ports.AttachmentBlobs, scripts ports.GitHookScripts, clock ports.Clock, events ports.Events,
	us *users.Service, settings site.Settings, log *slog.Logger, locks ports.SiteLocks) *Service {
	if locks == nil {
		locks = &processLocks{}
	}
	host := "localhost"
	if u, err := url.Parse(settings.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return &Service{stores: stores, tx: tx, git: git, templates: templates, keys: keys, avatars: avatars, uploads: uploads,
		scripts: scripts, clock: clock, events: events, users: us, settings: settings, host: host, log: log,
		ruleCache: newRuleCache(), tagRules: tagRuleCache{stats: ports.NewCacheStats("tag_protections", true)}, locks: locks}
}

// lockDirectories takes the lock on repositories' directories.
func (s *Service) lockDirectories(ctx context.Context) (func(), error) {
	return s.locks.Lock(ctx, ports.LockRepoDirectories)
}

// processLocks are site locks for one server alone (use-case tests).
type processLocks struct{ mu sync.Mutex }

func (l *processLocks) Lock(context.Context, string) (func(), error) {
	l.mu.Lock()
	return l.mu.Unlock, nil
}

// ProtectionCaches are the caches of branch and tag protection rules,
// which the servers sharing a database keep in step (ports.CacheDropBus).
func (s *Service) ProtectionCaches() []ports.SharedCache {
	return []ports.SharedCache{s.ruleCache, &s.tagRules}
}

// ProtectionCacheStats count the protection caches' lookups, for the
// metrics page.
func (s *Service) ProtectionCacheStats() []*ports.CacheStats {
	return []*ports.CacheStats{s.ruleCache.stats, s.tagRules.stats}
}

// Access is a repository as one caller reaches it: the repository, the
// caller's permission in it and the relations that permission came from.
type Access struct {
	Repo *repository.Repository
	Perm permission.Permission
	// Caller is who asked.
	Caller auth.Caller
}

// Facts returns the permission facts of the access, for route access codes.
func (a *Access) Facts() permission.Facts {
	r := a.Repo.Facts()
	return permission.Facts{Actor: a.Caller.Actor(), Perm: a.Perm, Repo: &r}
}

// RenamedError says that owner/name now lives at NewOwner/NewName; the HTTP
// adapter answers it with a redirect.
type RenamedError struct {
	OldOwner, OldName, NewOwner, NewName string
}

// Error describes the redirect.
func (e *RenamedError) Error() string {
	return "repository " + e.OldOwner + "/" + e.OldName + " moved to " + e.NewOwner + "/" + e.NewName
}

var errRepoNotFound = errs.NotFound("repository does not exist")

// Open resolves owner/name for caller c and computes c's permission. A
// repository c may not read anything of answers 404, as an absent one does;
// a renamed owner or repository yields *RenamedError (or *users.RenamedError
// rewritten to the repository's path).
func (s *Service) Open(ctx context.Context, c auth.Caller, ownerName, name string) (*Access, error) {
	r, err := s.stores.Repos.GetByFullName(ctx, ownerName, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, s.redirect(ctx, c, ownerName, name)
	}
	if err != nil {
		return nil, err
	}
	return s.access(ctx, c, r)
}

// OpenByID resolves a repository by id for caller c, as Open does.
func (s *Service) OpenByID(ctx context.Context, c auth.Caller, id int64) (*Access, error) {
	r, err := s.stores.Repos.GetByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.access(ctx, c, r)
}

// access computes c's permission in r and hides r when c may read none of it.
func (s *Service) access(ctx context.Context, c auth.Caller, r *repository.Repository) (*Access, error) {
	perm, err := s.permission(ctx, c.Actor(), r)
	if err != nil {
		return nil, err
	}
	if !perm.HasAnyAccess() && !c.IsAdmin() {
		// The recipient of a pending transfer may see the repository it is
		// offered, to accept or reject it.
		if c.Signed() && r.PendingTransferTo == c.UserID() {
			// Gitea makes the recipient a read collaborator while the offer
			// stands; Depot grants that read without the row.
			perm = permission.Compute(c.Actor(), r.Facts(), permission.Relations{CollaboratorMode: permission.ModeRead})
			return &Access{Repo: r, Perm: perm, Caller: c}, nil
		}
		return nil, errRepoNotFound
	}
	return &Access{Repo: r, Perm: perm, Caller: c}, nil
}

// permission gathers the actor's relations to r (only when they can matter)
// and asks the permission core.
func (s *Service) permission(ctx context.Context, a permission.Actor, r *repository.Repository) (permission.Permission, error) {
	facts := r.Facts()
	var rel permission.Relations
	if a.Kind == permission.ActorUser && !a.IsSiteAdmin && a.UserID != r.Owner.ID {
		var err error
		if rel, err = s.stores.Repos.Relations(ctx, facts, a.UserID); err != nil {
			return permission.Permission{}, err
		}
	}
	return permission.Compute(a, facts, rel), nil
}

// PermissionOf computes user u's permission in r (for the collaborator
// permission route and for transfers).
func (s *Service) PermissionOf(ctx context.Context, u *user.User, r *repository.Repository) (permission.Permission, error) {
	c := auth.Caller{User: u}
	return s.permission(ctx, c.Actor(), r)
}

// CallerPermission is c's permission in r, as access computes it.
func (s *Service) CallerPermission(ctx context.Context, c auth.Caller, r *repository.Repository) (permission.Permission, error) {
	return s.permission(ctx, c.Actor(), r)
}

// redirect explains why owner/name was not found: a renamed owner or a
// renamed repository becomes a redirect when c may see where it went.
func (s *Service) redirect(ctx context.Context, c auth.Caller, ownerName, name string) error {
	owner, err := s.users.Resolve(ctx, c, ownerName)
	var renamed *users.RenamedError
	if errors.As(err, &renamed) {
		return &RenamedError{OldOwner: ownerName, OldName: name, NewOwner: renamed.NewName, NewName: name}
	}
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return errRepoNotFound
		}
		return err
	}
	id, err := s.stores.Repos.LookupRedirect(ctx, owner.ID, name)
	if errors.Is(err, errs.ErrNotFound) {
		return errRepoNotFound
	}
	if err != nil {
		return err
	}
	target, err := s.stores.Repos.GetByID(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return errRepoNotFound
	}
	if err != nil {
		return err
	}
	if _, err := s.access(ctx, c, target); err != nil {
		return err
	}
	return &RenamedError{OldOwner: ownerName, OldName: name, NewOwner: target.Owner.Name, NewName: target.Name}
}

// pathOf is where r lives on disk.
func pathOf(r *repository.Repository) ports.RepoPath {
	return ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
}

// viewer is what a listing for c may show.
func viewer(c auth.Caller) ports.RepoViewer {
	if c.User == nil {
		return ports.RepoViewer{PublicOnly: true}
	}
	return ports.RepoViewer{
		UserID: c.User.ID, IsAdmin: c.User.IsAdmin, Restricted: c.User.IsRestricted,
		PublicOnly: c.Scopes().PublicOnly(),
	}
}

// signature is the Git identity of u.
func (s *Service) signature(u *user.User) ports.GitSignature {
	name := u.FullName
	if strings.TrimSpace(name) == "" {
		name = u.Name
	}
	email := u.Email
	if u.HideEmail || email == "" {
		email = u.LowerName + "@noreply." + s.host
	}
	return ports.GitSignature{Name: name, Email: email, When: s.clock.Now()}
}

// Templates returns the template texts, for the template routes.
func (s *Service) Templates() ports.Templates { return s.templates }

// Signature is the Git identity of u (author or committer of the commits
// Depot writes for u: merges, file changes).
func (s *Service) Signature(u *user.User) ports.GitSignature { return s.signature(u) }
