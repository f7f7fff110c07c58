package user

import (
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// PublicKey is an SSH public key an account signs in to Git over SSH with.
// Its fingerprint is unique across every account's keys and every deploy
// key, so a key presented to the SSH server names exactly one account.
type PublicKey struct {
	ID          int64
	OwnerID     int64
	Title       string
	Content     string // "ssh-ed25519 AAAA…", without comment
	Fingerprint string // "SHA256:…"
	Created     time.Time
	// LastUsed is when the key last signed in; it starts at Created, as
	// Gitea's updated time does.
	LastUsed time.Time
}

// MaxKeyTitleLength is the longest key title accepted (Gitea's form limit,
// and the one deploy keys use).
const MaxKeyTitleLength = 50

// Conflicts a new key can meet. They are errs.ErrConflict, so callers that
// only care about the category can test that; the messages are Gitea's.
var (
	// ErrKeyInUse is a fingerprint some account already registered.
	ErrKeyInUse = errs.Conflict("Key content has been used as non-deploy key")
	// ErrKeyIsDeployKey is a fingerprint registered as a deploy key: one key
	// must not open both an account and a repository.
	ErrKeyIsDeployKey = errs.Conflict("Key content has been used as deploy key")
	// ErrKeyTitleInUse is a title the owner already gave another key.
	ErrKeyTitleInUse = errs.Conflict("Key title has been used")
)

// NormalizeKeyTitle trims title and checks it is present and short enough;
// field names the input field for the 422 message.
func NormalizeKeyTitle(field, title string) (string, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return "", errs.Invalid("Required", field)
	}
	if len([]rune(title)) > MaxKeyTitleLength {
		return "", errs.Invalid("MaxSize", field)
	}
	return title, nil
}

// CanHoldKeys reports whether u may register SSH keys: only individuals sign
// in, so an organisation's key would open nothing but could shadow a user's.
func CanHoldKeys(u *User) bool { return u.Kind == KindIndividual }
