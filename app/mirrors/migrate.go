package mirrors

import (
	"context"
	"errors"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// MigrateInput is Gitea's MigrateRepoOptions. Besides the Git data, labels,
// milestones and issues (with comments) are copied from a server speaking
// Gitea's API; what cannot be copied is refused (see MigrateExtras).
type MigrateInput struct {
	CloneAddr                             string
	AuthUsername, AuthPassword, AuthToken string
	// RepoOwner names the new repository's owner; RepoOwnerID (Gitea's
	// deprecated uid) is read when it is empty; the caller when both are.
	RepoOwner   string
	RepoOwnerID int64
	RepoName    string
	Description string
	Private     bool
	Mirror      bool
	// MirrorInterval is a duration ("8h"); empty for the default.
	MirrorInterval string
	// Extras are the labels, issues, wiki, … asked for besides the Git data.
	Extras MigrateExtras
}

// migrateSchemes are the remotes a migration may clone from: those the
// outbound guard routes through its dial-time check (git:// and ssh:// would
// dial on their own, so GitRemotes refuses them; the early 422 says so
// before anything is created). Local paths (file://, bare paths) are refused
// for everyone: the data directory is no one's to import from.
var migrateSchemes = []string{"http", "https"}

// Migrate clones another server's repository into a new one of the caller
// (or of the owner named), optionally as a pull mirror. The repository row
// reserves the name first; the fetch, and the copy of the issue tracker
// asked for, run outside any lock, the copy in one transaction per page;
// when either fails the new repository is removed again and the failure
// named without credentials.
func (s *Service) Migrate(ctx context.Context, c auth.Caller, in MigrateInput) (*repository.Repository, error) {
	if err := repository.ValidateName("RepoName", in.RepoName); err != nil {
		return nil, err
	}
	if err := repository.ValidateDescription("Description", in.Description); err != nil {
		return nil, err
	}
	interval := repos.DefaultMirrorInterval
	if in.Mirror && in.MirrorInterval != "" {
		var err error
		if interval, err = repos.ParseMirrorInterval("MirrorInterval", in.MirrorInterval); err != nil {
			return nil, err
		}
	}
	clean, remote, err := remoteAddress{Raw: in.CloneAddr, Username: in.AuthUsername, Password: in.AuthPassword}.split("CloneAddr")
	if err != nil {
		return nil, err
	}
	if in.AuthToken != "" {
		// A token stands in for the password; Gitea and Depot accept it
		// with any user name.
		remote.Password = in.AuthToken
		if remote.Username == "" {
			remote.Username = "oauth2"
		}
	}
	if err := checkExtras(in); err != nil {
		return nil, err
	}
	var src ports.SourceRepo
	copyTracker := in.Extras.Labels || in.Extras.Milestones || in.Extras.Issues
	if copyTracker {
		if src, err = sourceRepo(clean); err != nil {
			return nil, err
		}
		// The API takes the token, else the user name and password given
		// (in the fields or in the address).
		if in.AuthToken != "" {
			src.Token = in.AuthToken
		} else {
			src.Username, src.Password = remote.Username, remote.Password
		}
	}
	owner, err := s.migrationOwner(ctx, c, in)
	if err != nil {
		return nil, err
	}
	if err := s.check(ctx, "CloneAddr", clean, migrateSchemes...); err != nil {
		return nil, err
	}
	r, err := s.repos.Migrations().Create(ctx, c, owner, repos.MigrateInput{
		Name: in.RepoName, Description: in.Description, Private: in.Private,
		Mirror: in.Mirror, MirrorInterval: interval, OriginalURL: clean,
	})
	if err != nil {
		return nil, err
	}
	err = s.fill(ctx, r, remote, in.Mirror, interval)
	if err == nil && copyTracker {
		err = s.migrateTracker(ctx, r, src, c.UserID(), in.Extras)
	}
	if err != nil {
		if derr := s.repos.Migrations().Discard(ctx, r); derr != nil {
			s.log.Error("removing the repository of a failed migration", "repo", r.FullName(), "err", derr)
		}
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}

// migrationOwner resolves the owner a migration names.
func (s *Service) migrationOwner(ctx context.Context, c auth.Caller, in MigrateInput) (*user.User, error) {
	if in.RepoOwner != "" || in.RepoOwnerID == 0 {
		return s.repos.Migrations().Owner(ctx, c, in.RepoOwner, "RepoOwner")
	}
	if in.RepoOwnerID == c.UserID() {
		return c.User, nil
	}
	u, err := s.stores.Users.GetByID(ctx, in.RepoOwnerID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errs.Invalid("owner does not exist", "RepoOwnerID")
	}
	if err != nil {
		return nil, err
	}
	return s.repos.Migrations().Owner(ctx, c, u.Name, "RepoOwnerID")
}

// fill fetches the remote into the new repository r and records what came:
// default branch, size, emptiness and, for a mirror, its row and first
// scheduled sync.
func (s *Service) fill(ctx context.Context, r *repository.Repository, remote ports.Remote, mirror bool, interval time.Duration) error {
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	fctx, cancel := withSyncTimeout(ctx)
	head, err := s.remotes.Fetch(fctx, p, remote)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.Invalid("migration failed: "+syncMessage(err, remote), "CloneAddr")
	}
	// The source's default branch becomes the copy's, as a clone's would.
	st, err := s.settle(ctx, p, remoteDefault(head))
	if err != nil {
		return err
	}
	var m *ports.Mirror
	if mirror {
		sealed, err := s.seal(remote, pullLabel(r.ID))
		if err != nil {
			return err
		}
		now := s.clock.Now()
		m = &ports.Mirror{RepoID: r.ID, RemoteURL: remote.URL, Credentials: sealed, Interval: interval,
			NextUpdate: nextUpdate(now, interval), Updated: now}
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := s.record(ctx, tx, r.ID, st); err != nil {
			return err
		}
		if m == nil {
			return nil
		}
		if err := tx.Mirrors.Create(ctx, m); err != nil {
			return err
		}
		if m.NextUpdate.IsZero() {
			return nil
		}
		_, err := tx.Jobs.Enqueue(ctx, pullTick(r.ID, m.NextUpdate))
		return err
	})
}

// gitState is what a fetch left in a repository.
type gitState struct {
	Empty         bool
	DefaultBranch string
	Size          int64
}

// settle reads what a fetch left in p and makes HEAD name a branch that
// exists: the first of preferred that does, else the branch HEAD already
// names (where the fetch left it), else master, else the first branch by
// name. An empty repository keeps its default branch ("" in the state).
func (s *Service) settle(ctx context.Context, p ports.RepoPath, preferred ...string) (gitState, error) {
	var st gitState
	size, err := s.git.Size(ctx, p)
	if err != nil {
		return st, err
	}
	st.Size = size
	if st.Empty, err = s.git.IsEmpty(ctx, p); err != nil || st.Empty {
		return st, err
	}
	branch, err := s.pickBranch(ctx, p, preferred)
	if err != nil {
		return st, err
	}
	if err := s.git.SetHead(ctx, p, branch); err != nil {
		return st, err
	}
	st.DefaultBranch = branch
	return st, nil
}

func (s *Service) pickBranch(ctx context.Context, p ports.RepoPath, preferred []string) (string, error) {
	for _, b := range preferred {
		if b == "" {
			continue
		}
		if ok, err := s.git.HasBranch(ctx, p, b); err != nil || ok {
			return b, err
		}
	}
	if head, err := s.content.Resolve(ctx, p, ""); err == nil {
		return head.Name, nil
	} else if !errors.Is(err, errs.ErrNotFound) {
		return "", err
	}
	if ok, err := s.git.HasBranch(ctx, p, "master"); err != nil || ok {
		return "master", err
	}
	list, _, err := s.content.ListBranches(ctx, p, ports.ListOptions{Page: 1, Limit: 1})
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", errors.New("mirrors: a non-empty repository without branches")
	}
	return list[0].Name, nil
}

// remoteDefault is the remote's default branch as Fetch reported it, when it
// is a name a default branch may have; "" (no preference) otherwise.
func remoteDefault(head string) string {
	if head == "" || repository.ValidateBranchName("head", head) != nil {
		return ""
	}
	return head
}

// record writes a repository's Git facts after a fetch.
func (s *Service) record(ctx context.Context, tx ports.Stores, repoID int64, st gitState) error {
	if err := tx.Repos.SetSize(ctx, repoID, st.Size); err != nil {
		return err
	}
	if err := tx.Repos.SetEmpty(ctx, repoID, st.Empty); err != nil {
		return err
	}
	cur, err := tx.Repos.GetByID(ctx, repoID)
	if err != nil {
		return err
	}
	if st.DefaultBranch == "" || cur.DefaultBranch == st.DefaultBranch {
		return nil
	}
	cur.DefaultBranch = st.DefaultBranch
	return tx.Repos.Update(ctx, cur)
}
