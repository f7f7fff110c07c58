package users

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Admin are the use cases of administering accounts: creating, editing,
// renaming, deleting and listing them (the API's admin routes and the
// command line's).
type Admin struct{ *Service }

// Admin returns the account administration use cases.
func (s *Service) Admin() Admin { return Admin{s} }

// CreateInput is a new account.
type CreateInput struct {
	Name, Email, Password, FullName string
	// MustChangePassword defaults to true, as in Gitea, when nil.
	MustChangePassword *bool
	Visibility         *user.Visibility
	IsAdmin            bool
	// SkipPasswordPolicy lets the admin CLI set any non-empty password.
	SkipPasswordPolicy bool
}

// Create makes an account with its primary e-mail address in one transaction.
func (s Admin) Create(ctx context.Context, in CreateInput) (*user.User, error) {
	if err := user.ValidateName("Username", in.Name); err != nil {
		return nil, err
	}
	if err := user.ValidateEmail("Email", in.Email); err != nil {
		return nil, err
	}
	if err := s.checkPassword(in.Password, in.SkipPasswordPolicy); err != nil {
		return nil, err
	}
	vis := user.VisibilityPublic
	if in.Visibility != nil {
		if err := user.ValidateVisibility("Visibility", *in.Visibility); err != nil {
			return nil, err
		}
		vis = *in.Visibility
	}
	if len(in.FullName) > 100 {
		return nil, errs.Invalid("MaxSize", "FullName")
	}
	hash, err := s.hasher.Hash(in.Password)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	// Gitea's CreateUser sets the site's default theme and leaves language
	// and diff view style empty (user.DefaultTheme).
	u := &user.User{
		Name: in.Name, LowerName: strings.ToLower(in.Name), Kind: user.KindIndividual,
		FullName: in.FullName, Email: in.Email, PasswordHash: hash, PasswordVersion: 1,
		IsAdmin: in.IsAdmin, IsActive: true, MustChangePassword: true, Visibility: vis,
		AllowCreateOrganization: true, MaxRepoCreation: -1, Theme: user.DefaultTheme,
		Created: now, Updated: now,
	}
	if in.MustChangePassword != nil {
		u.MustChangePassword = *in.MustChangePassword
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Users.DeleteRedirect(ctx, u.LowerName); err != nil && !errors.Is(err, errs.ErrNotFound) {
			return err
		}
		if err := tx.Users.Create(ctx, u); err != nil {
			return errs.AsInvalid(err, errs.ErrConflict, "Username")
		}
		e := &user.Email{UserID: u.ID, Email: u.Email, LowerEmail: strings.ToLower(u.Email), Activated: true, Primary: true}
		return errs.AsInvalid(tx.Emails.Add(ctx, e), errs.ErrConflict, "Email")
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (s Admin) checkPassword(pw string, skipPolicy bool) error {
	if skipPolicy {
		if pw == "" {
			return errs.Invalid("Required", "Password")
		}
		return nil
	}
	return s.policy.Check("Password", pw)
}

// EditInput changes an account; nil fields stay as they are.
type EditInput struct {
	Email, FullName, Password, Description, Website, Location         *string
	MustChangePassword, Active, Admin, AllowGitHook, AllowImportLocal *bool
	ProhibitLogin, AllowCreateOrganization, Restricted                *bool
	MaxRepoCreation                                                   *int
	Visibility                                                        *user.Visibility
	// SkipPasswordPolicy lets the admin CLI set any non-empty password.
	SkipPasswordPolicy bool
}

// Edit applies in to the account called name and returns it.
func (s Admin) Edit(ctx context.Context, name string, in EditInput) (*user.User, error) {
	var out *user.User
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByName(ctx, name)
		if err != nil {
			return err
		}
		if err := s.applyEdit(ctx, tx, u, in); err != nil {
			return err
		}
		u.Updated = s.clock.Now()
		if err := tx.Users.Update(ctx, u); err != nil {
			return err
		}
		out = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.tokens.ForgetUser(out.ID)
	return out, nil
}

func (s Admin) applyEdit(ctx context.Context, tx ports.Stores, u *user.User, in EditInput) error {
	if in.Password != nil && *in.Password != "" {
		if err := s.checkPassword(*in.Password, in.SkipPasswordPolicy); err != nil {
			return err
		}
		hash, err := s.hasher.Hash(*in.Password)
		if err != nil {
			return err
		}
		u.PasswordHash, u.PasswordVersion = hash, u.PasswordVersion+1
	}
	if in.Email != nil && !strings.EqualFold(*in.Email, u.Email) {
		if err := s.changePrimaryEmail(ctx, tx, u, *in.Email); err != nil {
			return err
		}
	}
	if in.Visibility != nil {
		if err := user.ValidateVisibility("Visibility", *in.Visibility); err != nil {
			return err
		}
		u.Visibility = *in.Visibility
	}
	if in.FullName != nil {
		if len(*in.FullName) > 100 {
			return errs.Invalid("MaxSize", "FullName")
		}
		u.FullName = *in.FullName
	}
	if in.Website != nil {
		if err := validateWebsite(*in.Website); err != nil {
			return err
		}
		u.Website = *in.Website
	}
	if in.MaxRepoCreation != nil {
		if *in.MaxRepoCreation < -1 {
			return errs.Invalid("must be -1 (site default) or more", "MaxRepoCreation")
		}
		u.MaxRepoCreation = *in.MaxRepoCreation
	}
	setString(&u.Description, in.Description)
	setString(&u.Location, in.Location)
	setBool(&u.MustChangePassword, in.MustChangePassword)
	setBool(&u.IsActive, in.Active)
	setBool(&u.IsAdmin, in.Admin)
	setBool(&u.AllowGitHook, in.AllowGitHook)
	setBool(&u.AllowImportLocal, in.AllowImportLocal)
	setBool(&u.ProhibitLogin, in.ProhibitLogin)
	setBool(&u.AllowCreateOrganization, in.AllowCreateOrganization)
	setBool(&u.IsRestricted, in.Restricted)
	return nil
}

// changePrimaryEmail makes addr the primary address, adding it when the user
// does not have it yet.
func (s Admin) changePrimaryEmail(ctx context.Context, tx ports.Stores, u *user.User, addr string) error {
	if err := user.ValidateEmail("Email", addr); err != nil {
		return err
	}
	existing, err := tx.Emails.GetByEmail(ctx, addr)
	switch {
	case err == nil && existing.UserID != u.ID:
		return errs.Invalid("email already in use", "Email")
	case err == nil:
		addr = existing.Email // the user's own address, spelt as stored
	case errors.Is(err, errs.ErrNotFound):
		e := &user.Email{UserID: u.ID, Email: addr, LowerEmail: strings.ToLower(addr), Activated: true}
		if err := tx.Emails.Add(ctx, e); err != nil {
			return errs.AsInvalid(err, errs.ErrConflict, "Email")
		}
	case err != nil:
		return err
	}
	if err := tx.Emails.SetPrimary(ctx, u.ID, addr); err != nil {
		return err
	}
	u.Email = addr
	return nil
}

func setString(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// Delete removes the account called name. An administrator cannot delete
// itself, so that a site is never left without the one who administers it.
func (s Admin) Delete(ctx context.Context, doerID int64, name string) error {
	var id int64
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByName(ctx, name)
		if err != nil {
			return err
		}
		if u.ID == doerID {
			return errs.Invalid("you cannot delete yourself", "username")
		}
		id = u.ID
		// As Gitea: an account in an organisation's teams must leave them
		// first, so that no organisation loses its last owner this way.
		if _, n, err := tx.Orgs.TeamsOfUser(ctx, u.ID, ports.ListOptions{Page: 1, Limit: 1}); err != nil {
			return err
		} else if n > 0 {
			return errs.Invalid("user still has membership of organizations", "username")
		}
		if err := tx.Users.Delete(ctx, u.ID); errors.Is(err, errs.ErrConflict) {
			// Gitea's 422 for an account that still owns repositories.
			return errs.Invalid("user still has ownership of repositories", "username")
		} else if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.tokens.ForgetUser(id)
	return nil
}

// Rename gives the account called name the name newName, and leaves a
// redirect from the old name.
func (s Admin) Rename(ctx context.Context, name, newName string) error {
	if err := user.ValidateName("NewUsername", newName); err != nil {
		return err
	}
	var (
		id      int64
		moved   bool
		journal ports.DirMove
	)
	defer func() { s.tokens.ForgetUser(id) }()
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByName(ctx, name)
		if err != nil {
			return err
		}
		id = u.ID
		oldLower := u.LowerName
		newLower := strings.ToLower(newName)
		if oldLower != newLower {
			if _, err := tx.Users.GetByName(ctx, newName); err == nil {
				return errs.Invalid("user already exists", "NewUsername")
			} else if !errors.Is(err, errs.ErrNotFound) {
				return err
			}
			if err := tx.Users.DeleteRedirect(ctx, newLower); err != nil && !errors.Is(err, errs.ErrNotFound) {
				return err
			}
		}
		u.Name, u.LowerName, u.Updated = newName, newLower, s.clock.Now()
		if err := tx.Users.Update(ctx, u); err != nil {
			return errs.AsInvalid(err, errs.ErrConflict, "NewUsername")
		}
		if oldLower == newLower {
			return nil
		}
		if err := tx.Users.AddRedirect(ctx, oldLower, u.ID); err != nil {
			return err
		}
		// The repositories live under the owner's name on disk; the move
		// happens last inside the transaction, journalled so that a crash
		// before the commit is undone at the next start, and is undone at
		// once if the commit fails.
		journal, err = s.git.JournalMove(ctx, ports.DirMove{UserID: u.ID, Owner: true,
			From: ports.RepoPath{Owner: oldLower}, To: ports.RepoPath{Owner: newLower}})
		if err != nil {
			return err
		}
		if err := s.git.MoveOwner(ctx, oldLower, newLower); err != nil {
			s.settleOwnerMove(ctx, journal)
			return err
		}
		moved = true
		return nil
	})
	if moved {
		if err != nil {
			if merr := s.git.MoveOwner(context.WithoutCancel(ctx), journal.To.Owner, journal.From.Owner); merr != nil {
				s.log.Error("moving repositories back after a failed rename", "from", journal.To.Owner,
					"to", journal.From.Owner, "err", merr)
				return err // the journal stays: the next start moves them back
			}
		}
		s.settleOwnerMove(ctx, journal)
	}
	return err
}

// settleOwnerMove forgets a journalled owner move.
func (s Admin) settleOwnerMove(ctx context.Context, m ports.DirMove) {
	if err := s.git.SettleMove(context.WithoutCancel(ctx), m); err != nil {
		s.log.Error("settling an owner move", "journal", m.ID, "err", err)
	}
}

// AdminListQuery filters the admin's user listing.
type AdminListQuery struct {
	LoginName string
	ports.ListOptions
}

// List lists every individual account, for administrators.
func (s Admin) List(ctx context.Context, q AdminListQuery) ([]*user.User, int64, error) {
	return s.stores.Users.Search(ctx, ports.UserSearch{
		LoginName: strings.ToLower(q.LoginName), Kind: user.KindIndividual, ListOptions: q.ListOptions,
	})
}
