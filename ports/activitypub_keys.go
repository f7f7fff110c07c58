package ports

import (
	"context"
	"strconv"
	"time"
)

// ActorKey is an account's ActivityPub key pair: the public half as a PKIX
// PEM block, the private half sealed by a SecretBox under ActorKeyLabel.
type ActorKey struct {
	UserID        int64
	PublicPEM     string
	PrivateSealed string
	Created       time.Time
}

// ActorKeyLabel is the SecretBox label an account's sealed private key is
// bound to.
func ActorKeyLabel(userID int64) string {
	return "activitypub-actor-key:" + strconv.FormatInt(userID, 10)
}

// ActorKeyStore persists the accounts' actor key pairs.
type ActorKeyStore interface {
	// Get returns the account's pair; none yet is errs.ErrNotFound.
	Get(ctx context.Context, userID int64) (*ActorKey, error)
	// Add stores k unless the account has a pair already, and returns the
	// pair the account ends up with (the one another request stored first
	// wins); a missing account is errs.ErrNotFound.
	Add(ctx context.Context, k *ActorKey) (*ActorKey, error)
}

// ActorKeyPairs makes actor key pairs.
type ActorKeyPairs interface {
	// NewActorKeyPair returns a new RSA pair as PEM blocks: the public key
	// in PKIX ("PUBLIC KEY"), the private key in PKCS#1.
	NewActorKeyPair() (publicPEM, privatePEM string, err error)
}

// RemoteActorKey is a remote actor's public key as its actor document
// gives it.
type RemoteActorKey struct {
	// KeyID is the key's id, the URL the document was fetched from.
	KeyID string
	// Owner is the actor the key belongs to.
	Owner string
	// PublicPEM is the key as a PKIX PEM block.
	PublicPEM string
}

// RemoteActorKeys fetches remote actors' keys through the outbound guard.
type RemoteActorKeys interface {
	// Fetch reads the actor document at keyID and returns the key whose id
	// is keyID. A refused, unreachable or unreadable document, or one
	// without that key, is errs.ErrUnauthenticated: the signature it was
	// to check cannot be trusted.
	Fetch(ctx context.Context, keyID string) (RemoteActorKey, error)
}
