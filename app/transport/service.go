// Package transport holds the use cases of Git's wire protocol: deciding
// whether a caller may fetch from or push to a repository, and what the
// push hooks do (checking each ref before it moves, and recording what moved
// afterwards). Running git itself is the driving adapters' work.
package transport

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// Messages of refused Git requests. Gitea's words where it has them
// (routers/web/repo/githttp.go).
const (
	msgAuthRequired = "authentication required"
	msgTwoFactor    = "Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations via plain " +
		"username and password. Please create and use a personal access token on the user settings page"
	msgNoPush   = "You do not have permission to push to this repository."
	msgArchived = "This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests."
	msgMirror   = "mirror repository is read-only"
	msgNotFound = "Repository not found"
)

// Service runs the Git transport use cases.
type Service struct {
	stores   ports.Stores
	tx       ports.Transactor
	git      ports.GitStorage
	inspect  ports.GitPushInspector
	repos    *repos.Service
	events   ports.Events
	clock    ports.Clock
	settings site.Settings
	log      *slog.Logger
	// accountURL ends the must-change-password message, as the API's does.
	accountURL string
	// pushed are what other areas queue inside the transaction that
	// records a push (pull request checks).
	pushed []PushRecorder
	// firstUnverified checks the signatures of pushed commits (the
	// content area's commit verification).
	firstUnverified CommitVerifier
}

// CommitVerifier returns the id of the first of list whose signature is
// not verified ("" when all are); serverKey is Depot's own signing key.
type CommitVerifier func(ctx context.Context, list []ports.CommitDetail, serverKey []byte) (string, error)

// SignsCommits reports whether Depot signs the commits it writes itself
// (merges, files written through the API) with its own OpenPGP key.
func (s *Service) SignsCommits() bool { return s.inspect != nil && len(s.inspect.SigningKey()) > 0 }

// SigningKey is the armoured public key Depot signs its own commits with,
// nil when it signs none.
func (s *Service) SigningKey() []byte {
	if s.inspect == nil {
		return nil
	}
	return s.inspect.SigningKey()
}

// VerifyCommitsWith sets the check of pushed commits' signatures; call it
// while wiring. Without one, a branch requiring signed commits takes no
// commit for verified.
func (s *Service) VerifyCommitsWith(f CommitVerifier) { s.firstUnverified = f }

// PushRecorder queues, inside the transaction that records a push to
// repository repoID, the work the push causes elsewhere.
type PushRecorder func(ctx context.Context, tx ports.Stores, r *repository.Repository, pusherID int64,
	changes []repository.RefChange) error

// OnPush registers a PushRecorder; call it while wiring, before serving.
func (s *Service) OnPush(f PushRecorder) { s.pushed = append(s.pushed, f) }

// NewService builds the transport use cases.
func NewService(stores ports.Stores, tx ports.Transactor, git ports.GitStorage, inspect ports.GitPushInspector, rs *repos.Service,
	events ports.Events, clock ports.Clock, settings site.Settings, log *slog.Logger) *Service {
	return &Service{stores: stores, tx: tx, git: git, inspect: inspect, repos: rs, events: events, clock: clock,
		settings: settings, log: log, accountURL: strings.TrimSuffix(settings.BaseURL, "/") + "/user/settings/account"}
}

// Request is a caller asking for a Git service on owner/name.
type Request struct {
	Caller      auth.Caller
	Owner, Name string
	Service     repository.GitService
	// Wiki asks for the repository's wiki ("<name>.wiki.git"), served with
	// the caller's permission on the wiki unit.
	Wiki bool
}

// Session is a granted request: the repository to serve and, for a push,
// who pushes (the hooks check that account again for every ref).
type Session struct {
	Repo    *repository.Repository
	Path    ports.RepoPath
	Service repository.GitService
	// PusherID is the signed-in caller's id, 0 when anonymous (for a
	// deploy key over SSH, the repository owner's).
	PusherID int64
	// DeployKeyID is the deploy key an SSH request came with, 0 otherwise.
	DeployKeyID int64
	// TaskID is the workflow task whose token (GITEA_TOKEN) the request
	// carries, 0 otherwise; PusherID is then the Actions pseudo-user's.
	TaskID int64
	// Wiki is set when Path is the repository's wiki.
	Wiki bool
}

// Authorize decides whether req may proceed. Anonymous callers who need to
// sign in get errs.ErrUnauthenticated (the adapter asks for credentials);
// signed-in callers who may not read the repository get errs.ErrNotFound;
// those who may read but not push get errs.ErrForbidden; a renamed
// repository yields *repos.RenamedError.
func (s *Service) Authorize(ctx context.Context, req Request) (*Session, error) {
	c := req.Caller
	actor := c.Actor()
	write := req.Service.Writes()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.accountURL); err != nil {
		return nil, err
	}
	if c.Signed() && c.IsBasicPassword() && c.User.HasTwoFactor() {
		// Git cannot answer a one-time code prompt; a token it can use.
		return nil, errs.Unauthenticated(msgTwoFactor)
	}
	if !c.Signed() && (write || s.settings.RequireSignInView) {
		return nil, errs.Unauthenticated(msgAuthRequired)
	}
	if err := permission.CheckScope(actor, write, token.CategoryRepository); err != nil {
		return nil, err
	}
	a, err := s.repos.Open(ctx, c, req.Owner, req.Name)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, s.hidden(c)
		}
		return nil, err
	}
	r := a.Repo
	if err := permission.CheckPublicOnly(actor, []token.Category{token.CategoryRepository},
		permission.PublicTarget{RepoPrivate: r.Private}); err != nil {
		return nil, err
	}
	unit, path := permission.UnitCode, ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	if req.Wiki {
		unit, path = permission.UnitWiki, ports.WikiRepoPath(path)
		if !r.HasUnit(permission.UnitWiki) {
			return nil, s.hidden(c)
		}
	}
	if !a.Perm.CanRead(unit) && !(req.Wiki && actor.IsAdmin()) {
		return nil, s.hidden(c)
	}
	if write {
		if !a.Perm.CanWrite(unit) && !(req.Wiki && actor.IsAdmin()) {
			return nil, errs.Forbidden(msgNoPush)
		}
		if err := checkPushable(r); err != nil {
			return nil, err
		}
	}
	if req.Wiki {
		if err := s.openWiki(ctx, path, write); err != nil {
			return nil, err
		}
	}
	sess := &Session{Repo: r, Path: path, Service: req.Service, PusherID: c.UserID(), Wiki: req.Wiki}
	if c.Task != nil {
		sess.TaskID = c.Task.TaskID
	}
	return sess, nil
}

// openWiki makes sure the wiki at p exists before a push to it, as Gitea
// creates a wiki on its first push; a fetch from a wiki not created yet is
// 404.
func (s *Service) openWiki(ctx context.Context, p ports.RepoPath, write bool) error {
	ok, err := s.git.Exists(ctx, p)
	if err != nil || ok {
		return err
	}
	if !write {
		return errs.NotFound(msgNotFound)
	}
	err = s.git.Init(ctx, p, repository.DefaultBranch)
	if errors.Is(err, errs.ErrConflict) {
		return nil // created meanwhile
	}
	return err
}

// hidden is the answer for a repository the caller may not see: anonymous
// callers are asked to sign in (git then prompts for credentials), others
// learn nothing.
func (s *Service) hidden(c auth.Caller) error {
	if !c.Signed() {
		return errs.Unauthenticated(msgAuthRequired)
	}
	return errs.NotFound(msgNotFound)
}

// checkPushable refuses pushes to archived repositories and mirrors.
func checkPushable(r *repository.Repository) error {
	if r.Archived {
		return errs.Forbidden(msgArchived)
	}
	if r.IsMirror {
		return errs.Forbidden(msgMirror)
	}
	return nil
}
