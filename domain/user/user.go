// Package user holds the account aggregate: users, their e-mail addresses and
// the rules for names, addresses and passwords. It is pure: no I/O.
package user

import (
	"time"
)

// Visibility says who may see a user or organisation.
type Visibility string

// The visibilities, spelled as in Gitea's API.
const (
	VisibilityPublic  Visibility = "public"
	VisibilityLimited Visibility = "limited"
	VisibilityPrivate Visibility = "private"
)

// Valid reports whether v is one of the known visibilities.
func (v Visibility) Valid() bool {
	return v == VisibilityPublic || v == VisibilityLimited || v == VisibilityPrivate
}

// Kind tells an individual from an organisation; both live in one table so
// that names are unique across them.
type Kind int

// The account kinds.
const (
	KindIndividual   Kind = 0
	KindOrganization Kind = 1
)

// User is an account.
type User struct {
	ID        int64
	Name      string // as typed at creation or rename
	LowerName string // for case-insensitive lookups and uniqueness
	Kind      Kind
	FullName  string
	Email     string // primary address
	// PasswordHash is the encoded KDF output, empty when the account cannot sign in with a password.
	PasswordHash string
	// PasswordVersion changes whenever the password does, so caches keyed on it expire.
	PasswordVersion int64

	IsAdmin            bool
	IsActive           bool
	ProhibitLogin      bool
	MustChangePassword bool
	IsRestricted       bool
	Visibility         Visibility

	Location    string
	Website     string
	Description string
	Language    string
	Theme       string
	DiffView    string
	HideEmail   bool
	// HideActivity is Gitea's KeepActivityPrivate.
	HideActivity bool

	AllowGitHook            bool
	AllowImportLocal        bool
	AllowCreateOrganization bool
	MaxRepoCreation         int // -1 means the site default

	// TOTPSecret is the base32 secret of an enrolled authenticator; empty when 2FA is off.
	TOTPSecret string

	// NumStars is how many repositories the user starred (kept by the star store).
	NumStars int
	// NumFollowers and NumFollowing count the accounts following this one
	// and those it follows (kept by the follow store, in the transaction
	// that follows or unfollows).
	NumFollowers, NumFollowing int

	// Avatar names the uploaded avatar image in the avatar store; empty when none.
	Avatar string

	Created   time.Time
	Updated   time.Time
	LastLogin time.Time
}

// HasTwoFactor reports whether sign-in with a password also needs a one-time code.
func (u *User) HasTwoFactor() bool { return u.TOTPSecret != "" }

// Email is one address of a user.
type Email struct {
	ID         int64
	UserID     int64
	Email      string
	LowerEmail string
	Activated  bool
	Primary    bool
}

// EmailOwner pairs an address with the name of the user it belongs to, for admin listings.
type EmailOwner struct {
	Email
	UserName string
}
