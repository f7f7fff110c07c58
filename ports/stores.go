package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/token"
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

// EmailStore persists e-mail addresses. An address is unique site-wide (case-insensitive).
type EmailStore interface {
	Add(ctx context.Context, e *user.Email) error
	ListByUser(ctx context.Context, userID int64) ([]*user.Email, error)
	// GetByEmail finds an address of any user.
	GetByEmail(ctx context.Context, addr string) (*user.Email, error)
	Delete(ctx context.Context, userID int64, addr string) error
	// SetPrimary marks addr as the user's only primary address.
	SetPrimary(ctx context.Context, userID int64, addr string) error
	// Search lists addresses of all users matching keyword (address, name or full name), one page, and the total.
	Search(ctx context.Context, keyword string, opts ListOptions) ([]*user.EmailOwner, int64, error)
	// UsersByEmails finds in one query the owners of these addresses, only
	// activated ones, compared case-insensitively; the map is keyed by the
	// lower-case address and leaves unknown addresses out.
	UsersByEmails(ctx context.Context, addrs []string) (map[string]*user.User, error)
}

// AccessTokenStore persists personal access tokens.
type AccessTokenStore interface {
	Create(ctx context.Context, t *token.AccessToken) error
	// ListByUser returns one page ordered by id, and the total.
	ListByUser(ctx context.Context, userID int64, opts ListOptions) ([]*token.AccessToken, int64, error)
	// FindByLastEight returns every token whose secret ends with lastEight.
	FindByLastEight(ctx context.Context, lastEight string) ([]*token.AccessToken, error)
	GetByID(ctx context.Context, userID, id int64) (*token.AccessToken, error)
	GetByName(ctx context.Context, userID int64, name string) (*token.AccessToken, error)
	Delete(ctx context.Context, id int64) error
	// TouchLastUsed records last-use times in one batch.
	TouchLastUsed(ctx context.Context, used map[int64]time.Time) error
}

// Stores is the set of stores one unit of work uses.
type Stores struct {
	Users         UserStore
	Emails        EmailStore
	Tokens        AccessTokenStore
	Repos         RepoStore
	Collaborators CollaboratorStore
	DeployKeys    DeployKeyStore
	Topics        TopicStore
	Stars         StarStore
	Watches       WatchStore
	Transfers     TransferStore
	PublicKeys    PublicKeyStore

	CommitStatuses CommitStatusStore

	Jobs           JobStore
	Mirrors        MirrorStore
	PushMirrors    PushMirrorStore
	Hooks          HookStore
	HookDeliveries HookDeliveryStore

	Orgs   OrgStore
	Blocks BlockStore

	Issues         IssueStore
	Labels         LabelStore
	Milestones     MilestoneStore
	Comments       CommentStore
	Reactions      ReactionStore
	Attachments    AttachmentStore
	TrackedTimes   TrackedTimeStore
	IssueRelations IssueRelationStore
}

// Transactor runs fn in one database transaction with stores bound to it, and
// returns the commit's error. fn must not do network I/O.
type Transactor interface {
	InTx(ctx context.Context, fn func(ctx context.Context, tx Stores) error) error
}
