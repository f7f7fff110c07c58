package transport

import (
	"context"
	"errors"
	"fmt"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Messages of refused SSH requests.
const (
	msgUnknownKey = "this key is not registered with any account or repository"
	msgKeyGone    = "this key is no longer registered"
)

// maxRenames bounds how many renames an SSH request follows (a rename of
// the owner and of the repository make two).
const maxRenames = 3

// KeyKind says whose an SSH key is.
type KeyKind int

// The kinds of SSH keys.
const (
	// KeyAccount is one of an account's keys (/user/keys): it acts as the account.
	KeyAccount KeyKind = iota + 1
	// KeyDeploy is a deploy key: it reaches only the repositories it was
	// added to, reading, and writing where it was given write access.
	KeyDeploy
)

// SSHKey is whose a public key is, as the SSH server's sign-in learns it.
type SSHKey struct {
	Fingerprint string
	Kind        KeyKind
	// KeyID and UserID are the account key and its owner (KeyAccount only).
	KeyID, UserID int64
}

// IdentifyKey finds whose key has fingerprint: an account's, or deploy keys'
// (one key may be added to several repositories; which one counts is known
// only once a repository is asked for). An unknown key is
// errs.ErrUnauthenticated.
func (s *Service) IdentifyKey(ctx context.Context, fingerprint string) (*SSHKey, error) {
	k, err := s.stores.PublicKeys.GetByFingerprint(ctx, fingerprint)
	if err == nil {
		return &SSHKey{Fingerprint: fingerprint, Kind: KeyAccount, KeyID: k.ID, UserID: k.OwnerID}, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	used, err := s.stores.DeployKeys.FingerprintInUse(ctx, fingerprint)
	if err != nil {
		return nil, err
	}
	if !used {
		return nil, errs.Unauthenticated(msgUnknownKey)
	}
	return &SSHKey{Fingerprint: fingerprint, Kind: KeyDeploy}, nil
}

// KeyUsed records that an account key signed in now. Deploy keys keep no
// last-use time.
func (s *Service) KeyUsed(ctx context.Context, k *SSHKey) error {
	if k.Kind != KeyAccount {
		return nil
	}
	return s.stores.PublicKeys.TouchLastUsed(ctx, k.KeyID, s.clock.Now())
}

// SSHRequest is a signed-in SSH key asking for a Git service on owner/name.
type SSHRequest struct {
	Fingerprint string
	Owner, Name string
	Service     repository.GitService
	// Wiki asks for the repository's wiki (account keys only).
	Wiki bool
}

// AuthorizeSSH decides whether req may proceed, with the same rules and
// answers as Authorize for HTTP. The key is looked up again, so that a key
// deleted since the connection was made stops working. An account key acts
// as its account; renamed repositories are followed. A deploy key reaches
// only its own repositories: reading always, pushing when it was given write
// access and the repository takes pushes. Its pushes are made in the name
// of the repository's owner, as Gitea does, with the key named for the
// hooks to check again.
func (s *Service) AuthorizeSSH(ctx context.Context, req SSHRequest) (*Session, error) {
	k, err := s.stores.PublicKeys.GetByFingerprint(ctx, req.Fingerprint)
	if errors.Is(err, errs.ErrNotFound) {
		if req.Wiki {
			// A deploy key is for its repository's code only.
			return nil, errs.NotFound(msgNotFound)
		}
		return s.authorizeDeployKey(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	u, err := s.stores.Users.GetByID(ctx, k.OwnerID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Unauthenticated(msgKeyGone)
	}
	if err != nil {
		return nil, err
	}
	owner, name := req.Owner, req.Name
	for range maxRenames {
		sess, err := s.Authorize(ctx, Request{Caller: auth.Caller{User: u}, Owner: owner, Name: name, Service: req.Service,
			Wiki: req.Wiki})
		var moved *repos.RenamedError
		if !errors.As(err, &moved) {
			return sess, err
		}
		owner, name = moved.NewOwner, moved.NewName
	}
	return nil, errs.NotFound(msgNotFound)
}

// authorizeDeployKey decides a deploy key's request.
func (s *Service) authorizeDeployKey(ctx context.Context, req SSHRequest) (*Session, error) {
	r, err := s.repoForDeployKey(ctx, req.Owner, req.Name)
	if err != nil {
		return nil, err
	}
	k, err := s.stores.DeployKeys.GetByFingerprint(ctx, r.ID, req.Fingerprint)
	if errors.Is(err, errs.ErrNotFound) {
		// Another repository's key, or a key deleted meanwhile: this
		// repository is none of its business.
		return nil, errs.NotFound(msgNotFound)
	}
	if err != nil {
		return nil, err
	}
	if !r.HasUnit(permission.UnitCode) {
		return nil, errs.NotFound(msgNotFound)
	}
	if req.Service.Writes() {
		if err := checkDeployKeyWrites(k, r); err != nil {
			return nil, err
		}
		if err := checkPushable(r); err != nil {
			return nil, err
		}
	}
	return &Session{Repo: r, Path: ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}, Service: req.Service,
		PusherID: r.Owner.ID, DeployKeyID: k.ID}, nil
}

// repoForDeployKey finds owner/name, following a repository's rename (the
// key is then checked against the repository found, so a rename reveals
// nothing to a key that is not the repository's).
func (s *Service) repoForDeployKey(ctx context.Context, owner, name string) (*repository.Repository, error) {
	r, err := s.stores.Repos.GetByFullName(ctx, owner, name)
	if err == nil || !errors.Is(err, errs.ErrNotFound) {
		return r, err
	}
	o, err := s.stores.Users.GetByName(ctx, owner)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound(msgNotFound)
	}
	if err != nil {
		return nil, err
	}
	id, err := s.stores.Repos.LookupRedirect(ctx, o.ID, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound(msgNotFound)
	}
	if err != nil {
		return nil, err
	}
	r, err = s.stores.Repos.GetByID(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.NotFound(msgNotFound)
	}
	return r, err
}

// checkDeployKeyWrites refuses a push with a read-only deploy key, in
// Gitea's words.
func checkDeployKeyWrites(k *repository.DeployKey, r *repository.Repository) error {
	if k.ReadOnly {
		return errs.Forbidden(fmt.Sprintf("Deploy Key: %s is not authorized to write to %s/%s.", k.Title, r.Owner.Name, r.Name))
	}
	return nil
}

// checkPushingKeyOrAccount is the pre-receive hook's second look at who
// pushes: the account's permission, or for a push with a deploy key, that
// the key is still the repository's and still writable, and that the runner
// named the repository's owner as the pusher.
func (s *Service) checkPushingKeyOrAccount(ctx context.Context, r *repository.Repository, u *user.User,
	deployKeyID int64) error {
	if deployKeyID == 0 {
		return s.checkPusher(ctx, r, u)
	}
	if u.ID != r.Owner.ID {
		return errs.Forbidden(msgNoPush)
	}
	k, err := s.stores.DeployKeys.Get(ctx, r.ID, deployKeyID)
	if errors.Is(err, errs.ErrNotFound) {
		return errs.Forbidden(msgNoPush)
	}
	if err != nil {
		return err
	}
	return checkDeployKeyWrites(k, r)
}
