package ports

import (
	"context"

	"github.com/depothq/depot/domain/user"
)

// UserSearch filters a user listing.
type UserSearch struct {
	// Keyword matches name or full name, case-insensitively, anywhere; empty matches all.
	Keyword string
	// UID restricts to one id when non-zero.
	UID int64
	// Visibilities restricts to these visibilities; empty means all.
	Visibilities []user.Visibility
	// IncludeUserID also returns this user whatever the visibility filter (a caller sees itself).
	IncludeUserID int64
	// Kind restricts to individuals or organisations.
	Kind user.Kind
	// LoginName filters by exact lower-cased name when non-empty (admin listing).
	LoginName string
	ListOptions
}

// UserStore persists accounts. Lookups by name are case-insensitive.
// Missing rows are errs.ErrNotFound; taken names or addresses are errs.ErrConflict.
type UserStore interface {
	Create(ctx context.Context, u *user.User) error
	// Update writes every column of u.
	Update(ctx context.Context, u *user.User) error
	// Delete removes the user, its e-mails, tokens and redirects.
	Delete(ctx context.Context, id int64) error
	GetByID(ctx context.Context, id int64) (*user.User, error)
	GetByName(ctx context.Context, name string) (*user.User, error)
	// GetByIDs finds the users with these ids, in one query; absent ids are skipped.
	GetByIDs(ctx context.Context, ids []int64) ([]*user.User, error)
	// GetByNames finds the accounts (users and organisations) with these
	// names, any case, in one query; absent names are skipped.
	GetByNames(ctx context.Context, names []string) ([]*user.User, error)
	// Search returns one page, ordered by id, and the total count matching.
	Search(ctx context.Context, q UserSearch) ([]*user.User, int64, error)
	// Count returns how many accounts (of any kind) exist.
	Count(ctx context.Context) (int64, error)
	// AddRedirect records that oldName now means userID (after a rename).
	AddRedirect(ctx context.Context, oldName string, userID int64) error
	// LookupRedirect returns the user id an old name points at.
	LookupRedirect(ctx context.Context, oldName string) (int64, error)
	// DeleteRedirect forgets an old name (when it is taken again).
	DeleteRedirect(ctx context.Context, oldName string) error
}
