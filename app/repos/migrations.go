package repos

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Migrations are the repository side of a migration: the owner it goes to, the empty repository it
// fetches into, and its removal when the migration fails (the mirrors use cases run migrations).
type Migrations struct{ *Service }

// Migrations returns the migration entry points.
func (s *Service) Migrations() Migrations { return Migrations{s} }

// Pull mirror intervals, as Gitea's [mirror] defaults: syncs every eight
// hours unless told otherwise, never more often than every ten minutes; 0
// turns scheduled syncs off.
const (
	DefaultMirrorInterval = 8 * time.Hour
	MinMirrorInterval     = 10 * time.Minute
)

// ParseMirrorInterval reads a mirror interval ("8h", "90m", "0") and refuses,
// naming field, one that is not a duration, is negative or is shorter than
// the minimum.
func ParseMirrorInterval(field, s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errs.Invalid("invalid duration "+quoteShort(s), field)
	}
	if d < 0 || (d != 0 && d < MinMirrorInterval) {
		return 0, errs.Invalid("interval "+d.String()+" is below the minimum interval of "+MinMirrorInterval.String(), field)
	}
	return d, nil
}

// quoteShort quotes user input for a message, cut to a sane length.
func quoteShort(s string) string {
	if len(s) > 40 {
		// Cut before a character, not inside one: the message is JSON text.
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return `"` + s + `"`
}

// MirrorIntervalHook is told, inside the transaction of a repository edit,
// that a pull mirror's interval changed, so the schedule follows.
type MirrorIntervalHook func(ctx context.Context, tx ports.Stores, repoID int64, interval time.Duration) error

// OnMirrorInterval registers the hook the mirror use cases keep their
// schedule with. The mirrors package builds on this one, so it reaches in
// here rather than the other way round. Call it before serving.
func (s *Service) OnMirrorInterval(h MirrorIntervalHook) { s.mirrorInterval = h }

// MigrateInput is the repository a migration creates before it fetches.
type MigrateInput struct {
	Name, Description string
	Private           bool
	// Mirror makes a pull mirror of OriginalURL syncing every MirrorInterval.
	Mirror         bool
	MirrorInterval time.Duration
	// OriginalURL is the address migrated from, without credentials.
	OriginalURL string
}

// errMigrateForOtherUser is Gitea's refusal of a migration into another
// individual's account.
var errMigrateForOtherUser = errs.Forbidden("Given user is not an organization.")

// Owner resolves the account named in a migration (the caller
// when name is empty): a site admin may name anyone, others themselves or
// an organisation they own. An unknown account is a 422 naming field.
func (s Migrations) Owner(ctx context.Context, c auth.Caller, name, field string) (*user.User, error) {
	return s.targetOwner(ctx, c, name, field, errMigrateForOtherUser)
}

// Create makes the empty repository a migration fetches into:
// the row and an empty Git directory, as Create makes them (the name is
// reserved by the row, so the fetch, which may take long, runs outside any
// lock). The caller fills it, with Discard as the way back.
func (s Migrations) Create(ctx context.Context, c auth.Caller, owner *user.User, in MigrateInput) (*repository.Repository, error) {
	if err := validateNew("RepoName", in.Name, in.Description); err != nil {
		return nil, err
	}
	if err := s.checkRepoLimit(ctx, owner); err != nil {
		return nil, err
	}
	r := s.newRepository(owner, in.Name, in.Description, in.Private)
	r.IsMirror, r.OriginalURL = in.Mirror, in.OriginalURL
	if in.Mirror {
		r.MirrorInterval = in.MirrorInterval.String()
	}
	return s.createRepository(ctx, r, c.UserID(), func(p ports.RepoPath) error {
		return s.git.Init(ctx, p, repository.DefaultBranch)
	})
}

// Discard removes the repository of a failed migration, row and
// directory, as Delete does.
func (s Migrations) Discard(ctx context.Context, r *repository.Repository) error {
	return s.Delete(context.WithoutCancel(ctx), &Access{Repo: r})
}

// rescheduleMirror tells the mirror hook, inside the edit's transaction,
// that a mirror_interval was given (even the same one: Gitea schedules the
// next sync from now either way).
func (s *Service) rescheduleMirror(ctx context.Context, tx ports.Stores, old, r *repository.Repository, in EditInput) error {
	if in.MirrorInterval == nil || !old.IsMirror || s.mirrorInterval == nil {
		return nil
	}
	d, err := time.ParseDuration(r.MirrorInterval)
	if err != nil {
		return err
	}
	return s.mirrorInterval(ctx, tx, r.ID, d)
}
